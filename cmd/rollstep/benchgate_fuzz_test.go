package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzBenchgateParse feeds arbitrary text to both parsers of rollstep
// benchgate, as a budgets file (parseBudgets) and as go test -bench output
// (readResults), and then to the whole gate (benchgate). It asserts:
//
//   - nothing panics, and every failure is an error matching errGate;
//   - parseBudgets returns at least one budget on success, each with the
//     line number it came from (ascending), a non-empty name pattern and
//     metric, max or min, and a pattern that is the name anchored as
//     ^(?:name)$; printed back as "<name> <metric> <max|min> <number>" on
//     the same lines, the budgets parse to the same values;
//   - readResults names every benchmark once, starting with "Benchmark",
//     each with at least one metric of non-empty unit and at least one
//     value; printed back as one go test -bench line per run (with a
//     -GOMAXPROCS suffix, which the gate strips), the results parse without
//     error to the same names, units and values, bit for bit (NaN as NaN);
//   - benchgate exits 0 or 1, the latter always with something on
//     stderr, the former never; it prints one stdout line per check (none
//     for budgets that do not parse), plus the summary line on exit 0;
//     every check's median is the median of the benchmark's values, and
//     lies between their least and greatest when none is NaN.
func FuzzBenchgateParse(f *testing.F) {
	budgets, err := os.ReadFile("../../bench/budgets.txt")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []struct{ budgets, bench string }{
		{string(budgets), cannedBench},
		{"BenchmarkOverhead/depth=8  x-bare max 1.5\nBenchmarkOverhead/.* allocs/op max 0 # comment\n", cannedBench},
		{"BenchmarkLockstep.* upload-B/s min 800\n", cannedBench + "BenchmarkBroken-2 \t 100 \t fast ns/op\n"},
		{"BenchmarkOverhead x-bare 2\n", "PASS\n"},
		{"Benchmark(Overhead x-bare max 2\n", "BenchmarkX 1 NaN ns/op -Inf B/op 1e300 x\n"},
		{"BenchmarkX/a-5 ns/op max +Inf\n", "BenchmarkX/a-5-4 10 -0 ns/op\nBenchmark 1 2 ns/op\nBenchmark-3 1 2 u 3 u\n"},
		{"# nothing\n\n", "goos: linux\nUnit ns/op assume=exact\nBenchmarkA 1\nBenchmarkA\n"},
	} {
		f.Add(s.budgets, s.bench)
	}
	f.Fuzz(func(t *testing.T, budgetText, benchText string) {
		checkBudgets(t, budgetText)
		checkResults(t, benchText)
		checkGate(t, budgetText, benchText)
	})
}

// checkBudgets asserts what parseBudgets promises about text.
func checkBudgets(t *testing.T, text string) {
	bs, err := parseBudgets(strings.NewReader(text), "budgets.txt")
	if err != nil {
		if !errors.Is(err, errGate) {
			t.Fatalf("parseBudgets error does not match errGate: %v", err)
		}
		return
	}
	if len(bs) == 0 {
		t.Fatal("parseBudgets accepted a file without budgets")
	}
	var out strings.Builder
	line := 1
	for i, b := range bs {
		switch {
		case i > 0 && b.line <= bs[i-1].line, b.line < 1:
			t.Fatalf("budget %d: line %d after line %d", i, b.line, bs[max(i-1, 0)].line)
		case b.text == "" || b.metric == "":
			t.Fatalf("budget %d: empty pattern %q or metric %q", i, b.text, b.metric)
		case strings.ContainsAny(b.text+b.metric, " \t\n#"):
			t.Fatalf("budget %d: pattern %q or metric %q holds a separator", i, b.text, b.metric)
		case b.pattern.String() != "^(?:"+b.text+")$":
			t.Fatalf("budget %d: pattern %q is not %q anchored", i, b.pattern, b.text)
		}
		for ; line < b.line; line++ {
			out.WriteString("\n")
		}
		printed := fmt.Sprintf("%s %s %s %s\n", b.text, b.metric, b.kind(), strconv.FormatFloat(b.limit, 'g', -1, 64))
		if len(printed) >= bufio.MaxScanTokenSize {
			return // too long a line to read back, though the original fitted
		}
		out.WriteString(printed)
		line++
	}
	again, err := parseBudgets(strings.NewReader(out.String()), "budgets.txt")
	if err != nil {
		t.Fatalf("printed budgets do not parse: %v\n%s", err, out.String())
	}
	if len(again) != len(bs) {
		t.Fatalf("printed budgets parse to %d budgets, want %d", len(again), len(bs))
	}
	for i, b := range bs {
		a := again[i]
		if a.line != b.line || a.text != b.text || a.metric != b.metric || a.max != b.max || !sameFloat(a.limit, b.limit) {
			t.Fatalf("budget %d: printed and parsed back as %+v, want %+v", i, a, b)
		}
	}
}

