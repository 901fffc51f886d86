package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/simlink"
	"github.com/rollstep/rollstep/transport/sim"
)

// lineBuffer is a goroutine-safe io.Writer that keeps everything written
// and hands the first complete line to first.
type lineBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	sent  bool
	first chan string
}

func newLineBuffer() *lineBuffer { return &lineBuffer{first: make(chan string, 1)} }

func (b *lineBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if line, _, ok := strings.Cut(b.buf.String(), "\n"); ok && !b.sent {
		b.sent = true
		b.first <- line
	}
	return len(p), nil
}

func (b *lineBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// proxyRun is a rollstep proxy running in the test process.
type proxyRun struct {
	addr           string
	stdout, stderr *lineBuffer
	code           chan int
}

// startProxy runs rollstep proxy with args until ctx is done and returns
// once it has printed its address, or fails the test after a deadline.
func startProxy(t *testing.T, ctx context.Context, args ...string) *proxyRun {
	t.Helper()
	r := &proxyRun{stdout: newLineBuffer(), stderr: newLineBuffer(), code: make(chan int, 1)}
	go func() { r.code <- runProxyContext(ctx, args, r.stdout, r.stderr) }()
	select {
	case line := <-r.stdout.first:
		addr, ok := strings.CutPrefix(line, "listening on ")
		if !ok {
			t.Fatalf("first line: got %q, want \"listening on ADDR\"", line)
		}
		r.addr = addr
	case code := <-r.code:
		t.Fatalf("proxy exited with %d before listening: %s", code, r.stderr)
	case <-time.After(5 * time.Second):
		t.Fatal("proxy did not print its address within 5s")
	}
	return r
}

// wait returns the exit code of r, failing the test if it takes more than
// 5 s.
func (r *proxyRun) wait(t *testing.T) int {
	t.Helper()
	select {
	case code := <-r.code:
		return code
	case <-time.After(5 * time.Second):
		t.Fatal("proxy did not stop within 5s")
		return -1
	}
}

// received is a datagram and the moment it was read.
type received struct {
	at      time.Time
	payload []byte
}

// startEcho starts a UDP server on 127.0.0.1 that sends every datagram it
// receives back to its sender and reports it on the returned channel. The
// server stops at the end of the test.
func startEcho(t *testing.T) (string, <-chan received) {
	t.Helper()
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadBuffer(1 << 20)
	out := make(chan received, 4096)
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 1<<16)
		for {
			n, from, err := conn.ReadFromUDPAddrPort(buf)
			if err != nil {
				return // closed
			}
			at := time.Now()
			conn.WriteToUDPAddrPort(buf[:n], from)
			select {
			case out <- received{at, bytes.Clone(buf[:n])}:
			default: // the test has stopped reading
			}
		}
	}()
	t.Cleanup(func() { conn.Close(); <-done })
	return conn.LocalAddr().String(), out
}

// testPayload returns datagram i: its index, then bytes that depend on it,
// 8 to 207 bytes in all.
func testPayload(i int) []byte {
	p := make([]byte, 8+i%200)
	binary.BigEndian.PutUint32(p, uint32(i))
	for j := 4; j < len(p); j++ {
		p[j] = byte(i*31 + j)
	}
	return p
}

