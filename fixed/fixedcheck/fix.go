package fixedcheck

import (
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A fix rewrites x*y to x.Mul(y), x/y to x.Div(y) and x%y to x.Mod(y), and
// x *= y to x = x.Mul(y). It is built from the source text, so the operands
// keep their spelling and comments, and comments beside the operator move
// to the start of the argument list. Operands that are not primary
// expressions are parenthesised ((a+b).Mul(c)). Misuses nested inside a
// fixed expression are rewritten by the outer fix (a*b*c becomes
// a.Mul(b).Mul(c)) and get no fix of their own, because overlapping fixes
// conflict.

// fixable reports whether a fix for n can be built: its source is readable
// and it holds no function literal, whose statements a fix would not
// rewrite consistently.
func (c *checker) fixable(n ast.Node) bool {
	if _, ok := c.source(n); !ok {
		return false
	}
	lit := false
	ast.Inspect(n, func(m ast.Node) bool {
		if _, ok := m.(*ast.FuncLit); ok {
			lit = true
		}
		return !lit
	})
	return !lit
}

// source returns the source text of the file holding n, and false if it
// cannot be read or does not match the parsed file.
func (c *checker) source(n ast.Node) (src []byte, ok bool) {
	if c.pass.ReadFile == nil {
		return nil, false
	}
	tf := c.pass.Fset.File(n.Pos())
	if tf == nil {
		return nil, false
	}
	src, ok = c.files[tf.Name()]
	if !ok {
		var err error
		src, err = c.pass.ReadFile(tf.Name())
		if err != nil || len(src) != tf.Size() {
			src = nil
		}
		if c.files == nil {
			c.files = make(map[string][]byte)
		}
		c.files[tf.Name()] = src
	}
	return src, src != nil
}

// text returns the source text of n.
func (c *checker) text(n ast.Node) string {
	src, _ := c.source(n)
	tf := c.pass.Fset.File(n.Pos())
	return string(src[tf.Offset(n.Pos()):tf.Offset(n.End())])
}

// binaryFix returns the fix that rewrites e to a call of method.
func (c *checker) binaryFix(e *ast.BinaryExpr, method string) []analysis.SuggestedFix {
	return []analysis.SuggestedFix{{
		Message: "use " + method,
		TextEdits: []analysis.TextEdit{{
			Pos:     e.Pos(),
			End:     e.End(),
			NewText: []byte(c.binaryText(e, method)),
		}},
	}}
}

// assignFix returns the fix that rewrites x op= y to x = x.method(y). The
// caller has checked that x is pure, so evaluating it twice is safe.
func (c *checker) assignFix(s *ast.AssignStmt, method string) []analysis.SuggestedFix {
	op := s.TokPos + token.Pos(len(s.Tok.String()))
	return []analysis.SuggestedFix{{
		Message: "use " + method,
		TextEdits: []analysis.TextEdit{{
			Pos:     s.TokPos,
			End:     s.End(),
			NewText: []byte("= " + c.callText(s.Lhs[0], method, c.comments(op, s.Rhs[0].Pos()), s.Rhs[0])),
		}},
	}}
}

// binaryText renders e, a misuse with a fix, as e.X.method(e.Y).
func (c *checker) binaryText(e *ast.BinaryExpr, method string) string {
	op := e.OpPos + token.Pos(len(e.Op.String()))
	gap := c.comments(e.X.End(), e.OpPos) + c.comments(op, e.Y.Pos())
	return c.callText(e.X, method, gap, e.Y)
}

// callText renders x.method(y), rewriting the misuses inside x and y. gap
// holds the comments that sat around the operator, as comments returns
// them; they open the argument list.
func (c *checker) callText(x ast.Expr, method, gap string, y ast.Expr) string {
	x = ast.Unparen(x)
	recv := c.rewrite(x)
	if c.fixMethod(x) == "" && !primary(x) {
		recv = "(" + recv + ")"
	}
	return recv + "." + method + "(" + gap + c.rewrite(ast.Unparen(y)) + ")"
}

// comments returns the comments that lie wholly in [from, to), each
// followed by a space, or by a newline if it is a // comment, so that code
// can follow them.
func (c *checker) comments(from, to token.Pos) string {
	var sb strings.Builder
	for _, f := range c.pass.Files {
		if from < f.FileStart || from > f.FileEnd {
			continue
		}
		for _, g := range f.Comments {
			for _, cm := range g.List {
				if cm.Pos() < from || cm.End() > to {
					continue
				}
				sb.WriteString(cm.Text)
				if strings.HasPrefix(cm.Text, "//") {
					sb.WriteString("\n")
				} else {
					sb.WriteString(" ")
				}
			}
		}
	}
	return sb.String()
}

// fixMethod returns the method that a fix calls in place of e, or "" when e
// is not a binary expression that gets one.
func (c *checker) fixMethod(e ast.Expr) string {
	b, ok := e.(*ast.BinaryExpr)
	if !ok {
		return ""
	}
	f, ok := c.checkBinary(b)
	if !ok {
		return ""
	}
	return f.method
}

// rewrite returns the source text of e with every misuse that has a fix,
// e included, replaced by its method call.
func (c *checker) rewrite(e ast.Expr) string {
	if m := c.fixMethod(e); m != "" {
		return c.binaryText(e.(*ast.BinaryExpr), m)
	}
	type edit struct {
		pos, end token.Pos
		text     string
	}
	var edits []edit
	ast.Inspect(e, func(n ast.Node) bool {
		if n == e {
			return true
		}
		x, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if m := c.fixMethod(x); m != "" {
			b := x.(*ast.BinaryExpr)
			edits = append(edits, edit{b.Pos(), b.End(), c.binaryText(b, m)})
			return false
		}
		return true
	})
	sort.Slice(edits, func(i, j int) bool { return edits[i].pos < edits[j].pos })
	src := c.text(e)
	var sb strings.Builder
	at := e.Pos()
	for _, ed := range edits {
		sb.WriteString(src[at-e.Pos() : ed.pos-e.Pos()])
		sb.WriteString(ed.text)
		at = ed.end
	}
	sb.WriteString(src[at-e.Pos():])
	return sb.String()
}

// pure reports whether evaluating e twice is the same as evaluating it
// once: a variable, a field, a pointer dereference or an element with a
// constant or variable index, built from the same.
func pure(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.ParenExpr:
		return pure(e.X)
	case *ast.SelectorExpr:
		return pure(e.X)
	case *ast.StarExpr:
		return pure(e.X)
	case *ast.IndexExpr:
		switch e.Index.(type) {
		case *ast.Ident, *ast.BasicLit:
			return pure(e.X)
		}
	}
	return false
}
