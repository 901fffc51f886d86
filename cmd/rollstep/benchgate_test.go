package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cannedBench is go test -bench output of two runs, the way go test
// prints it, including the lines benchfmt treats as configuration or
// ignores.
const cannedBench = `goos: linux
goarch: amd64
pkg: github.com/rollstep/rollstep/bench
cpu: AMD EPYC
BenchmarkOverhead/depth=8-2 	   66138	      3478 ns/op	      1461 bare-ns/frame	         1.140 x-bare	       0 B/op	       0 allocs/op
BenchmarkOverhead/depth=8-2 	   66138	      3500 ns/op	      1461 bare-ns/frame	         1.300 x-bare	       0 B/op	       0 allocs/op
BenchmarkOverhead/depth=8-2 	   66138	      3400 ns/op	      1461 bare-ns/frame	         9.000 x-bare	       0 B/op	       0 allocs/op
BenchmarkLockstepUpload/units=10-2       	    1782	    146002 ns/op	       850.4 upload-B/s	       0 B/op	       0 allocs/op
BenchmarkLockstepUpload/units=10-2       	    1782	    146002 ns/op	       852.4 upload-B/s	       0 B/op	       0 allocs/op
PASS
ok  	github.com/rollstep/rollstep/bench	2.272s
`

func runGate(t *testing.T, budgets, input string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = benchgate(strings.NewReader(budgets), "budgets.txt", strings.NewReader(input), "bench.txt", &out, &errb)
	return code, out.String(), errb.String()
}

func TestBenchgatePass(t *testing.T) {
	budgets := `# overhead: the median of 1.14, 1.30 and 9 is 1.30
BenchmarkOverhead/depth=8  x-bare      max  1.5
BenchmarkOverhead/.*       allocs/op   max  0
BenchmarkOverhead/depth=8  ns/op       max  4000   # printed units, not benchfmt's sec/op
BenchmarkLockstep.*        upload-B/s  min  800
`
	code, out, errs := runGate(t, budgets, cannedBench)
	if code != 0 {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, want := range []string{
		"BenchmarkOverhead/depth=8: x-bare = 1.3 (median of 3) within budget max 1.5",
		"BenchmarkLockstepUpload/units=10: upload-B/s = 851.4 (median of 2) within budget min 800",
		"benchgate: ok: 4 checks within budget",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}

func TestBenchgateBreach(t *testing.T) {
	budgets := "BenchmarkOverhead/depth=8 x-bare max 1.2\nBenchmarkLockstep.* upload-B/s min 900\n"
	code, out, errs := runGate(t, budgets, cannedBench)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, want := range []string{
		"BenchmarkOverhead/depth=8: x-bare = 1.3 (median of 3 runs), budget max 1.2 (budgets.txt:1)",
		"BenchmarkLockstepUpload/units=10: upload-B/s = 851.4 (median of 2 runs), budget min 900 (budgets.txt:2)",
		"benchgate: FAIL: 2 problem(s), 0 of 2 checks within budget",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

func TestBenchgateMissing(t *testing.T) {
	for _, tc := range []struct {
		name, budgets, want string
	}{
		{"benchmark", "BenchmarkState/size=1MiB save/copy max 2\n",
			"no benchmark matches BenchmarkState/size=1MiB for metric save/copy (budget budgets.txt:1): missing benchmark"},
		{"metric", "BenchmarkOverhead/depth=8 overhead-ns/frame max 500\n",
			"BenchmarkOverhead/depth=8: metric overhead-ns/frame is missing (budget budgets.txt:1)"},
		{"prefix-is-not-a-match", "BenchmarkOverhead x-bare max 2\n",
			"no benchmark matches BenchmarkOverhead for metric x-bare"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := runGate(t, tc.budgets, cannedBench)
			if code != 1 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q", code, errs, tc.want)
			}
		})
	}
}

func TestBenchgateMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, budgets, input, want string
	}{
		{"bench-line", "BenchmarkOverhead/.* x-bare max 2\n",
			cannedBench + "BenchmarkBroken-2 \t 100 \t fast ns/op\n", "bench.txt:12: parsing measurement"},
		{"empty-input", "BenchmarkOverhead/.* x-bare max 2\n", "PASS\n", "bench.txt holds no benchmark results"},
		{"budget-fields", "BenchmarkOverhead x-bare 2\n", cannedBench, "budgets.txt:1: want <name regexp> <metric> <max|min> <number>, got 3 fields"},
		{"budget-kind", "BenchmarkOverhead x-bare below 2\n", cannedBench, `budgets.txt:1: want max or min, got "below"`},
		{"budget-number", "BenchmarkOverhead x-bare max two\n", cannedBench, `budgets.txt:1: bad number "two"`},
		{"budget-regexp", "Benchmark(Overhead x-bare max 2\n", cannedBench, "budgets.txt:1: bad name pattern"},
		{"no-budgets", "# nothing\n\n", cannedBench, "budgets.txt holds no budget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := runGate(t, tc.budgets, tc.input)
			if code != 1 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and %q", code, errs, tc.want)
			}
		})
	}
}

// TestBenchgateCommand runs the command line with files, and checks that
// the committed budgets file parses.
func TestBenchgateCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "bench.txt")
	budgets := filepath.Join(dir, "budgets.txt")
	if err := os.WriteFile(in, []byte(cannedBench), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(budgets, []byte("BenchmarkOverhead/depth=8 x-bare max 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"benchgate", "-budgets", budgets, "-in", in}, &out, &errs); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errs.String())
	}
	if code := run([]string{"benchgate", "-budgets", filepath.Join(dir, "none.txt"), "-in", in}, &out, &errs); code != 1 {
		t.Errorf("missing budgets file: exit %d, want 1", code)
	}
	if code := run([]string{"benchgate", "extra"}, &out, &errs); code != 2 {
		t.Errorf("extra argument: exit %d, want 2", code)
	}
	f, err := os.Open("../../bench/budgets.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := parseBudgets(f, "bench/budgets.txt"); err != nil {
		t.Errorf("committed budgets: %v", err)
	}
}
