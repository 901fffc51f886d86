package sim

import (
	"errors"
	"testing"
	"time"
)

func TestParseSpike(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want Spike
		err  error
	}{
		{"Valid", "400ms/600ms/2s", Spike{400 * time.Millisecond, 600 * time.Millisecond, 2 * time.Second}, nil},
		{"Spaces", " 400ms / 600ms / 2s ", Spike{400 * time.Millisecond, 600 * time.Millisecond, 2 * time.Second}, nil},
		{"LengthEqualsPeriod", "1s/2s/2s", Spike{time.Second, 2 * time.Second, 2 * time.Second}, nil},
		{"HeightAlone", "400ms", Spike{}, ErrSyntax},
		{"TwoParts", "400ms/600ms", Spike{}, ErrSyntax},
		{"FourParts", "1s/1s/1s/1s", Spike{}, ErrSyntax},
		{"Empty", "", Spike{}, ErrSyntax},
		{"BadDuration", "400/600ms/2s", Spike{}, ErrSyntax},
		{"ZeroPeriod", "400ms/600ms/0s", Spike{}, ErrSpikePeriod},
		{"NegativePeriod", "400ms/600ms/-2s", Spike{}, ErrSpikePeriod},
		{"LengthAbovePeriod", "400ms/3s/2s", Spike{}, ErrSpikeLength},
		{"ZeroLength", "400ms/0s/2s", Spike{}, ErrSpikeLength},
		{"NegativeHeight", "-1ms/600ms/2s", Spike{}, ErrRange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSpike(tc.in)
			if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("ParseSpike(%q): got (%v, %v), want (%v, %v)", tc.in, got, err, tc.want, tc.err)
			}
			var pe *ParseError
			if err != nil && (!errors.As(err, &pe) || pe.Input != tc.in || pe.Func != "ParseSpike") {
				t.Fatalf("ParseSpike(%q): got %#v, want a *ParseError quoting the input", tc.in, err)
			}
		})
	}
}

func TestParseLatency(t *testing.T) {
	ms := time.Millisecond
	spike := Spike{400 * ms, 600 * ms, 2 * time.Second}
	for _, tc := range []struct {
		name string
		in   string
		want Latency
		err  error
	}{
		{"Constant", "50ms", Latency{Base: 50 * ms}, nil},
		{"Zero", "0", Latency{}, nil},
		{"PlusMinus", "50ms±10ms", Latency{Base: 50 * ms, Jitter: 10 * ms}, nil},
		{"Tilde", "50ms~10ms", Latency{Base: 50 * ms, Jitter: 10 * ms}, nil},
		{"ASCII", "50ms+-10ms", Latency{Base: 50 * ms, Jitter: 10 * ms}, nil},
		{"WithSpike", "50ms±10ms spike 400ms/600ms/2s", Latency{Base: 50 * ms, Jitter: 10 * ms, Spike: spike}, nil},
		{"Empty", "", Latency{}, ErrSyntax},
		{"NoUnit", "50", Latency{}, ErrSyntax},
		{"MissingJitter", "50ms±", Latency{}, ErrSyntax},
		{"BadKeyword", "50ms burst 1s/1s/2s", Latency{}, ErrSyntax},
		{"BadSpike", "50ms spike 400ms", Latency{}, ErrSyntax},
		{"SpikeZeroPeriod", "50ms spike 1s/1s/0s", Latency{}, ErrSpikePeriod},
		{"Negative", "-50ms", Latency{}, ErrRange},
		{"JitterAboveBase", "5ms±10ms", Latency{}, ErrRange},
		{"TooLong", "25h", Latency{}, ErrRange},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseLatency(tc.in)
			if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("ParseLatency(%q): got (%v, %v), want (%v, %v)", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"Latency", Latency{Base: 50 * time.Millisecond}.String(), "50ms"},
		{"Jitter", Latency{Base: 50 * time.Millisecond, Jitter: time.Millisecond}.String(), "50ms±1ms"},
		{"Spike", Spike{time.Second, time.Second, 3 * time.Second}.String(), "1s/1s/3s"},
		{"NoSpike", Spike{}.String(), "none"},
		{"Error", func() string { _, err := ParseSpike("400ms"); return err.Error() }(),
			`sim: ParseSpike "400ms": invalid syntax: want H/S/P (height/length/period), e.g. 400ms/600ms/2s`},
		{"RangeError", func() string { _, err := ParseSpike("1s/3s/2s"); return err.Error() }(),
			`sim: ParseSpike "1s/3s/2s": Spike.Length = 3s (period 2s): spike length must be positive and at most the period`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Fatalf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}
