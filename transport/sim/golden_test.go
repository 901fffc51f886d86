package sim

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGoldenTrace pins the delivery trace of a fixed scenario, so that a
// change to the random streams or the delivery rules, or a difference
// between platforms, shows up as a diff. Regenerate with -update only
// when the change is intended.
func TestGoldenTrace(t *testing.T) {
	net, eps := newNetwork(t, Config{Seed: 42, Link: impairedLink}, 4)
	got := traceText(run(t, net, eps, workload(400, 4)))
	path := filepath.Join("testdata", "trace_seed42.txt")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s line %d: got %q, want %q", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: got %d lines, want %d", path, len(gl), len(wl))
	}
}
