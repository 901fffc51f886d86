package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// rollstep benchgate reads `go test -bench` output, takes the median of
// each benchmark's metric over the -count runs and compares it with the
// budgets file (see bench/budgets.txt for the format). It exits 0 when
// every budget holds, 1 on a breach, a budget that matches no benchmark
// or metric, or unreadable input, and 2 on a usage error.

// errGate is matched by every problem that makes the gate fail.
var errGate = errors.New("benchgate")

// budget is one line of the budgets file: every benchmark whose name
// (without the -GOMAXPROCS suffix) matches pattern must have metric, and
// its median must be at most (max) or at least (min) limit.
type budget struct {
	line    int    // line number in the budgets file
	text    string // the pattern as written
	pattern *regexp.Regexp
	metric  string
	max     bool // a ceiling; else a floor
	limit   float64
}

// kind is "max" for a ceiling and "min" for a floor.
func (b budget) kind() string {
	if b.max {
		return "max"
	}
	return "min"
}

// parseBudgets reads a budgets file: one budget per line as
//
//	<name regexp> <metric> <max|min> <number>
//
// with '#' starting a comment and blank lines ignored. The regexp must
// match the whole benchmark name, as go test prints it without the
// -GOMAXPROCS suffix, e.g. BenchmarkOverhead/depth=8.
func parseBudgets(r io.Reader, file string) ([]budget, error) {
	var out []budget
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: %s:%d: %s", errGate, file, n, fmt.Sprintf(format, args...))
		}
		if len(f) != 4 {
			return nil, bad("want <name regexp> <metric> <max|min> <number>, got %d fields", len(f))
		}
		re, err := regexp.Compile("^(?:" + f[0] + ")$")
		if err != nil {
			return nil, bad("bad name pattern %q: %v", f[0], err)
		}
		if f[2] != "max" && f[2] != "min" {
			return nil, bad("want max or min, got %q", f[2])
		}
		v, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			return nil, bad("bad number %q", f[3])
		}
		out = append(out, budget{line: n, text: f[0], pattern: re, metric: f[1], max: f[2] == "max", limit: v})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: reading %s: %v", errGate, file, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s holds no budget", errGate, file)
	}
	return out, nil
}

// results holds every value of every benchmark and metric, in the order
// the benchmarks first appeared.
type results struct {
	names  []string                        // benchmark names without -GOMAXPROCS
	values map[string]map[string][]float64 // name → metric → one value per run
}

// readResults parses go test -bench output with benchfmt. Metrics keep
// the unit go test printed (ns/op, not benchfmt's tidied sec/op). A line
// benchfmt cannot parse is an error: a gate must not skip what it cannot
// read.
func readResults(r io.Reader, file string) (*results, error) {
	res := &results{values: map[string]map[string][]float64{}}
	br := benchfmt.NewReader(r, file)
	var errs []error
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			errs = append(errs, fmt.Errorf("%w: malformed benchmark output: %v", errGate, rec))
		case *benchfmt.Result:
			base, parts := rec.Name.Parts()
			name := "Benchmark" + string(base)
			for _, p := range parts {
				if p[0] == '/' {
					name += string(p)
				}
			}
			m, ok := res.values[name]
			if !ok {
				m = map[string][]float64{}
				res.values[name] = m
				res.names = append(res.names, name)
			}
			for _, v := range rec.Values {
				unit, val := v.Unit, v.Value
				if v.OrigUnit != "" {
					unit, val = v.OrigUnit, v.OrigValue
				}
				m[unit] = append(m[unit], val)
			}
		}
	}
	if err := br.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%w: reading %s: %v", errGate, file, err))
	}
	if len(errs) == 0 && len(res.names) == 0 {
		errs = append(errs, fmt.Errorf("%w: %s holds no benchmark results", errGate, file))
	}
	return res, errors.Join(errs...)
}

// median returns the median of vs, which must not be empty.
func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return s[n/2-1]/2 + s[n/2]/2 // halves first: the sum of two huge values overflows
}

// check is one comparison of a median with a budget.
type check struct {
	name   string
	b      budget
	median float64
	runs   int
}

