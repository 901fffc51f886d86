package testenv_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
			assert.Equal(t, tc.want, testenv.Pick(10, 1000), "Pick(10, 1000)")
			assert.Equal(t, tc.want == 1000, testenv.Soak(), "Soak()")
		})
	}
}
