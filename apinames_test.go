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
const apiBudget = 601

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
// under root, by directory.
func exportedNames(t *testing.T, root string) map[string]int {
	t.Helper()
	counts := map[string]int{}
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
		counts[filepath.Dir(path)] += countFile(f)
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
func exportedRecv(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}
