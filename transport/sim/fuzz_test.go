package sim

import (
	"errors"
	"testing"
)

// parseSentinels are the errors every parse failure matches one of.
var parseSentinels = []error{ErrSyntax, ErrRange, ErrSpikePeriod, ErrSpikeLength}

// checkParseError fails unless err is a *ParseError matching a sentinel.
func checkParseError(t *testing.T, in string, err error) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Input != in {
		t.Fatalf("parse %q: got %#v, want a *ParseError", in, err)
	}
	for _, s := range parseSentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("parse %q: %v matches no sentinel", in, err)
}

func FuzzParseSpike(f *testing.F) {
	for _, s := range []string{"400ms/600ms/2s", "400ms", "1s/2s/2s", "0/0/0", "-1s/1s/2s", "1s/3s/2s", "1h/1ns/1ns", "//", "1e9s/1s/1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sp, err := ParseSpike(in)
		if err != nil {
			checkParseError(t, in, err)
			return
		}
		if err := sp.Validate(); err != nil || sp.Period <= 0 {
			t.Fatalf("ParseSpike(%q) = %v, which is invalid: %v", in, sp, err)
		}
		again, err := ParseSpike(sp.String())
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
		l, err := ParseLatency(in)
		if err != nil {
			checkParseError(t, in, err)
			return
		}
		if err := l.Validate(); err != nil {
			t.Fatalf("ParseLatency(%q) = %v, which is invalid: %v", in, l, err)
		}
		again, err := ParseLatency(l.String())
		if err != nil || again != l {
			t.Fatalf("round trip of %q: %v -> %q -> (%v, %v)", in, l, l.String(), again, err)
		}
	})
}
