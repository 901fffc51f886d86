package testenv

import "os"

// SoakVar is the environment variable that selects soak-sized tests when set
// to 1.
const SoakVar = "ROLLSTEP_SOAK"

// Soak reports whether the soak-sized tests were asked for: ROLLSTEP_SOAK=1.
// Any other value, or none, selects the quick sizes.
func Soak() bool { return os.Getenv(SoakVar) == "1" }

// Pick returns soak when Soak reports true and quick otherwise. A test
// writes its size once, as Pick(quick, soak), beside the property it proves.
func Pick[T any](quick, soak T) T {
	if Soak() {
		return soak
	}
	return quick
}
