package lobby

import (
	"bufio"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/internal/testenv"
)

// loadServerVar, set in the environment, makes this test binary a lobby
// server for TestLoad instead of running tests: the server and the load's
// clients then each have a process's file descriptors.
const loadServerVar = "ROLLSTEP_LOBBY_LOAD_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(loadServerVar) != "" {
		os.Exit(runLoadServer())
	}
	os.Exit(m.Run())
}

// runLoadServer serves on a loopback port and prints its URL, then
// answers each line on its standard input, a number of connections, once
// it holds that many (or after 30 s), with the bytes of memory it holds
// after a collection (heap in use and goroutine stacks); it exits when
// the input closes.
func runLoadServer() int {
	s, err := NewServer(Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(newLoopbackServer(s))
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() { // a line is the number of connections to wait for
		want, _ := strconv.Atoi(in.Text())
		deadline := time.After(30 * time.Second)
	wait:
		for s.Stats().Conns != want {
			select {
			case <-s.changed:
			case <-deadline:
				break wait
			}
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Println(ms.HeapInuse + ms.StackInuse)
	}
	return 0
}

// TestLoad is the server's load test: idle members held open while pairs
// join, match and leave as fast as the clients can, with the server in its
// own process. It checks that every match is made and that the server's
// memory per held connection stays bounded, and logs the rates:
//
//	ROLLSTEP_SOAK=1 go test -run TestLoad -v ./lobby/
//
// Soak size: 10,000 idle members and 5,000 matches; otherwise 300 and 300.
func TestLoad(t *testing.T) {
	idle, matches := 300, 300
	if testenv.Soak() {
		idle, matches = 10000, 5000
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < uint64(idle+1000) {
		t.Skipf("%d idle connections need %d file descriptors in each process; this one may open %d", idle, idle+1000, lim.Cur)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), loadServerVar+"=1")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	out := bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	require.NoError(t, err)
	url := strings.TrimSpace(line)
	memOf := func(conns int) int64 { // the server's memory in use once it holds conns connections
		_, err := fmt.Fprintln(stdin, conns)
		require.NoError(t, err)
		line, err := out.ReadString('\n')
		require.NoError(t, err)
		n, err := strconv.ParseInt(strings.TrimSpace(line), 10, 64)
		require.NoError(t, err)
		return n
	}
	mem0, rss0 := memOf(0), rssOf(t, cmd.Process.Pid)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	// Idle members: raw connections, each joined to a room of 16 that
	// never fills (15 members a room), never read from.
	start := time.Now()
	conns := make([]*websocket.Conn, idle)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= idle {
					return
				}
				ws, _, err := websocket.Dial(ctx, url, nil)
				if err != nil {
					errs <- fmt.Errorf("idle %d: %w", i, err)
					return
				}
				join := fmt.Sprintf(`{"type":"join","room":"idle-%d","size":16}`, i/15)
				if err := ws.Write(ctx, websocket.MessageText, []byte(join)); err != nil {
					errs <- fmt.Errorf("idle %d join: %w", i, err)
					return
				}
				conns[i] = ws
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	t.Cleanup(func() {
		for _, ws := range conns {
			_ = ws.CloseNow()
		}
	})
	held := time.Since(start)
	mem1, rss1 := memOf(idle), rssOf(t, cmd.Process.Pid)

	// Matches: pairs join rooms of 2, get their match, and leave; twice,
	// so that the second round shows whether a round leaves anything
	// behind once the server's caches are warm.
	makeMatches := func(round int) time.Duration {
		start := time.Now()
		var made atomic.Int64
		var failed atomic.Value
		next.Store(0)
		for range 64 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1)) - 1
					if i >= matches {
						return
					}
					room := "m-" + strconv.Itoa(round) + "-" + strconv.Itoa(i)
					pair := make(chan *Match, 2)
					for range 2 {
						go func() {
							m, err := Join(ctx, url, room, 2)
							if err != nil {
								failed.Store(err)
							}
							pair <- m
						}()
					}
					a, b := <-pair, <-pair
					if a != nil && b != nil && a.Token == b.Token {
						made.Add(1)
					}
					for _, m := range []*Match{a, b} {
						if m != nil {
							_ = m.Close()
						}
					}
				}
			}()
		}
		wg.Wait()
		if err, ok := failed.Load().(error); ok {
			t.Fatalf("a join failed: %v", err)
		}
		require.Equal(t, int64(matches), made.Load(), "every pair was matched with one token")
		return time.Since(start)
	}
	matching := makeMatches(0)
	memWarm := memOf(idle)
	makeMatches(1)
	mem2, rss2 := memOf(idle), rssOf(t, cmd.Process.Pid)

	perConn := (mem1 - mem0) / int64(idle)
	t.Logf("%d idle members held in %v (%.0f/s); server heap+stacks %d KiB -> %d KiB, %d B per held connection; RSS %d -> %d KiB",
		idle, held.Round(time.Millisecond), float64(idle)/held.Seconds(), mem0>>10, mem1>>10, perConn, rss0>>10, rss1>>10)
	t.Logf("%d matches made in %v beside them: %.0f matches/s; server heap+stacks after them %d KiB, after %d more %d KiB, RSS %d KiB",
		matches, matching.Round(time.Millisecond), float64(matches)/matching.Seconds(), memWarm>>10, matches, mem2>>10, rss2>>10)
	// Bounded memory: what a held connection costs the server (goroutines,
	// buffers, the queue) stays within 64 KiB, and the matches made and
	// gone leave nothing behind: the server holds what it held before them.
	require.Less(t, perConn, int64(64<<10), "server memory per held connection")
	require.Less(t, mem2, mem1+mem1/2+2<<20, "server memory after making and ending %d matches", 2*matches)
	require.Less(t, mem2, memWarm+memWarm/8+1<<20, "server memory grew by a second round of %d matches (from %d KiB)", matches, memWarm>>10)
}

// rssOf returns the resident set size of process pid, in bytes.
func rssOf(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	require.NoError(t, err)
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc status")
	return 0
}

// newLoopbackServer serves s on a loopback port until the process exits
// and returns its WebSocket URL.
func newLoopbackServer(s *Server) string {
	ts := httptest.NewServer(s)
	return "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws"
}
