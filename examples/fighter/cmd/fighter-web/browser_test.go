//go:build !js

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/internal/webdemo"
	"github.com/rollstep/rollstep/lobby"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/webrtc"
)

// matchFrames is how long the browser matches play: ten seconds.
const matchFrames = 600

// open opens the page in a tab (the first tab, or a new one) with a bot
// playing, in room.
func open(t *testing.T, s *webdemo.Site, first bool, room string) context.Context {
	t.Helper()
	return s.Open(t, first, fmt.Sprintf("/?room=%s&bot=1&frames=%d", room, matchFrames))
}

// status returns the page's status line.
func status(t *testing.T, tab context.Context) string {
	t.Helper()
	s, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	require.NoError(t, err)
	return s
}

// TestTwoTabsPlayAMatch: two tabs join one room, connect over the
// browser's WebRTC and play 600 frames with bots; both report the same
// checksum of the final state. With ROLLSTEP_SCREENSHOT=1 it keeps the
// first tab's canvas from mid-match in testdata/browser-match.png.
func TestTwoTabsPlayAMatch(t *testing.T) {
	s := webdemo.NewSite(t, self, indexHTML, chromedp.DisableGPU)
	a := open(t, s, true, "tabs")
	b := open(t, s, false, "tabs")
	_, err := chromedp.Run(a, chromedp.Poll[bool](
		`(() => { const m = /frame (\d+)/.exec(document.getElementById("status").textContent); return m && +m[1] >= 300; })()`,
		chromedp.WithPollingTimeout(60*time.Second)))
	require.NoError(t, err, "the match did not reach frame 300: %q", status(t, a))
	shot, err := chromedp.Run(a, chromedp.Screenshot("#arena"))
	require.NoError(t, err)
	t.Logf("mid-match: %s", status(t, a))
	if os.Getenv("ROLLSTEP_SCREENSHOT") == "1" {
		require.NoError(t, os.WriteFile(filepath.Join("testdata", "browser-match.png"), shot, 0o644))
	}
	sa, sb := webdemo.Checksum(t, a, matchFrames), webdemo.Checksum(t, b, matchFrames)
	t.Logf("final checksums: %s %s", sa, sb)
	assert.Equal(t, sa, sb, "the two tabs agree on the final state")
}

// TestTabAgainstNativePeer: cross-play. A tab and a native Go peer (pion's
// WebRTC, the same session code) meet in a room and play 600 frames.
func TestTabAgainstNativePeer(t *testing.T) {
	s := webdemo.NewSite(t, self, indexHTML, chromedp.DisableGPU)
	tab := open(t, s, true, "cross")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	m, err := lobby.Join(ctx, "ws"+strings.TrimPrefix(s.URL, "http")+"/ws", "cross", 2)
	require.NoError(t, err)
	defer m.Close()
	conn, err := webrtc.New(webrtc.Config{Self: transport.Addr(m.Seat), Peers: m.Peers(), Signaler: m})
	require.NoError(t, err)
	defer conn.Close()
	sess, err := newSession(m, conn, matchFrames)
	require.NoError(t, err)
	defer sess.Close()
	bots := fighter.BotInputs(m.Token)
	start := time.Now()
	tick := time.NewTicker(time.Second / 120) // the native game loop, on the real clock
	defer tick.Stop()
	for !sess.Ended() {
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("the native peer reached frame %d; the tab says %q", sess.Frame(), status(t, tab))
		}
		_ = sess.AddLocalInput(core.PlayerHandle(m.Seat), bots(core.PlayerHandle(m.Seat), sess.Frame()))
		require.NoError(t, sess.Update(time.Since(start)))
	}
	native := fmt.Sprintf("%016x", state.Checksum(sess.State()))
	browser := webdemo.Checksum(t, tab, matchFrames)
	t.Logf("native seat %d: %s; tab: %s", m.Seat, native, browser)
	assert.Equal(t, native, browser, "the native peer and the tab agree on the final state")
}
