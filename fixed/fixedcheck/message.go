package fixedcheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// maxShown is the longest text of both operands together, in bytes, that
// a message quotes. Longer operands are abbreviated to a and b so that
// messages stay short.
const maxShown = 60

// verbs names each checked operator as the start of a message.
var verbs = map[token.Token]string{
	token.MUL: "multiplying",
	token.QUO: "dividing",
	token.REM: "taking the remainder of",
}

// typedMessage describes x op y between two typed fixed.F operands, for
// example "multiplying two fixed.F values with * gives a wrongly scaled
// result: use a.Mul(b)".
func typedMessage(op token.Token, tok string, x, y ast.Expr, assign bool) string {
	why := "gives a wrongly scaled result"
	if op == token.REM {
		// a%b is correctly scaled (both raw values carry the same 2^32), but it
		// panics on a zero divisor, which package fixed never does.
		why = "panics when the divisor is zero"
	}
	rx, ry := receiver(x), argument(y)
	if len(rx)+len(ry) > maxShown {
		rx, ry = "a", "b"
	}
	return fmt.Sprintf("%s two fixed.F values with %s %s: use %s",
		verbs[op], tok, why, call(lhs(x, rx, assign), rx, methodFor[op], ry))
}

// constMessage describes x op y between a fixed.F operand and an operand
// that is untyped in the source (xUntyped says which), in the cases where
// the constant is not an integer scale factor: 2/a and a%2 read the constant
// in raw units of 2^-32.
func constMessage(op token.Token, tok string, x, y ast.Expr, xUntyped, assign bool) string {
	rx, ry := receiver(x), argument(y)
	if xUntyped {
		rx = "fixed.FromInt(" + argument(x) + ")"
	} else {
		ry = "fixed.FromInt(" + ry + ")"
	}
	if len(rx)+len(ry) > maxShown {
		rx, ry = "a", "b"
	}
	what := "a fixed.F value by an untyped constant"
	if xUntyped {
		what = "an untyped constant by a fixed.F value"
	}
	why := "reads the constant in units of 2^-32"
	if op == token.QUO {
		why = "gives a wrongly scaled result"
	}
	return fmt.Sprintf("%s %s with %s %s: use %s",
		verbs[op], what, tok, why, call(lhs(x, rx, assign), rx, methodFor[op], ry))
}

// call renders the method call that replaces an operator: "a.Mul(b)", or
// "a = a.Mul(b)" when lhs, the left operand of an assignment operator, is
// not empty.
func call(lhs, recv, method, arg string) string {
	s := recv + "." + method + "(" + arg + ")"
	if lhs != "" {
		s = lhs + " = " + s
	}
	return s
}

// lhs renders x, the left operand of an assignment operator, or returns ""
// when assign is false. When the receiver was abbreviated to a, so is lhs.
func lhs(x ast.Expr, recv string, assign bool) string {
	switch {
	case !assign:
		return ""
	case recv == "a":
		return "a"
	}
	return types.ExprString(x)
}

// receiver renders e as the receiver of a method call, in parentheses when
// it is not a primary expression.
func receiver(e ast.Expr) string {
	e = ast.Unparen(e)
	s := types.ExprString(e)
	if !primary(e) {
		s = "(" + s + ")"
	}
	return s
}

// argument renders e as a call argument, without redundant parentheses.
func argument(e ast.Expr) string {
	return types.ExprString(ast.Unparen(e))
}

// primary reports whether e can be followed by .Method without
// parentheses. A basic literal cannot (2.Mul lexes as the float 2.).
func primary(e ast.Expr) bool {
	switch e.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr,
		*ast.CallExpr, *ast.ParenExpr, *ast.TypeAssertExpr:
		return true
	}
	return false
}
