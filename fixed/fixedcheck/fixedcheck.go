package fixedcheck

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// FixedPath is the import path of the package whose F type the analyzer
// guards.
const FixedPath = "github.com/rollstep/rollstep/fixed"

// Analyzer reports *, / and % between two fixed.F values, and the *=, /= and
// %= assignments that do the same, with a message naming the method to use
// instead. See the package documentation for the exact rules.
var Analyzer = &analysis.Analyzer{
	Name: "fixedcheck",
	Doc: "report *, / and % between two fixed.F values\n\n" +
		"Multiplying or dividing two Q32.32 fixed.F values with the built-in\n" +
		"operators compiles but gives a wrongly scaled result; use Mul and Div.\n" +
		"% panics on a zero divisor; use Mod. An untyped constant operand is an\n" +
		"integer scale factor and is allowed in a*2, 2*a and a/2; 2/a and a%2\n" +
		"are reported, because they read the constant in units of 2^-32.",
	URL: "https://pkg.go.dev/github.com/rollstep/rollstep/fixed/fixedcheck",
	Run: run,
}

// run checks every file of the package; the analyzer has no result.
func run(pass *analysis.Pass) (any, error) {
	c := &checker{pass: pass}
	for _, f := range pass.Files {
		c.inspect(f, false)
	}
	return nil, nil
}

// checker holds one pass and walks every file of its package.
type checker struct {
	pass *analysis.Pass
	// files caches the source of each file a fix needs, by name; a nil entry
	// means the file could not be read or does not match its token.File.
	files map[string][]byte
}

// finding is one misuse of an operator on fixed.F values.
type finding struct {
	msg    string
	method string // the F method a fix calls; "" when no fix is offered
}

// inspect reports every misuse in root. covered says that root lies inside
// an expression whose suggested fix already rewrites it, so the findings in
// root get a diagnostic but no fix of their own (overlapping fixes conflict).
func (c *checker) inspect(root ast.Node, covered bool) {
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			if n.Tok == token.CONST && !covered {
				// A method call is not a constant: report without a fix.
				c.inspect(n, true)
				return false
			}
		case *ast.BinaryExpr:
			f, ok := c.checkBinary(n)
			if !ok {
				return true
			}
			d := analysis.Diagnostic{Pos: n.Pos(), End: n.End(), Message: f.msg}
			if f.method != "" && !covered && c.fixable(n) {
				d.SuggestedFixes = c.binaryFix(n, f.method)
				c.pass.Report(d)
				c.inspect(n.X, true)
				c.inspect(n.Y, true)
				return false
			}
			c.pass.Report(d)
		case *ast.AssignStmt:
			f, ok := c.checkAssign(n)
			if !ok {
				return true
			}
			d := analysis.Diagnostic{Pos: n.Pos(), End: n.End(), Message: f.msg}
			if f.method != "" && !covered && c.fixable(n) && pure(n.Lhs[0]) {
				d.SuggestedFixes = c.assignFix(n, f.method)
				c.pass.Report(d)
				c.inspect(n.Lhs[0], true)
				c.inspect(n.Rhs[0], true)
				return false
			}
			c.pass.Report(d)
		}
		return true
	})
}

// checkBinary reports whether e misuses *, / or % on fixed.F values, and how.
func (c *checker) checkBinary(e *ast.BinaryExpr) (finding, bool) {
	if !isArith(e.Op) || !isF(c.pass.TypesInfo.TypeOf(e)) {
		return finding{}, false
	}
	return c.classify(e.Op, e.Op.String(), e.X, e.Y, false)
}

// checkAssign reports whether s is a *=, /= or %= on fixed.F values, and how.
func (c *checker) checkAssign(s *ast.AssignStmt) (finding, bool) {
	op, ok := assignOps[s.Tok]
	if !ok || len(s.Lhs) != 1 || len(s.Rhs) != 1 || !isF(c.pass.TypesInfo.TypeOf(s.Lhs[0])) {
		return finding{}, false
	}
	return c.classify(op, s.Tok.String(), s.Lhs[0], s.Rhs[0], true)
}

// assignOps maps each assignment operator the analyzer checks to its
// arithmetic operator.
var assignOps = map[token.Token]token.Token{
	token.MUL_ASSIGN: token.MUL,
	token.QUO_ASSIGN: token.QUO,
	token.REM_ASSIGN: token.REM,
}

