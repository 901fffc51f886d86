package play

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rollstep/rollstep/examples/play/internal/xvfb"
	"github.com/stretchr/testify/require"
)

// run runs bin with args on d and returns its combined output.
func run(t *testing.T, d *xvfb.Display, bin string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = d.Env()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// screenshot decodes the PNG at path.
func screenshot(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img
}

// TestFighterScreenshot plays the fighter in a window on a virtual
// display, two bots 50 ms apart, with the network overlay on, and checks
// the screenshot it saves at frame 240: the size of the screen, both
// fighters' colours, and the overlay's panel and graph lines. Where
// ROLLSTEP_SCREENSHOTS names a directory, the picture is copied there
// (the README's is made so).
func TestFighterScreenshot(t *testing.T) {
	bin := xvfb.Build(t, "fighter")
	d := xvfb.StartForTest(t, 1280, 800)
	shot := filepath.Join(t.TempDir(), "fighter.png")
	out, err := run(t, d, bin, "-autoplay", "-overlay", "-mute", "-screenshot", shot, "-frames", "240")
	require.NoError(t, err, out)

	img := screenshot(t, shot)
	require.Equal(t, image.Rect(0, 0, 960, 540), img.Bounds())
	require.Greater(t, xvfb.CountColour(img, color.RGBA{70, 140, 255, 255}, 12), 500, "player 0's fighter and health bar")
	require.Greater(t, xvfb.CountColour(img, color.RGBA{255, 90, 74, 255}, 12), 500, "player 1's fighter and health bar")
	require.Greater(t, xvfb.CountColour(img, color.RGBA{90, 200, 255, 255}, 12), 100, "the overlay's graph lines")
	keep(t, shot)
}

// TestFighterRefusesBadFlags: a flag error exits 2 with the reason.
func TestFighterRefusesBadFlags(t *testing.T) {
	bin := xvfb.Build(t, "fighter")
	d := xvfb.StartForTest(t, 1280, 800)
	out, err := run(t, d, bin, "-vs", "robot")
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	require.Equal(t, 2, exit.ExitCode())
	require.Contains(t, out, `-vs "robot": want "bot" or "human"`)
}

// keep copies a screenshot to $ROLLSTEP_SCREENSHOTS, if set.
func keep(t *testing.T, path string) {
	dir := os.Getenv("ROLLSTEP_SCREENSHOTS")
	if dir == "" {
		return
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(path)), b, 0o644))
	t.Logf("screenshot kept in %s", filepath.Join(dir, filepath.Base(path)))
}
