package xvfb

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// missingHeaders are texts of the build errors of a machine without the C
// toolchain or the X11, OpenGL or ALSA headers Ebitengine needs (cgo
// reports "fatal error: X11/Xlib.h: No such file or directory").
var missingHeaders = []string{"X11/", "GL/", "alsa/", "C compiler", `exec: "gcc"`}

// Skip skips t for the reason given, except in CI (CI=true), whose machine
// installs what the window tests need: there it fails t.
func Skip(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI must run this test: "+format, args...)
	}
	t.Skipf(format, args...)
}

// Build compiles the command in directory dir (relative to the test's
// working directory) into t's temporary directory and returns the
// binary, skipping t (see Skip) where the machine cannot build Ebitengine
// programs.
func Build(t testing.TB, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(abs))
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		for _, missing := range missingHeaders {
			if bytes.Contains(out, []byte(missing)) {
				Skip(t, "this machine cannot build Ebitengine programs (Debian: apt-get install gcc libx11-dev libxrandr-dev libxcursor-dev libxinerama-dev libxi-dev libxxf86vm-dev libgl1-mesa-dev libasound2-dev):\n%s", out)
			}
		}
		t.Fatalf("go build in %s: %v\n%s", dir, err, out)
	}
	return bin
}

// StartForTest starts a display of width×height for t's lifetime,
// skipping t (see Skip) where Xvfb is not installed.
func StartForTest(t testing.TB, width, height int) *Display {
	t.Helper()
	d, err := Start(width, height)
	if errors.Is(err, ErrNotInstalled) {
		Skip(t, "%v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Stop)
	return d
}

// CountColour returns how many pixels of img are within within of c on
// each of red, green and blue (8-bit values): a screenshot test's check
// that something of that colour was drawn.
func CountColour(img image.Image, c color.RGBA, within int) int {
	near := func(v uint32, want uint8) bool { d := int(v>>8) - int(want); return d >= -within && d <= within }
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r, c.R) && near(g, c.G) && near(bl, c.B) {
				n++
			}
		}
	}
	return n
}
