package secret_test

import (
	"fmt"

	"github.com/rollstep/rollstep/examples/internal/secret"
)

// A player draws the token and prints it for the others; they parse it.
func ExampleParse() {
	tok, err := secret.Parse("00000000deadbeef")
	fmt.Println(secret.Format(tok), err)
	// Output: 00000000deadbeef <nil>
}