// isArith reports whether op is one of the operators the analyzer checks.
func isArith(op token.Token) bool {
	return op == token.MUL || op == token.QUO || op == token.REM
}

// classify decides whether x op y, two operands of type fixed.F after
// conversion, is a misuse. tok is the operator as written (* or *=) and
// assign says that the expression is x op= y. The rules:
//
//   - both operands untyped in the source: plain constant arithmetic, allowed;
//   - * with one untyped operand: an integer scale factor, allowed;
//   - / with an untyped divisor: an integer scale factor, allowed;
//   - / with an untyped dividend: the constant is read in raw units, reported;
//   - % with an untyped operand: the constant is read in raw units, reported;
//   - two typed operands: reported, with the method to use.
func (c *checker) classify(op token.Token, tok string, x, y ast.Expr, assign bool) (finding, bool) {
	ux, uy := c.untyped(x), c.untyped(y)
	name := methodFor[op]
	switch {
	case ux && uy:
		return finding{}, false
	case op == token.MUL && (ux || uy):
		return finding{}, false
	case op == token.QUO && uy:
		return finding{}, false
	case ux || uy:
		return finding{msg: constMessage(op, tok, x, y, ux, assign)}, true
	}
	f := finding{msg: typedMessage(op, tok, x, y, assign)}
	if c.hasMethod(c.pass.TypesInfo.TypeOf(x), name) {
		f.method = name
	}
	return f, true
}

// methodFor maps each checked operator to the F method that replaces it.
var methodFor = map[token.Token]string{
	token.MUL: "Mul",
	token.QUO: "Div",
	token.REM: "Mod",
}

// isF reports whether t is fixed.F, directly or through an alias. Named
// types defined from F (type Meters fixed.F) have underlying type int64 and
// are not matched.
func isF(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	if obj.Name() != "F" || obj.Pkg() == nil {
		return false
	}
	p := obj.Pkg().Path()
	return p == FixedPath || strings.HasSuffix(p, "/vendor/"+FixedPath)
}

// hasMethod reports whether t has a value method name of type func(F) F, so
// that a fix can call it.
func (c *checker) hasMethod(t types.Type, name string) bool {
	if t == nil {
		return false
	}
	sel := types.NewMethodSet(types.Unalias(t)).Lookup(nil, name)
	if sel == nil {
		return false
	}
	sig, ok := sel.Type().(*types.Signature)
	if !ok || sig.Variadic() || sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return false
	}
	return isF(sig.Params().At(0).Type()) && isF(sig.Results().At(0).Type())
}

// untyped reports whether e is untyped in the source: an expression whose
// type comes from its context, such as 2, k after const k = 4, 1<<20, or
// 1<<n with a variable n. The type checker records such an operand of a*2
// with type fixed.F after the implicit conversion, so the decision is made
// on the syntax: literals and untyped constants are untyped, typed
// constants (fixed.One), conversions (fixed.F(2)), variables and calls are
// not, and operators combine their operands as the language spec says.
func (c *checker) untyped(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return c.untypedConst(e)
	case *ast.SelectorExpr:
		return c.untypedConst(e.Sel)
	case *ast.UnaryExpr:
		return e.Op != token.ARROW && e.Op != token.AND && c.untyped(e.X)
	case *ast.BinaryExpr:
		if e.Op == token.SHL || e.Op == token.SHR {
			return c.untyped(e.X)
		}
		return c.untyped(e.X) && c.untyped(e.Y)
	case *ast.CallExpr:
		// min, max, real, imag and complex of untyped constants are untyped.
		id, ok := ast.Unparen(e.Fun).(*ast.Ident)
		if !ok || len(e.Args) == 0 || e.Ellipsis.IsValid() {
			return false
		}
		b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin)
		if !ok {
			return false
		}
		switch b.Name() {
		case "min", "max", "real", "imag", "complex":
		default:
			return false
		}
		for _, a := range e.Args {
			if !c.untyped(a) {
				return false
			}
		}
		return true
	}
	return false
}

// untypedConst reports whether id names a constant declared without a type.
func (c *checker) untypedConst(id *ast.Ident) bool {
	k, ok := c.pass.TypesInfo.Uses[id].(*types.Const)
	if !ok {
		return false
	}
	b, ok := k.Type().(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}
