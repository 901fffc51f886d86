package udpproxy

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// echoServer starts a UDP server on 127.0.0.1 that sends every datagram
// back to its sender, until the end of the test, and returns its address.
func echoServer(t *testing.T) string {
	t.Helper()
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 1<<16)
		for {
			n, from, err := conn.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			conn.WriteToUDPAddrPort(buf[:n], from)
		}
	}()
	t.Cleanup(func() { conn.Close(); <-done })
	return conn.LocalAddr().String()
}

// running is a Proxy whose Run is in a goroutine.
type running struct {
	p      *Proxy
	cancel context.CancelFunc
	done   chan struct{}
	stats  Stats
	err    error
}

// startProxy makes a Proxy from cfg and runs it until stop is called or
// the test ends.
func startProxy(t *testing.T, cfg Config) *running {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	r := &running{p: p, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.stats, r.err = p.Run(ctx)
	}()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// livenessLimit bounds every wait of these tests on the real clock. It is
// a watchdog, not a measurement: a loaded machine may take many times the
// usual milliseconds, and only a proxy that is stuck (or waits for a
// datagram due in a minute) takes this long.
const livenessLimit = 30 * time.Second

// stop cancels Run and waits for it, failing the test if it does not
// return within livenessLimit.
func (r *running) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	select {
	case <-r.done:
	case <-time.After(livenessLimit):
		t.Fatalf("Run did not return within %v of cancel", livenessLimit)
	}
}

// dialProxy returns a client socket connected to r with a 5 s deadline.
func dialProxy(t *testing.T, r *running) *net.UDPConn {
	t.Helper()
	c, err := net.DialUDP("udp", nil, r.p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(5 * time.Second))
	t.Cleanup(func() { c.Close() })
	return c
}

// roundTrip sends msg on c and fails the test unless the same bytes come
// back.
func roundTrip(t *testing.T, c *net.UDPConn, msg string) {
	t.Helper()
	if _, err := c.Write([]byte(msg)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, err := c.Read(buf)
	if err != nil {
		t.Fatalf("waiting for the echo of %q: %v", msg, err)
	}
	if got := string(buf[:n]); got != msg {
		t.Fatalf("echo: got %q, want %q", got, msg)
	}
}

// TestProxyClients checks the client mapping over real sockets: each
// client gets its own replies, and a client beyond MaxClients is refused.
func TestProxyClients(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 2 * time.Millisecond}}
	r := startProxy(t, Config{Upstream: echoServer(t), Up: link, Down: link, MaxClients: 2})
	a, b, c := dialProxy(t, r), dialProxy(t, r), dialProxy(t, r)
	roundTrip(t, a, "a0")
	roundTrip(t, b, "b0")
	if _, err := c.Write([]byte("c0")); err != nil {
		t.Fatal(err)
	}
	// The proxy reads its socket in order, so once a1 has made the round
	// trip, c0 has been read and refused.
	roundTrip(t, a, "a1")
	roundTrip(t, b, "b1")
	r.stop(t)
	if r.err != nil {
		t.Fatalf("Run: %v", r.err)
	}
	st := r.stats
	if st.Clients != 2 || st.Refused != (Counter{1, 2}) {
		t.Errorf("got %d clients and %+v refused, want 2 and 1 datagram of 2 bytes", st.Clients, st.Refused)
	}
	want := DirStats{Received: Counter{4, 8}, Forwarded: Counter{4, 8}}
	if st.Up != want || st.Down != want {
		t.Errorf("got up %+v, down %+v; want both %+v", st.Up, st.Down, want)
	}
}

// TestProxyStopDiscards checks that stopping Run counts the datagrams in
// flight as discarded and returns without waiting for them, although they
// were due in a minute: stop fails the test after livenessLimit, half of
// that minute.
func TestProxyStopDiscards(t *testing.T) {
	slow := sim.LinkConfig{Latency: sim.Latency{Base: time.Minute}}
	r := startProxy(t, Config{Upstream: echoServer(t), Up: slow})
	c := dialProxy(t, r)
	for _, m := range []string{"x", "yy", "zzz"} {
		if _, err := c.Write([]byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	// Nothing comes back for a minute, so poll the counters until the
	// proxy has read all three.
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(livenessLimit)
	for r.p.Stats().Up.Received.Packets < 3 {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("the proxy did not read 3 datagrams within %v", livenessLimit)
		}
	}
	r.stop(t)
	want := DirStats{Received: Counter{3, 6}, Discarded: Counter{3, 6}}
	if r.err != nil || r.stats.Up != want {
		t.Fatalf("got %+v, %v; want %+v, nil", r.stats.Up, r.err, want)
	}
}

func TestCloseStopsRun(t *testing.T) {
	r := startProxy(t, Config{Upstream: echoServer(t)})
	roundTrip(t, dialProxy(t, r), "hello")
	if err := r.p.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-r.done:
	case <-time.After(livenessLimit):
		t.Fatalf("Run did not return within %v of Close", livenessLimit)
	}
	if r.err != nil || r.stats.Clients != 1 {
		t.Fatalf("got %v and %d clients, want nil and 1", r.err, r.stats.Clients)
	}
}

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want error
	}{
		{"NoUpstream", Config{}, ErrNoUpstream},
		{"MaxClients", Config{Upstream: "127.0.0.1:9", MaxClients: -1}, ErrMaxClients},
		{"Link", Config{Upstream: "127.0.0.1:9", Down: sim.LinkConfig{Loss: 3}}, transport.ErrInvalidConfig},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if p, err := New(tc.cfg); p != nil || !errors.Is(err, tc.want) {
				t.Fatalf("got %v, %v; want nil, %v", p, err, tc.want)
			}
		})
	}
}

func TestRunOnce(t *testing.T) {
	p, err := New(Config{Upstream: "127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(t.Context()); !errors.Is(err, ErrStarted) {
		t.Fatalf("Run after Close: got %v, want ErrStarted", err)
	}
	if got := p.Addr(); !got.IP.Equal(net.IPv4(127, 0, 0, 1)) || got.Port == 0 {
		t.Fatalf("Addr: got %v, want 127.0.0.1 and a port", got)
	}
}

// TestProxyIdleClientsExpire: a full table of clients no longer refuses
// new addresses for good: once a client has been silent for ClientIdle,
// a new address takes its place, and a delivery still queued for the old
// client is dropped rather than handed to the new one. Before, the table
// only grew, so MaxClients sources (spoofed ones too) locked every later
// client out.
func TestProxyIdleClientsExpire(t *testing.T) {
	var clock atomic.Int64 // the proxy's time, set by the test
	r := startProxy(t, Config{Upstream: echoServer(t), MaxClients: 1,
		Clock: func() time.Duration { return time.Duration(clock.Load()) }})
	a, b := dialProxy(t, r), dialProxy(t, r)
	roundTrip(t, a, "a0")
	clock.Store(int64(ClientIdle - time.Second))
	if _, err := b.Write([]byte("b0")); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, a, "a1") // b0 was read, and refused: a was not idle yet
	clock.Store(int64(2*ClientIdle + time.Second))
	roundTrip(t, b, "b1") // a has been idle for ClientIdle: b takes its place
	r.stop(t)
	require.NoError(t, r.err)
	st := r.stats
	assert.Equal(t, 2, st.Clients, "clients served")
	assert.Equal(t, 1, st.Expired, "clients expired")
	assert.Equal(t, Counter{1, 2}, st.Refused, "refused")
}
