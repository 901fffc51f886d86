package rollstep

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// apiBudget is the most exported names the module's importable packages
// may have in total (see exportedNames). Raising it is a decision: say
// why in the commit.
const apiBudget = 347

// TestExportedNamesWithinBudget counts the exported names of every
// importable package of the module (not internal/, examples/, cmd/ or
// testdata): top-level funcs, types, vars and consts, and the methods of
// exported types; struct fields are not counted. It fails when the total
// grows past apiBudget, so that growth is a decision, not an accident.
func TestExportedNamesWithinBudget(t *testing.T) {
	counts := exportedNames(t, ".")
	total := 0
	var lines []string
	for dir, n := range counts {
		total += n
		lines = append(lines, fmt.Sprintf("%5d %s", n, dir))
	}
	sort.Strings(lines)
	t.Logf("exported names per package:\n%s\n%5d total (budget %d)", strings.Join(lines, "\n"), total, apiBudget)
	if total > apiBudget {
		t.Errorf("%d exported names, over the budget of %d", total, apiBudget)
	}
}

// exportedNames returns the exported names of each importable package
// under root, by directory. An alias of a type declared under internal/
// also counts the exported methods of that type, which the alias makes
// part of the package's API.
func exportedNames(t *testing.T, root string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	methods := internalMethods(t, root)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch base := d.Name(); {
			case path == root:
			case base == "internal", base == "testdata", base == "examples", base == "cmd", strings.HasPrefix(base, "."):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		counts[filepath.Dir(path)] += countFile(f) + aliasedMethods(f, methods)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return counts
}

// countFile counts the exported names one file declares.
func countFile(f *ast.File) int {
	n := 0
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && (d.Recv == nil || exportedRecv(d.Recv.List[0].Type)) {
				n++
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						n++
					}
				case *ast.ValueSpec:
					for _, id := range s.Names {
						if id.IsExported() {
							n++
						}
					}
				}
			}
		}
	}
	return n
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(e ast.Expr) bool { return ast.IsExported(recvName(e)) }

// modulePath is the import path of the module whose root is the
// directory of this file.
const modulePath = "github.com/rollstep/rollstep"

// internalMethods returns, for every type declared in a package under an
// internal/ directory, keyed "dir.Type", how many exported methods it has.
func internalMethods(t *testing.T, root string) map[string]int {
	t.Helper()
	n := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if !strings.Contains("/"+dir+"/", "/internal/") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.IsExported() {
				n[dir+"."+recvName(fd.Recv.List[0].Type)]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// aliasedMethods counts the exported methods of internal types that f's
// exported aliases name.
func aliasedMethods(f *ast.File, methods map[string]int) int {
	imports := map[string]string{}
	for _, im := range f.Imports {
		path := strings.Trim(im.Path.Value, `"`)
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = path
	}
	n := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range g.Specs {
			ts, ok := s.(*ast.TypeSpec)
			if !ok || !ts.Assign.IsValid() || !ts.Name.IsExported() {
				continue
			}
			e := ts.Type
			if ix, ok := e.(*ast.IndexExpr); ok {
				e = ix.X
			} else if ix, ok := e.(*ast.IndexListExpr); ok {
				e = ix.X
			}
			sel, ok := e.(*ast.SelectorExpr)
			if !ok {
				continue
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				continue
			}
			if dir, ok := strings.CutPrefix(imports[pkg.Name], modulePath+"/"); ok && strings.Contains("/"+dir+"/", "/internal/") {
				n += methods[dir+"."+sel.Sel.Name]
			}
		}
	}
	return n
}

// recvName returns the name of a method's receiver type.
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// TestAliasCountsInternalMethods checks that an exported alias of an
// internal type counts that type's exported methods, and an alias of a
// public type does not count them twice.
func TestAliasCountsInternalMethods(t *testing.T) {
	src := `package p
import (
	"github.com/rollstep/rollstep/internal/x"
	"github.com/rollstep/rollstep/core"
)
type A = x.T
type B[S any] = x.G[S]
type C = core.Frame
type d = x.T
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]int{"internal/x.T": 2, "internal/x.G": 3, "core.Frame": 5}
	if got := aliasedMethods(f, methods); got != 5 {
		t.Errorf("aliasedMethods = %d, want 5 (A's 2 and B's 3; C is public, d unexported)", got)
	}
}
