package rollstep

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeDuelIsTheExample: the README's 60-line game is the tested
// Example_duel, word for word, so it always compiles and plays.
func TestReadmeDuelIsTheExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_duel_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+string(example)+"```\n") {
		t.Fatal("README.md's game differs from example_duel_test.go: copy the file into the README's go block")
	}
	if n := strings.Count(string(example), "\n"); n > 60 {
		t.Errorf("the README's game is %d lines, more than 60", n)
	}
}
