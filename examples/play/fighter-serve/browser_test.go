package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/play/internal/duel"
	"github.com/rollstep/rollstep/lobby"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/webrtc"
)

// browserVar=1 runs the browser tests (.ci/run sets it): they build the
// game for wasm and play it in headless chromium, rendering with its
// software WebGL, too heavy for a plain go test ./... .
const browserVar = "ROLLSTEP_BROWSER"

// matchFrames is how long the browser matches play: ten seconds.
const matchFrames = 600

// site is the page and the lobby served as the command serves them, and
// a headless chromium to open them in.
type site struct {
	url     string
	browser context.Context // the first tab
}

func newSite(t *testing.T) *site {
	t.Helper()
	if os.Getenv(browserVar) != "1" {
		t.Skipf("set %s=1 to build the fighter for wasm and play it in headless chromium", browserVar)
	}
	browser, err := exec.LookPath("chromium")
	require.NoError(t, err, "%s=1 but there is no chromium on PATH (apt-get install chromium)", browserVar)
	dir := t.TempDir()
	require.NoError(t, buildSite(dir))
	srv, err := lobby.NewServer(lobby.Config{Files: http.FileServer(http.Dir(dir))})
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.NoFirstRun,
		chromedp.WindowSize(960, 540),
		// Ebitengine draws with WebGL: chromium's software renderer.
		chromedp.Flag("use-angle", "swiftshader"), chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(filepath.Join(dir, "profile")),
		// Host candidates as addresses, not mDNS names: the test machine
		// has no multicast DNS.
		chromedp.Flag("disable-features", "WebRtcHideLocalIpsWithMdns"),
		// A tab in the background must keep its animation frames.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := context.WithTimeout(actx, 3*time.Minute)
	t.Cleanup(cancel)
	first, cancelFirst := chromedp.NewContext(ctx)
	t.Cleanup(cancelFirst)
	require.NoError(t, chromedp.Do(first)) // start the browser
	return &site{url: ts.URL, browser: first}
}

// open opens the page in a tab (the first tab, or a new one) with a bot
// playing in room, and the extra query.
func (s *site) open(t *testing.T, first bool, room, extra string) context.Context {
	t.Helper()
	tab := s.browser
	if !first {
		var cancel context.CancelFunc
		tab, cancel = chromedp.NewContext(s.browser)
		t.Cleanup(cancel)
	}
	page := fmt.Sprintf("%s/?room=%s&bot=1&frames=%d%s", s.url, room, matchFrames, extra)
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(page)))
	return tab
}

// frame returns the frame the tab's game reports, or -1 before it
// reports one.
func frame(t *testing.T, tab context.Context) int {
	t.Helper()
	s, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.frame || "-1"`))
	require.NoError(t, err)
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}

// checksum waits for the tab's match to end and returns the checksum of
// its final state.
func checksum(t *testing.T, tab context.Context) string {
	t.Helper()
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`document.body.dataset.checksum !== undefined`,
		chromedp.WithPollingTimeout(2*time.Minute)))
	require.NoError(t, err, "the tab did not finish; it reached frame %d", frame(t, tab))
	sum, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.checksum`))
	require.NoError(t, err)
	require.Equal(t, matchFrames, frame(t, tab), "the tab ended at the agreed frame")
	return sum
}

// TestTwoTabsPlayTheEbitengineFighter: two tabs join one room, connect
// over the browser's WebRTC and play 600 frames with bots, drawn by
// Ebitengine on WebGL; both report the same checksum of the final state.
// With ROLLSTEP_SCREENSHOTS set, the first tab's screen from mid-match,
// overlay on, is kept there as fighter-browser.png.
func TestTwoTabsPlayTheEbitengineFighter(t *testing.T) {
	s := newSite(t)
	a := s.open(t, true, "tabs", "&overlay=1")
	b := s.open(t, false, "tabs", "")
	_, err := chromedp.Run(a, chromedp.Poll[bool](`+(document.body.dataset.frame || 0) >= 300`,
		chromedp.WithPollingTimeout(2*time.Minute)))
	require.NoError(t, err, "the match did not reach frame 300: frame %d", frame(t, a))
	if dir := os.Getenv("ROLLSTEP_SCREENSHOTS"); dir != "" {
		shot, err := chromedp.Run(a, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "fighter-browser.png"), shot, 0o644))
	}
	sa, sb := checksum(t, a), checksum(t, b)
	t.Logf("final checksums: %s %s", sa, sb)
	require.Equal(t, sa, sb, "the two tabs agree on the final state")
	require.Len(t, sa, 16)
}

// TestTabAgainstNativeDuel: cross-play. A tab and a native peer (the
// same duel package over pion's WebRTC) meet in a room and play 600
// frames to the same final state.
func TestTabAgainstNativeDuel(t *testing.T) {
	s := newSite(t)
	tab := s.open(t, true, "cross", "")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	m, err := lobby.Join(ctx, "ws"+strings.TrimPrefix(s.url, "http")+"/ws", "cross", 2)
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
			t.Fatalf("the native peer reached frame %d, the tab %d", d.View().Frame(), frame(t, tab))
		}
		require.NoError(t, d.Update(time.Since(start), [2]fighter.Input{}))
	}
	native := fmt.Sprintf("%016x", state.Checksum(d.View().State()))
	browser := checksum(t, tab)
	t.Logf("native seat %d: %s; tab: %s", m.Seat, native, browser)
	require.Equal(t, native, browser, "the native peer and the tab agree on the final state")
}
