// Command fixedcheck is the fixedcheck analyzer packaged as a go vet tool:
// it reports *, / and % between two fixed.F values.
//
// Build it, then hand it to go vet to report misuses or to go fix to apply
// the suggested fixes:
//
//	go build -o /tmp/fixedcheck ./fixed/fixedcheck/cmd/fixedcheck
//	go vet -vettool=/tmp/fixedcheck ./...
//	go fix -fixtool=/tmp/fixedcheck ./...
//
// go vet runs only this analyzer when given -vettool, and exits with a
// non-zero status if it reports anything. The command cannot be run on
// packages directly; it speaks go vet's unit protocol. See package
// github.com/rollstep/rollstep/fixed/fixedcheck for the rules.
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/rollstep/rollstep/fixed/fixedcheck"
)

func main() { unitchecker.Main(fixedcheck.Analyzer) }
