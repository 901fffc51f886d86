package xvfb

import (
	"errors"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStartAnnouncesADisplay starts a server and checks that a client can
// talk to it: xdpyinfo-free, by asking Xvfb's own display for its name
// through xset when that exists, else by the announced name's shape.
func TestStartAnnouncesADisplay(t *testing.T) {
	d, err := Start(320, 240)
	if errors.Is(err, ErrNotInstalled) {
		t.Skip(err)
	}
	require.NoError(t, err)
	defer d.Stop()
	require.Regexp(t, `^:[0-9]+$`, d.Name)
	require.Contains(t, d.Env(), "DISPLAY="+d.Name)
	if _, err := exec.LookPath("xset"); err == nil {
		cmd := exec.Command("xset", "q")
		cmd.Env = d.Env()
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
}
