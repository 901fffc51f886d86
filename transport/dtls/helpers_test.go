package dtls

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/pion/dtls/v3/pkg/crypto/selfsign"

	"github.com/rollstep/rollstep/internal/connhook"
	"github.com/rollstep/rollstep/transport"
)

// settleWait bounds one settle call when datagrams are missing, as when a
// peer has closed.
const settleWait = 20 * time.Millisecond

// waitLimit is how long a test waits for something that should happen at
// once on loopback; it is generous for a loaded 2-core machine.
const waitLimit = 10 * time.Second

var (
	matchKey   = []byte("a per-match key from the matchmaker")
	loopback   = &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}
	certsOnce  sync.Once
	certServer tls.Certificate
	certClient tls.Certificate
	certOther  tls.Certificate
)

// certs returns three self-signed ECDSA certificates, made once.
func certs(t testing.TB) (server, client, other tls.Certificate) {
	t.Helper()
	certsOnce.Do(func() {
		for _, c := range []*tls.Certificate{&certServer, &certClient, &certOther} {
			var err error
			if *c, err = selfsign.GenerateSelfSigned(); err != nil {
				panic(err)
			}
		}
	})
	return certServer, certClient, certOther
}

// pskFor returns a PSK callback that knows one identity and its key.
func pskFor(identity string, key []byte) func([]byte) ([]byte, error) {
	return func(id []byte) ([]byte, error) {
		if id != nil && !bytes.Equal(id, []byte(identity)) {
			return nil, errors.New("unknown identity " + string(id))
		}
		return key, nil
	}
}

func pskServer() Config { return Config{PSK: pskFor("player-1", matchKey), FirstPeer: 20} }

func pskClient() Config {
	return Config{PSK: pskFor("player-1", matchKey), PSKIdentity: []byte("player-1"), FirstPeer: 10}
}

func certPair(t testing.TB) (server, client Config) {
	s, c, _ := certs(t)
	server = Config{Certificate: &s, PeerFingerprints: []Fingerprint{FingerprintOf(c)}, FirstPeer: 20}
	client = Config{Certificate: &c, PeerFingerprints: []Fingerprint{FingerprintOf(s)}, FirstPeer: 10}
	return server, client
}

// listen starts a listening Conn on loopback, closed at the end of the test.
func listen(t testing.TB, cfg Config) *Conn {
	t.Helper()
	pc, err := net.ListenUDP("udp4", loopback)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Listen(pc, cfg)
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// dial dials the listening Conn srv over pc, or over a fresh loopback
// socket when pc is nil.
func dial(t testing.TB, srv *Conn, pc net.PacketConn, cfg Config) (*Conn, error) {
	t.Helper()
	if pc == nil {
		var err error
		if pc, err = net.ListenUDP("udp4", loopback); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Dial(context.Background(), pc, srv.local, cfg)
	if err == nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, err
}

// dialReady dials srv and waits until srv has registered the client too:
// datagrams sent before the server finishes its side of the handshake may
// be dropped by pion, as any datagram may be.
func dialReady(t testing.TB, srv *Conn, pc net.PacketConn, cfg Config) *Conn {
	t.Helper()
	peers := srv.snapshot().Handshakes
	c, err := dial(t, srv, pc, cfg)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	waitFor(t, srv, "the server registering the client", func(s connhook.DTLSStats) bool { return s.Handshakes > peers })
	return c
}

// waitFor waits, on c's notifications, until cond holds, failing the test
// after waitLimit.
func waitFor(t testing.TB, c *Conn, what string, cond func(connhook.DTLSStats) bool) {
	t.Helper()
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond) // for changes that do not notify
	defer tick.Stop()
	for !cond(c.snapshot()) {
		select {
		case <-c.arrived:
		case <-tick.C:
		case <-deadline.C:
			t.Fatalf("after %v: %s has not happened; stats %+v", waitLimit, what, c.snapshot())
		}
	}
}

// settle waits until each Conn has received every datagram the other
// sent, or settleWait passes.
func settle(a, b *Conn) {
	timer := time.NewTimer(settleWait)
	defer timer.Stop()
	for {
		sa, sb := a.snapshot(), b.snapshot()
		if sa.DatagramsIn+sa.DroppedOversize >= sb.DatagramsOut && sb.DatagramsIn+sb.DroppedOversize >= sa.DatagramsOut {
			return
		}
		select {
		case <-a.arrived:
		case <-b.arrived:
		case <-timer.C:
			return
		}
	}
}

// recv returns the next datagram of c, failing the test after waitLimit.
func recv(t testing.TB, c *Conn, buf []byte) ([]byte, transport.Addr) {
	t.Helper()
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for {
		n, from, ok, err := c.Receive(buf)
		if err != nil {
			t.Fatalf("Receive: %v", err)
		}
		if ok {
			return buf[:n], from
		}
		select {
		case <-c.arrived:
		case <-deadline.C:
			t.Fatalf("Receive: nothing after %v", waitLimit)
		}
	}
}
