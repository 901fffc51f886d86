// Package nomethods checks that a fix calls only methods that exist.
package nomethods

import "github.com/rollstep/rollstep/fixed"

func f(a, b fixed.F) {
	_ = a * b       // want `use a\.Mul\(b\)$`
	_ = a / b       // want `use a\.Div\(b\)$`
	_ = a % b       // want `use a\.Mod\(b\)$`
	a /= b          // want `use a = a\.Div\(b\)$`
	_ = a / (a * b) // want `use a\.Div\(a \* b\)$` `use a\.Mul\(b\)$`
}
