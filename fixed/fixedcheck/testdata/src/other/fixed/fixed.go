// Package fixed has the same name and type name as rollstep's, but a
// different import path, so it is not checked.
package fixed

// F is an unrelated int64.
type F int64

func square(a F) F { return a * a }
