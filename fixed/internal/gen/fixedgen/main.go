// Command fixedgen writes the lookup tables and constants of package fixed.
//
// Usage, from the fixed directory (go generate runs it there):
//
//	go run ./internal/gen/fixedgen [-o tables.go]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/rollstep/rollstep/fixed/internal/gen"
)

func main() {
	out := flag.String("o", "tables.go", "output file")
	flag.Parse()
	src, err := gen.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fixedgen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "fixedgen:", err)
		os.Exit(1)
	}
}
