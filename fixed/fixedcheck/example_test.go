package fixedcheck_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/rollstep/rollstep/fixed/fixedcheck"
)

// stubFixed is a stand-in for package fixed, declared in memory so that the
// example needs neither the go command nor the real package.
const stubFixed = `package fixed

type F int64

const One F = 1 << 32

func (a F) Mul(b F) F { return F(int64(a) * int64(b) >> 32) }

type Vec2 struct{ X, Y F }
`

// game is the code under analysis.
const game = `package game

import "github.com/rollstep/rollstep/fixed"

func Step(pos, vel fixed.Vec2, dt fixed.F) fixed.Vec2 {
	pos.X += vel.X * dt      // reported: use Mul
	pos.Y += vel.Y * 2       // allowed: 2 is an integer scale factor
	pos.X -= pos.X / 8       // allowed: 8 is an integer divisor
	pos.Y *= fixed.One * 3   // reported: fixed.One * 3 is a typed F
	return pos
}
`

// Example runs the analyzer by hand on one file held in memory and prints
// each report with its suggested fix. In a real project go vet does this:
// go vet -vettool=$(which fixedcheck) ./...
func Example() {
	fset := token.NewFileSet()
	stub, err := check(fset, "github.com/rollstep/rollstep/fixed", "fixed.go", stubFixed, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == stub.pkg.Path() {
			return stub.pkg, nil
		}
		return nil, fmt.Errorf("unknown import %q", path)
	})
	u, err := check(fset, "example.com/game", "game.go", game, imp)
	if err != nil {
		fmt.Println(err)
		return
	}

	var diags []analysis.Diagnostic
	pass := &analysis.Pass{
		Analyzer:  fixedcheck.Analyzer,
		Fset:      fset,
		Files:     []*ast.File{u.file},
		Pkg:       u.pkg,
		TypesInfo: u.info,
		Report:    func(d analysis.Diagnostic) { diags = append(diags, d) },
		ReadFile: func(name string) ([]byte, error) {
			if name == "game.go" {
				return []byte(game), nil
			}
			return nil, os.ErrNotExist
		},
	}
	if _, err := fixedcheck.Analyzer.Run(pass); err != nil {
		fmt.Println(err)
		return
	}
	slices.SortFunc(diags, func(a, b analysis.Diagnostic) int { return int(a.Pos - b.Pos) })
	for _, d := range diags {
		fmt.Printf("%s: %s\n", fset.Position(d.Pos), d.Message)
		for _, f := range d.SuggestedFixes {
			for _, e := range f.TextEdits {
				fmt.Printf("\tfix: %s\n", e.NewText)
			}
		}
	}
	// Output:
	// game.go:6:11: multiplying two fixed.F values with * gives a wrongly scaled result: use vel.X.Mul(dt)
	// 	fix: vel.X.Mul(dt)
	// game.go:9:2: multiplying two fixed.F values with *= gives a wrongly scaled result: use pos.Y = pos.Y.Mul(fixed.One * 3)
	// 	fix: = pos.Y.Mul(fixed.One * 3)
}

// unit is one type-checked file.
type unit struct {
	file *ast.File
	pkg  *types.Package
	info *types.Info
}

// check parses and type-checks src as the only file of package path.
func check(fset *token.FileSet, path, name, src string, imp types.Importer) (unit, error) {
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return unit{}, err
	}
	info := &types.Info{
		Types: make(map[ast.Expr]types.TypeAndValue),
		Defs:  make(map[*ast.Ident]types.Object),
		Uses:  make(map[*ast.Ident]types.Object),
	}
	conf := types.Config{Importer: imp}
	pkg, err := conf.Check(path, fset, []*ast.File{f}, info)
	return unit{f, pkg, info}, err
}

// importerFunc adapts a function to types.Importer.
type importerFunc func(path string) (*types.Package, error)

// Import returns the package at path.
func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
