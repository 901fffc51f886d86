package screentest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/examples/play/internal/xvfb"
)

// Screen size of the viewer, and two of its players' colours (the human's
// blue, the first bot's red); see the command's draw.go.
const screenW, screenH = 960, 720

var (
	humanBlue = color.RGBA{70, 150, 255, 255}
	botRed    = color.RGBA{240, 80, 70, 255}
	moveLine  = color.RGBA{255, 230, 120, 255}
)

// shoot runs the viewer on d with args plus -screenshot and returns the
// decoded PNG, checking the exit code and the size. With RTS_SCREENSHOTS
// set, a kept screenshot is also copied to the command's testdata.
func shoot(t *testing.T, d *xvfb.Display, bin, name string, keep bool, args ...string) image.Image {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	cmd := exec.Command(bin, append(args, "-screenshot", file)...)
	cmd.Env = d.Env()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, screenW, screenH), img.Bounds())
	if keep && os.Getenv("RTS_SCREENSHOTS") != "" { // refresh testdata: RTS_SCREENSHOTS=1 go test ./rts/...
		require.NoError(t, os.WriteFile(filepath.Join("..", "testdata", name), data, 0o644))
	}
	return img
}

// TestLiveScreenshot runs a live match, the human scripted by -autoplay
// (a box selection around its base, a move order to the centre, then an
// attack-move by squad 3), and checks the screenshot: the size, the
// human's and a bot's colours, and the yellow of a move order in flight.
func TestLiveScreenshot(t *testing.T) {
	bin := xvfb.Build(t, "..")
	d := xvfb.StartForTest(t, 1280, 1024)
	img := shoot(t, d, bin, "rts.png", true, "-autoplay", "-frames", "150", "-bots", "3", "-units", "600", "-seed", "1")
	require.Greater(t, xvfb.CountColour(img, humanBlue, 10), 200, "the human's units")
	require.Greater(t, xvfb.CountColour(img, botRed, 10), 200, "a bot's units")
	require.Greater(t, xvfb.CountColour(img, moveLine, 10), 20, "a move order in flight")
}

// TestReplayScreenshot records a live match with -record, plays it back
// with -replay and checks that screenshot too.
func TestReplayScreenshot(t *testing.T) {
	bin := xvfb.Build(t, "..")
	d := xvfb.StartForTest(t, 1280, 1024)
	rec := filepath.Join(t.TempDir(), "match.replay")
	shoot(t, d, bin, "live.png", false, "-autoplay", "-frames", "240", "-units", "400", "-seed", "2", "-record", rec)
	info, err := os.Stat(rec)
	require.NoError(t, err)
	require.Greater(t, info.Size(), int64(0))
	img := shoot(t, d, bin, "rts-replay.png", true, "-replay", rec, "-frames", "90")
	require.Greater(t, xvfb.CountColour(img, humanBlue, 10), 100, "the human's units")
	require.Greater(t, xvfb.CountColour(img, botRed, 10), 100, "a bot's units")
	cmd := exec.Command(bin, "-replay", filepath.Join(t.TempDir(), "absent"))
	cmd.Env = d.Env()
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	require.True(t, strings.Contains(string(out), "absent"), "%s", out)
}
