// Package fixed is a stand-in for github.com/rollstep/rollstep/fixed whose
// F lacks usable Div and Mod methods, so only * gets a fix.
package fixed

// F is a Q32.32 fixed-point number.
type F int64

// Mul returns a*b.
func (a F) Mul(b F) F { return F(int64(a) * int64(b) >> 32) }

// Div has a pointer receiver, so a fix could not call it on every operand.
func (a *F) Div(b F) F { return *a }

// Mod has the wrong signature for a fix.
func (a F) Mod(b int64) F { return F(int64(a) % b) }
