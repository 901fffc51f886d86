package testenv_test

import (
	"testing"

	"github.com/rollstep/rollstep/internal/testenv"
)

func TestPick(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want int
	}{
		{"", 10},
		{"0", 10},
		{"yes", 10},
		{"1", 1000},
	} {
		t.Run("ROLLSTEP_SOAK="+tc.env, func(t *testing.T) {
			t.Setenv(testenv.SoakVar, tc.env)
			if got := testenv.Pick(10, 1000); got != tc.want {
				t.Errorf("Pick(10, 1000) = %d, want %d", got, tc.want)
			}
			if got, want := testenv.Soak(), tc.want == 1000; got != want {
				t.Errorf("Soak() = %v, want %v", got, want)
			}
		})
	}
}
