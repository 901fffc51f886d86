//go:build !js

package webdemo

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// BrowserVar=1 runs the browser tests (.ci/run sets it after installing
// chromium): they build a game for wasm and drive a headless chromium,
// too slow and too heavy for a plain go test ./... .
const BrowserVar = "ROLLSTEP_BROWSER"

// Site is a game's site served with the lobby, and a headless chromium to
// open it in.
type Site struct {
	// URL is the site's address, http://host:port.
	URL string
	// Browser is the first tab's context; NewTab opens more.
	Browser context.Context
}

// NewSite builds pkg's site, serves it for the test's lifetime and starts
// a headless chromium, with opts added to its flags. It skips the test
// unless BrowserVar is 1, and fails it if chromium is missing then.
func NewSite(t *testing.T, pkg string, index []byte, opts ...chromedp.ExecAllocatorOption) *Site {
	t.Helper()
	if os.Getenv(BrowserVar) != "1" {
		t.Skipf("set %s=1 to build the game for wasm and play it in headless chromium", BrowserVar)
	}
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	require.NotEmpty(t, browser, "%s=1 but there is no chromium on PATH (apt-get install chromium)", BrowserVar)
	dir := t.TempDir()
	require.NoError(t, Build(dir, pkg, index))
	srv, err := Handler(dir)
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	all := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(filepath.Join(dir, "profile")),
		// Host candidates as addresses, not mDNS names: the test machine
		// has no multicast DNS.
		chromedp.Flag("disable-features", "WebRtcHideLocalIpsWithMdns"),
		// A tab in the background must keep its animation frames.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
	}, opts...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), all...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := context.WithTimeout(actx, 3*time.Minute)
	t.Cleanup(cancel)
	first, cancelFirst := chromedp.NewContext(ctx)
	t.Cleanup(cancelFirst)
	require.NoError(t, chromedp.Do(first)) // start the browser
	return &Site{URL: ts.URL, Browser: first}
}

// Open navigates a tab to the site's path and query: the first tab, or a
// new one.
func (s *Site) Open(t *testing.T, first bool, pathAndQuery string) context.Context {
	t.Helper()
	tab := s.Browser
	if !first {
		var cancel context.CancelFunc
		tab, cancel = chromedp.NewContext(s.Browser)
		t.Cleanup(cancel)
	}
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(s.URL+pathAndQuery)))
	return tab
}

// The pages' report to the tests: a game's page sets data-frame on <body>
// to the frame it is at and, once its match ended, data-checksum to the
// checksum of the final state in 16 hex digits.

// Frame returns the frame the tab's page reports, or -1 before it reports
// one.
func Frame(t *testing.T, tab context.Context) int {
	t.Helper()
	s, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.frame || "-1"`))
	require.NoError(t, err)
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}

// WaitFrame waits until the tab's page reports frame f or later.
func WaitFrame(t *testing.T, tab context.Context, f int) {
	t.Helper()
	_, err := chromedp.Run(tab, chromedp.Poll[bool](fmt.Sprintf(`+(document.body.dataset.frame || 0) >= %d`, f),
		chromedp.WithPollingTimeout(2*time.Minute)))
	require.NoError(t, err, "the match did not reach frame %d: the page is at %d", f, Frame(t, tab))
}

// Checksum waits for the tab's match to end and returns the checksum of
// its final state, failing the test unless it ended at frame end.
func Checksum(t *testing.T, tab context.Context, end int) string {
	t.Helper()
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`document.body.dataset.checksum !== undefined`,
		chromedp.WithPollingTimeout(2*time.Minute)))
	require.NoError(t, err, "the tab did not finish; it reached frame %d", Frame(t, tab))
	sum, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.dataset.checksum`))
	require.NoError(t, err)
	require.Equal(t, end, Frame(t, tab), "the tab ended at the agreed frame")
	require.Len(t, sum, 16)
	return sum
}
