package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

func TestParseSpike(t *testing.T) {
	invalid := transport.ErrInvalidConfig
	for _, tc := range []struct {
		name string
		in   string
		want sim.Spike
		err  error
	}{
		{"Valid", "400ms/600ms/2s", sim.Spike{Height: 400 * time.Millisecond, Length: 600 * time.Millisecond, Period: 2 * time.Second}, nil},
		{"Spaces", " 400ms / 600ms / 2s ", sim.Spike{Height: 400 * time.Millisecond, Length: 600 * time.Millisecond, Period: 2 * time.Second}, nil},
		{"LengthEqualsPeriod", "1s/2s/2s", sim.Spike{Height: time.Second, Length: 2 * time.Second, Period: 2 * time.Second}, nil},
		{"HeightAlone", "400ms", sim.Spike{}, errSyntax},
		{"TwoParts", "400ms/600ms", sim.Spike{}, errSyntax},
		{"FourParts", "1s/1s/1s/1s", sim.Spike{}, errSyntax},
		{"Empty", "", sim.Spike{}, errSyntax},
		{"BadDuration", "400/600ms/2s", sim.Spike{}, errSyntax},
		{"ZeroPeriod", "400ms/600ms/0s", sim.Spike{}, invalid},
		{"AllZero", "0s/0s/0s", sim.Spike{}, invalid},
		{"NegativePeriod", "400ms/600ms/-2s", sim.Spike{}, invalid},
		{"LengthAbovePeriod", "400ms/3s/2s", sim.Spike{}, invalid},
		{"ZeroLength", "400ms/0s/2s", sim.Spike{}, invalid},
		{"NegativeHeight", "-1ms/600ms/2s", sim.Spike{}, invalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseSpike(tc.in)
			if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("parseSpike(%q): got (%v, %v), want (%v, %v)", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
}

func TestParseLatency(t *testing.T) {
	ms := time.Millisecond
	spike := sim.Spike{Height: 400 * ms, Length: 600 * ms, Period: 2 * time.Second}
	invalid := transport.ErrInvalidConfig
	for _, tc := range []struct {
		name string
		in   string
		want sim.Latency
		err  error
	}{
		{"Constant", "50ms", sim.Latency{Base: 50 * ms}, nil},
		{"Zero", "0", sim.Latency{}, nil},
		{"PlusMinus", "50ms±10ms", sim.Latency{Base: 50 * ms, Jitter: 10 * ms}, nil},
		{"Tilde", "50ms~10ms", sim.Latency{Base: 50 * ms, Jitter: 10 * ms}, nil},
		{"ASCII", "50ms+-10ms", sim.Latency{Base: 50 * ms, Jitter: 10 * ms}, nil},
		{"WithSpike", "50ms±10ms spike 400ms/600ms/2s", sim.Latency{Base: 50 * ms, Jitter: 10 * ms, Spike: spike}, nil},
		{"Empty", "", sim.Latency{}, errSyntax},
		{"NoUnit", "50", sim.Latency{}, errSyntax},
		{"MissingJitter", "50ms±", sim.Latency{}, errSyntax},
		{"BadKeyword", "50ms burst 1s/1s/2s", sim.Latency{}, errSyntax},
		{"BadSpike", "50ms spike 400ms", sim.Latency{}, errSyntax},
		{"SpikeZeroPeriod", "50ms spike 1s/1s/0s", sim.Latency{}, invalid},
		{"Negative", "-50ms", sim.Latency{}, invalid},
		{"JitterAboveBase", "5ms±10ms", sim.Latency{}, invalid},
		{"TooLong", "25h", sim.Latency{}, invalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseLatency(tc.in)
			if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("parseLatency(%q): got (%v, %v), want (%v, %v)", tc.in, got, err, tc.want, tc.err)
			}
			if err != nil && !strings.Contains(err.Error(), `"`+tc.in+`"`) {
				t.Fatalf("parseLatency(%q): %q does not quote the input", tc.in, err)
			}
		})
	}
}

func TestParseErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		got  error
		want string
	}{
		{func() error { _, err := parseSpike("400ms"); return err }(),
			`"400ms": invalid syntax: want H/S/P (height/length/period), e.g. 400ms/600ms/2s`},
		{func() error { _, err := parseSpike("1s/3s/2s"); return err }(),
			`"1s/3s/2s": transport: invalid config: sim.LinkConfig.Latency.Spike.Length: 3s exceeds Period 2s`},
		{func() error { _, err := parseLatency("5ms±10ms"); return err }(),
			`"5ms±10ms": transport: invalid config: sim.LinkConfig.Latency.Jitter: 10ms exceeds Base 5ms`},
	} {
		if tc.got == nil || tc.got.Error() != tc.want {
			t.Errorf("got %v, want %s", tc.got, tc.want)
		}
	}
}

// checkParseError fails unless err quotes in and matches errSyntax or
// transport.ErrInvalidConfig.
func checkParseError(t *testing.T, in string, err error) {
	t.Helper()
	if !strings.Contains(err.Error(), `"`) || !(errors.Is(err, errSyntax) || errors.Is(err, transport.ErrInvalidConfig)) {
		t.Fatalf("parse %q: got %v, want errSyntax or transport.ErrInvalidConfig", in, err)
	}
}

func FuzzParseSpike(f *testing.F) {
	for _, s := range []string{"400ms/600ms/2s", "400ms", "1s/2s/2s", "0/0/0", "-1s/1s/2s", "1s/3s/2s", "1h/1ns/1ns", "//", "1e9s/1s/1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sp, err := parseSpike(in)
		if err != nil {
			checkParseError(t, in, err)
			return
		}
		if err := checkLink(sim.LinkConfig{Latency: sim.Latency{Spike: sp}}); err != nil || sp.Period <= 0 {
			t.Fatalf("parseSpike(%q) = %v, which is invalid: %v", in, sp, err)
		}
		again, err := parseSpike(sp.String())
		if err != nil || again != sp {
			t.Fatalf("round trip of %q: %v -> %q -> (%v, %v)", in, sp, sp.String(), again, err)
		}
	})
}

func FuzzParseLatency(f *testing.F) {
	for _, s := range []string{"50ms", "50ms±10ms", "50ms~10ms", "50ms+-10ms", "0", "5ms±10ms", "50ms±10ms spike 400ms/600ms/2s", "50ms spike 1s", "±", "-1ns"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		l, err := parseLatency(in)
		if err != nil {
			checkParseError(t, in, err)
			return
		}
		if err := checkLink(sim.LinkConfig{Latency: l}); err != nil {
			t.Fatalf("parseLatency(%q) = %v, which is invalid: %v", in, l, err)
		}
		again, err := parseLatency(l.String())
		if err != nil || again != l {
			t.Fatalf("round trip of %q: %v -> %q -> (%v, %v)", in, l, l.String(), again, err)
		}
	})
}