// checkResults asserts what readResults promises about text.
func checkResults(t *testing.T, text string) {
	res, err := readResults(strings.NewReader(text), "bench.txt")
	if err != nil && !errors.Is(err, errGate) {
		t.Fatalf("readResults error does not match errGate: %v", err)
	}
	if res == nil {
		t.Fatal("readResults returned nil results")
	}
	if len(res.names) != len(res.values) {
		t.Fatalf("%d names, %d benchmarks with values", len(res.names), len(res.values))
	}
	if err == nil && len(res.names) == 0 {
		t.Fatal("readResults accepted input without results")
	}
	var out strings.Builder
	for _, name := range res.names {
		m, ok := res.values[name]
		switch {
		case !ok:
			t.Fatalf("benchmark %q has no values", name)
		case !strings.HasPrefix(name, "Benchmark"):
			t.Fatalf("benchmark name %q lacks the Benchmark prefix", name)
		case len(m) == 0:
			t.Fatalf("benchmark %q has no metric", name)
		}
		units := make([]string, 0, len(m))
		runs := 0
		for unit, vs := range m {
			if unit == "" || len(vs) == 0 {
				t.Fatalf("benchmark %q: metric %q with %d values", name, unit, len(vs))
			}
			units = append(units, unit)
			runs = max(runs, len(vs))
		}
		slices.Sort(units)
		for run := range runs {
			printed := name + "-1 1"
			for _, unit := range units {
				if vs := m[unit]; run < len(vs) {
					printed += " " + strconv.FormatFloat(vs[run], 'g', -1, 64) + " " + unit
				}
			}
			if len(printed) >= bufio.MaxScanTokenSize {
				return // too long a line to read back, though the original fitted
			}
			out.WriteString(printed + "\n")
		}
	}
	if len(res.names) == 0 {
		return
	}
	again, err := readResults(strings.NewReader(out.String()), "printed.txt")
	if err != nil {
		t.Fatalf("printed results do not parse: %v\n%.2000s", err, out.String())
	}
	if !slices.Equal(again.names, res.names) {
		t.Fatalf("printed results name %q, want %q", again.names, res.names)
	}
	for _, name := range res.names {
		want, got := res.values[name], again.values[name]
		if len(got) != len(want) {
			t.Fatalf("%s: printed results have %d metrics, want %d", name, len(got), len(want))
		}
		for unit, vs := range want {
			if !slices.EqualFunc(got[unit], vs, sameFloat) {
				t.Fatalf("%s %s: printed results hold %v, want %v", name, unit, got[unit], vs)
			}
		}
	}
}

// checkGate asserts what benchgate promises for any budgets and input.
func checkGate(t *testing.T, budgetText, benchText string) {
	var stdout, stderr bytes.Buffer
	code := benchgate(strings.NewReader(budgetText), "budgets.txt", strings.NewReader(benchText), "bench.txt", &stdout, &stderr)
	switch {
	case code != 0 && code != 1:
		t.Fatalf("benchgate exit %d", code)
	case code == 0 && stderr.Len() != 0:
		t.Fatalf("benchgate exit 0 with stderr:\n%s", stderr.String())
	case code == 1 && stderr.Len() == 0:
		t.Fatal("benchgate exit 1 with an empty stderr")
	}
	bs, err := parseBudgets(strings.NewReader(budgetText), "budgets.txt")
	if err != nil {
		if stdout.Len() != 0 {
			t.Fatalf("benchgate printed checks for budgets that do not parse:\n%s", stdout.String())
		}
		return
	}
	res, _ := readResults(strings.NewReader(benchText), "bench.txt")
	checks, _ := gate(bs, res, "budgets.txt")
	lines := strings.Count(stdout.String(), "\n")
	if want := len(checks) + 1 - code; lines != want {
		t.Fatalf("benchgate printed %d stdout lines for %d checks and exit %d", lines, len(checks), code)
	}
	for _, c := range checks {
		vs := res.values[c.name][c.b.metric]
		if c.runs != len(vs) || !sameFloat(c.median, median(vs)) {
			t.Fatalf("check %v: %d runs median %v, values %v", c, c.runs, c.median, vs)
		}
		if !slices.ContainsFunc(vs, math.IsNaN) && (c.median < slices.Min(vs) || c.median > slices.Max(vs)) {
			t.Fatalf("check %v: median outside the values %v", c, vs)
		}
	}
}

// sameFloat reports whether a and b are the same float64, NaN equal to
// NaN and -0 different from 0.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}
