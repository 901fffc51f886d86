package testenv_test

import (
	"fmt"
	"os"

	"github.com/rollstep/rollstep/internal/testenv"
)

// A test sizes its match once: 300 frames by default, 10,000 in the soak run.
func ExamplePick() {
	os.Unsetenv(testenv.SoakVar)
	frames := testenv.Pick(300, 10_000)
	fmt.Println(frames)
	// Output: 300
}
