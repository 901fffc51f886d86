package fixed

import (
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestInlining checks that the small functions stay within the compiler's
// inlining budget, as net/netip's inlining_test.go does: a Mul or a Vec2.Add
// that stops inlining quietly costs every simulation step a call.
func TestInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping in short mode: runs the go command")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found:", err)
	}
	host, err := exec.Command(goCmd, "env", "GOHOSTOS", "GOHOSTARCH").Output()
	if err != nil {
		t.Skip("cannot run the go command:", err)
	}
	if f := strings.Fields(string(host)); len(f) != 2 || f[0] != runtime.GOOS || f[1] != runtime.GOARCH {
		t.Skipf("skipping when cross-compiled (host %s, test %s/%s)", strings.Join(f, "/"), runtime.GOOS, runtime.GOARCH)
	}
	cmd := exec.Command(goCmd, "build", "-gcflags=-m", ".")
	cmd.Env = append(cmd.Environ(), "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	got := map[string]bool{}
	re := regexp.MustCompile(`: can inline (\S+)`)
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		got[m[1]] = true
	}
	for _, want := range []string{
		"FromInt", "FromRaw", "F.Raw", "FromRatio", "F.Int",
		"F.Mul", "F.Div", "F.Mod", "F.Neg", "F.Abs", "F.Sign",
		"Clamp", "F.Floor", "F.Ceil", "F.Round", "Sqrt", "Cos",
		"V2", "Vec2.Add", "Vec2.Sub", "Vec2.Neg", "Vec2.Dot", "Vec2.Cross",
		"Angle.Degrees", "AngleFromDegrees", "AngleFromTurns",
		// Helpers on the hot paths.
		"abs64", "mulU64", "mulI64", "sat", "i128.add", "i128.shiftF", "u128.toF", "mulDivRound", "isqrtNorm",
	} {
		if !got[want] {
			t.Errorf("%s is no longer inlinable", want)
		}
	}
}