// TestProxyEndToEnd is the real-socket test of rollstep proxy on
// 127.0.0.1: a client sends datagrams through the proxy, with latency,
// jitter, loss, duplication and reordering in both directions, to an echo server. The
// random choices depend only on the seed and the order of the datagrams,
// so which datagrams arrive, how many copies of each, and how many echoes
// come back are exact; only the timing is real. It checks that every
// datagram arrives byte-identical and none before the minimum latency.
// It takes about 0.2 s and is bounded by a 10 s deadline.
func TestProxyEndToEnd(t *testing.T) {
	const (
		n, seed       = 120, 7
		base, jitter  = 40 * time.Millisecond, 10 * time.Millisecond
		loss, dup     = 0.2, 0.05
		reorder       = 0.05
		latencyFlag   = "40ms±10ms"
		generousBound = 3 * time.Second // upper bound on one-way latency, for a loaded machine
	)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	deadline, _ := ctx.Deadline()

	// The fates, predicted with the Shaper the proxy uses: the Up
	// direction is link 0 → 1 and the Down direction link 1 → 0.
	link := sim.LinkConfig{Latency: sim.Latency{Base: base, Jitter: jitter}, Loss: loss, Duplicate: dup, Reorder: reorder, ReorderDelay: 20 * time.Millisecond}
	upShaper, _ := simlink.NewShaper(link, seed, 0, 1)
	downShaper, _ := simlink.NewShaper(link, seed, 1, 0)
	copies := make([]int, n) // copies of datagram i the echo server gets
	atServer := 0
	for i := range n {
		if f := upShaper.Decide(0, len(testPayload(i))); !f.Dropped() {
			copies[i] = 1
			if f.Duplicate {
				copies[i] = 2
			}
		}
		atServer += copies[i]
	}
	atClient := 0
	for range atServer {
		if f := downShaper.Decide(0, 0); !f.Dropped() {
			atClient++
			if f.Duplicate {
				atClient++
			}
		}
	}

	echoAddr, arrivals := startEcho(t)
	proxy := startProxy(t, ctx, "-upstream", echoAddr, "-latency", latencyFlag,
		"-loss", fmt.Sprint(loss), "-dup", fmt.Sprint(dup), "-reorder", fmt.Sprint(reorder), "-seed", fmt.Sprint(seed), "-duration", "20s")
	client, err := net.Dial("udp", proxy.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	client.(*net.UDPConn).SetReadBuffer(1 << 20)
	client.SetDeadline(deadline)

	sent := make([]time.Time, n)
	for i := range n {
		sent[i] = time.Now()
		if _, err := client.Write(testPayload(i)); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}

	// The echo server sees exactly the predicted copies, byte-identical,
	// each no earlier than the minimum latency after it was sent.
	got := make([]int, n)
	for range atServer {
		var r received
		select {
		case r = <-arrivals:
		case <-ctx.Done():
			t.Fatalf("echo server: got %d of %d datagrams before the deadline", sum(got), atServer)
		}
		i := int(binary.BigEndian.Uint32(r.payload))
		if i >= n || !bytes.Equal(r.payload, testPayload(i)) {
			t.Fatalf("echo server: datagram %d (%d bytes) is not what was sent", i, len(r.payload))
		}
		got[i]++
		if lat := r.at.Sub(sent[i]); lat < base-jitter || lat > base+jitter+generousBound {
			t.Errorf("datagram %d arrived after %v, want at least %v (and at most %v)", i, lat, base-jitter, base+jitter+generousBound)
		}
	}
	for i := range n {
		if got[i] != copies[i] {
			t.Errorf("datagram %d: echo server got %d copies, want %d", i, got[i], copies[i])
		}
	}

	// The client gets exactly the predicted number of echoes, each a
	// datagram it sent, no earlier than two minimum latencies.
	buf := make([]byte, 1<<16)
	for k := range atClient {
		m, err := client.Read(buf)
		if err != nil {
			t.Fatalf("client: got %d of %d echoes: %v", k, atClient, err)
		}
		i := int(binary.BigEndian.Uint32(buf))
		if i >= n || !bytes.Equal(buf[:m], testPayload(i)) {
			t.Fatalf("client: echo of datagram %d (%d bytes) is not what was sent", i, m)
		}
		if rtt := time.Since(sent[i]); rtt < 2*(base-jitter) {
			t.Errorf("echo of datagram %d after %v, want at least %v", i, rtt, 2*(base-jitter))
		}
	}

	cancel()
	if code := proxy.wait(t); code != 0 {
		t.Fatalf("exit code %d, stderr %q", code, proxy.stderr)
	}
	checkSummary(t, proxy.stdout.String(), "up  ", n, n-atServer+countDups(copies), atServer)
	checkSummary(t, proxy.stdout.String(), "down", atServer, -1, atClient)
	t.Logf("proxy output:\n%s", proxy.stdout)
}

// checkSummary checks the counter line of one direction: received and
// forwarded datagrams, lost too unless lost < 0, and nothing discarded
// or failed.
func checkSummary(t *testing.T, out, dir string, received, lost, forwarded int) {
	t.Helper()
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(line, dir+":") {
			continue
		}
		var rec, recB, los, over, dup, fwd, fwdB, disc, werr int
		_, err := fmt.Sscanf(line[len(dir)+1:], " received %d (%d B), lost %d, overflow %d, duplicated %d, forwarded %d (%d B), discarded %d, write errors %d",
			&rec, &recB, &los, &over, &dup, &fwd, &fwdB, &disc, &werr)
		if err != nil {
			t.Fatalf("summary %q: %v", line, err)
		}
		if rec != received || (lost >= 0 && los != lost) || fwd != forwarded || disc != 0 || werr != 0 || over != 0 {
			t.Errorf("summary %q: want received %d, lost %d, forwarded %d, nothing overflowed, discarded or failed", line, received, lost, forwarded)
		}
		return
	}
	t.Fatalf("no %q line in the output:\n%s", dir, out)
}

// countDups returns how many datagrams were duplicated.
func countDups(copies []int) int {
	d := 0
	for _, c := range copies {
		if c == 2 {
			d++
		}
	}
	return d
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// TestProxyDurationBound checks that -duration stops an idle proxy with
// exit code 0 and the counters printed. The only timing assertion is
// that it does not stop early.
func TestProxyDurationBound(t *testing.T) {
	start := time.Now()
	proxy := startProxy(t, t.Context(), "-upstream", "127.0.0.1:9", "-duration", "200ms")
	if code := proxy.wait(t); code != 0 {
		t.Fatalf("exit code %d, stderr %q", code, proxy.stderr)
	}
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("stopped after %v, before -duration 200ms", d)
	}
	if out := proxy.stdout.String(); !strings.Contains(out, "clients 0 (0 expired), refused 0, read errors 0\n") {
		t.Errorf("output does not end with the counters:\n%s", out)
	}
}