func (c check) ok() bool {
	if c.b.max {
		return c.median <= c.b.limit
	}
	return c.median >= c.b.limit
}

func (c check) String() string {
	return fmt.Sprintf("%s: %s = %.4g (median of %d) %s budget %s %g", c.name, c.b.metric, c.median, c.runs, verb(c.ok()), c.b.kind(), c.b.limit)
}

func verb(ok bool) string {
	if ok {
		return "within"
	}
	return "BREAKS"
}

// gate compares res with every budget. It returns the checks made and one
// error per breach, per budget that matches no benchmark, and per matched
// benchmark that lacks the budget's metric.
func gate(budgets []budget, res *results, budgetFile string) ([]check, []error) {
	var checks []check
	var errs []error
	for _, b := range budgets {
		matched := 0
		for _, name := range res.names {
			if !b.pattern.MatchString(name) {
				continue
			}
			matched++
			vs := res.values[name][b.metric]
			if len(vs) == 0 {
				errs = append(errs, fmt.Errorf("%w: %s: metric %s is missing (budget %s:%d)", errGate, name, b.metric, budgetFile, b.line))
				continue
			}
			c := check{name: name, b: b, median: median(vs), runs: len(vs)}
			checks = append(checks, c)
			if !c.ok() {
				errs = append(errs, fmt.Errorf("%w: %s: %s = %.4g (median of %d runs), budget %s %g (%s:%d)",
					errGate, name, b.metric, c.median, c.runs, b.kind(), b.limit, budgetFile, b.line))
			}
		}
		if matched == 0 {
			errs = append(errs, fmt.Errorf("%w: no benchmark matches %s for metric %s (budget %s:%d): missing benchmark",
				errGate, b.text, b.metric, budgetFile, b.line))
		}
	}
	return checks, errs
}

// runBenchgate is `rollstep benchgate`.
func runBenchgate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchgate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	budgetsPath := fs.String("budgets", "bench/budgets.txt", "the budgets `file`")
	in := fs.String("in", "-", "go test -bench output `file` (- reads standard input)")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: go test -run='^$' -bench=. -count=5 ./bench/ | rollstep benchgate [-budgets file] [-in file]

Reads go test -bench output, takes the median of every metric of every
benchmark over the runs, and compares it with the budgets file. Exits 1
naming the benchmark, metric, budget and value of every breach, and when a
budget names a benchmark or metric the output lacks.

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "benchgate: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return 2
	}
	bf, err := os.Open(*budgetsPath)
	if err != nil {
		fmt.Fprintf(stderr, "benchgate: %v\n", err)
		return 1
	}
	defer bf.Close()
	var r io.Reader = os.Stdin
	name := "<stdin>"
	if *in != "-" {
		f, err := os.Open(*in)
		if err != nil {
			fmt.Fprintf(stderr, "benchgate: %v\n", err)
			return 1
		}
		defer f.Close()
		r, name = f, *in
	}
	return benchgate(bf, *budgetsPath, r, name, stdout, stderr)
}

// benchgate checks the results read from r against the budgets read from
// budgets, prints every check to stdout and every problem to stderr, and
// returns the exit code.
func benchgate(budgets io.Reader, budgetFile string, r io.Reader, file string, stdout, stderr io.Writer) int {
	bs, err := parseBudgets(budgets, budgetFile)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	res, readErr := readResults(r, file)
	checks, errs := gate(bs, res, budgetFile)
	for _, c := range checks {
		fmt.Fprintln(stdout, c)
	}
	if readErr != nil {
		errs = append([]error{readErr}, errs...)
	}
	for _, e := range errs {
		fmt.Fprintln(stderr, e)
	}
	if len(errs) > 0 {
		fmt.Fprintf(stderr, "benchgate: FAIL: %d problem(s), %d of %d checks within budget\n", len(errs), countOK(checks), len(checks))
		return 1
	}
	fmt.Fprintf(stdout, "benchgate: ok: %d checks within budget\n", len(checks))
	return 0
}

func countOK(cs []check) int {
	n := 0
	for _, c := range cs {
		if c.ok() {
			n++
		}
	}
	return n
}
