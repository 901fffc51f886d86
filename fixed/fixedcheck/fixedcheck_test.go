package fixedcheck_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/rollstep/rollstep/fixed/fixedcheck"
)

func TestAnalyzer(t *testing.T) {
	dir := analysistest.TestData()
	for _, pkg := range []string{
		"flagged",
		"allowed",
		"other/fixed",
		"github.com/rollstep/rollstep/fixed",
	} {
		t.Run(pkg, func(t *testing.T) {
			analysistest.Run(t, dir, fixedcheck.Analyzer, pkg)
		})
	}
}

func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), fixedcheck.Analyzer, "fixes")
}

// TestMissingMethods checks that a fix is offered only when fixed.F has the
// method it calls; the messages still name the method.
func TestMissingMethods(t *testing.T) {
	dir := filepath.Join(analysistest.TestData(), "nomethods")
	analysistest.RunWithSuggestedFixes(t, dir, fixedcheck.Analyzer, "nomethods")
}
