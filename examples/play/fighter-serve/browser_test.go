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
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/internal/webdemo"
	"github.com/rollstep/rollstep/examples/play/internal/duel"
	"github.com/rollstep/rollstep/lobby"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/webrtc"
)

// matchFrames is how long the browser matches play: ten seconds.
const matchFrames = 600

// newSite serves the fighter's site to a headless chromium that renders
// Ebitengine's WebGL in software.
func newSite(t *testing.T) *webdemo.Site {
	return webdemo.NewSite(t, game, indexHTML, chromedp.WindowSize(960, 540),
		chromedp.Flag("use-angle", "swiftshader"), chromedp.Flag("enable-unsafe-swiftshader", true))
}

// open opens the page in a tab (the first tab, or a new one) with a bot
// playing in room, and the extra query.
func open(t *testing.T, s *webdemo.Site, first bool, room, extra string) context.Context {
	t.Helper()
	return s.Open(t, first, fmt.Sprintf("/?room=%s&bot=1&frames=%d%s", room, matchFrames, extra))
}

// TestTwoTabsPlayTheEbitengineFighter: two tabs join one room, connect
// over the browser's WebRTC and play 600 frames with bots, drawn by
// Ebitengine on WebGL; both report the same checksum of the final state.
// With ROLLSTEP_SCREENSHOTS set, the first tab's screen from mid-match,
// overlay on, is kept there as fighter-browser.png.
func TestTwoTabsPlayTheEbitengineFighter(t *testing.T) {
	s := newSite(t)
	a := open(t, s, true, "tabs", "&overlay=1")
	b := open(t, s, false, "tabs", "")
	webdemo.WaitFrame(t, a, 300)
	if dir := os.Getenv("ROLLSTEP_SCREENSHOTS"); dir != "" {
		shot, err := chromedp.Run(a, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "fighter-browser.png"), shot, 0o644))
	}
	sa, sb := webdemo.Checksum(t, a, matchFrames), webdemo.Checksum(t, b, matchFrames)
	t.Logf("final checksums: %s %s", sa, sb)
	require.Equal(t, sa, sb, "the two tabs agree on the final state")
}

// TestTabAgainstNativeDuel: cross-play. A tab and a native peer (the
// same duel package over pion's WebRTC) meet in a room and play 600
// frames to the same final state.
func TestTabAgainstNativeDuel(t *testing.T) {
	s := newSite(t)
	tab := open(t, s, true, "cross", "")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	m, err := lobby.Join(ctx, "ws"+strings.TrimPrefix(s.URL, "http")+"/ws", "cross", 2)
	require.NoError(t, err)
	defer m.Close()
	conn, err := webrtc.New(webrtc.Config{Self: transport.Addr(m.Seat), Peers: m.Peers(), Signaler: m})
	require.NoError(t, err)
	d, err := duel.Remote(m.Seat, false, conn, transport.Addr(1-m.Seat), m.Token, m.Token, nil)
	require.NoError(t, err)
	defer d.Close()
	require.NoError(t, d.View().EndAt(matchFrames))
	start := time.Now()
	tick := time.NewTicker(time.Second / 120) // the native game loop, on the real clock
	defer tick.Stop()
	for !d.View().Ended() {
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("the native peer reached frame %d, the tab %d", d.View().Frame(), webdemo.Frame(t, tab))
		}
		require.NoError(t, d.Update(time.Since(start), [2]fighter.Input{}))
	}
	native := fmt.Sprintf("%016x", state.Checksum(d.View().State()))
	browser := webdemo.Checksum(t, tab, matchFrames)
	t.Logf("native seat %d: %s; tab: %s", m.Seat, native, browser)
	require.Equal(t, native, browser, "the native peer and the tab agree on the final state")
}
