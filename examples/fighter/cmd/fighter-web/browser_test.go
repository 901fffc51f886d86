//go:build !js

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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/lobby"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/webrtc"
)

// browserVar=1 runs the browser tests (.ci/run sets it after installing
// chromium): they build the game for wasm and drive a headless chromium,
// too slow and too heavy for the plain go test ./... .
const browserVar = "ROLLSTEP_BROWSER"

// matchFrames is how long the browser matches play: ten seconds.
const matchFrames = 600

// site is the page and the lobby served as the command serves them, and a
// headless chromium to open it in.
type site struct {
	url     string
	browser context.Context // the first tab
}

func newSite(t *testing.T) *site {
	t.Helper()
	if os.Getenv(browserVar) != "1" {
		t.Skipf("set %s=1 to build the game for wasm and play it in headless chromium", browserVar)
	}
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	require.NotEmpty(t, browser, "%s=1 but there is no chromium on PATH (apt-get install chromium)", browserVar)
	dir := t.TempDir()
	require.NoError(t, buildSite(dir))
	srv, err := lobby.NewServer(lobby.Config{Files: http.FileServer(http.Dir(dir))})
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
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

// open opens the page in tab (a new one unless it is the first) with a
// bot playing, in room.
func (s *site) open(t *testing.T, first bool, room string) context.Context {
	t.Helper()
	tab := s.browser
	if !first {
		var cancel context.CancelFunc
		tab, cancel = chromedp.NewContext(s.browser)
		t.Cleanup(cancel)
	}
	page := fmt.Sprintf("%s/?room=%s&bot=1&frames=%d", s.url, room, matchFrames)
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(page)))
	return tab
}

// status returns the page's status line.
func status(t *testing.T, tab context.Context) string {
	t.Helper()
	s, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	require.NoError(t, err)
	return s
}

// checksum waits for the tab's match to end and returns the checksum of
// its final state.
func checksum(t *testing.T, tab context.Context) string {
	t.Helper()
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`document.body.dataset.checksum !== undefined`,
		chromedp.WithPollingTimeout(90*time.Second)))
	require.NoError(t, err, "the tab did not finish: %q", status(t, tab))
	sum, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.checksum`))
	require.NoError(t, err)
	frame, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.frame`))
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(matchFrames), frame, "the tab ended at the agreed frame")
	return sum
}

// TestTwoTabsPlayAMatch: two tabs join one room, connect over the
// browser's WebRTC and play 600 frames with bots; both report the same
// checksum of the final state. With ROLLSTEP_SCREENSHOT=1 it keeps the
// first tab's canvas from mid-match in testdata/browser-match.png.
func TestTwoTabsPlayAMatch(t *testing.T) {
	s := newSite(t)
	a := s.open(t, true, "tabs")
	b := s.open(t, false, "tabs")
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
	sa, sb := checksum(t, a), checksum(t, b)
	t.Logf("final checksums: %s %s", sa, sb)
	assert.Equal(t, sa, sb, "the two tabs agree on the final state")
	assert.Len(t, sa, 16)
}

// TestTabAgainstNativePeer: cross-play. A tab and a native Go peer (pion's
// WebRTC, the same session code) meet in a room and play 600 frames.
func TestTabAgainstNativePeer(t *testing.T) {
	s := newSite(t)
	tab := s.open(t, true, "cross")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	m, err := lobby.Join(ctx, "ws"+strings.TrimPrefix(s.url, "http")+"/ws", "cross", 2)
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
	browser := checksum(t, tab)
	t.Logf("native seat %d: %s; tab: %s", m.Seat, native, browser)
	assert.Equal(t, native, browser, "the native peer and the tab agree on the final state")
}
