package dtls

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// memAddr is the address of a memPC.
type memAddr string

func (a memAddr) Network() string { return "mem" }
func (a memAddr) String() string  { return string(a) }

// memNet is a lossless in-memory datagram network for tests in a
// testing/synctest bubble, where every wait is on channels and timers
// so the bubble's fake clock runs the handshake timers.
type memNet struct {
	mu    sync.Mutex
	nodes map[memAddr]*memPC
}

func (n *memNet) listen(name string) *memPC {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.nodes == nil {
		n.nodes = map[memAddr]*memPC{}
	}
	pc := &memPC{net: n, addr: memAddr(name), inbox: make(chan memDatagram, 256), closed: make(chan struct{})}
	n.nodes[pc.addr] = pc
	return pc
}

type memDatagram struct {
	p    []byte
	from net.Addr
}

// memPC is a net.PacketConn on a memNet. Datagrams to an address with no
// node, or to a full inbox, are lost.
type memPC struct {
	net    *memNet
	addr   memAddr
	inbox  chan memDatagram
	closed chan struct{}
	once   sync.Once
	rd     deadline
	// writes counts WriteTo calls; after maxWrites of them (if > 0),
	// further datagrams are lost, as from a client that falls silent.
	writes, maxWrites int
}

func (c *memPC) ReadFrom(b []byte) (int, net.Addr, error) {
	select {
	case d := <-c.inbox:
		return copy(b, d.p), d.from, nil
	case <-c.closed:
		return 0, nil, net.ErrClosed
	case <-c.rd.wait():
		return 0, nil, errTimeout
	}
}

func (c *memPC) WriteTo(p []byte, to net.Addr) (int, error) {
	c.net.mu.Lock()
	dst := c.net.nodes[memAddr(to.String())]
	c.writes++
	silent := c.maxWrites > 0 && c.writes > c.maxWrites
	c.net.mu.Unlock()
	if dst != nil && !silent {
		select {
		case dst.inbox <- memDatagram{append([]byte(nil), p...), c.addr}:
		default:
		}
	}
	return len(p), nil
}

func (c *memPC) Close() error {
	c.once.Do(func() {
		close(c.closed)
		c.net.mu.Lock()
		delete(c.net.nodes, c.addr)
		c.net.mu.Unlock()
	})
	return nil
}

func (c *memPC) LocalAddr() net.Addr                { return c.addr }
func (c *memPC) SetDeadline(t time.Time) error      { c.rd.set(t); return nil }
func (c *memPC) SetReadDeadline(t time.Time) error  { c.rd.set(t); return nil }
func (c *memPC) SetWriteDeadline(_ time.Time) error { return nil }

// errTimeout is a net.Error timeout, like the one a socket returns.
var errTimeout error = timeoutError{}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// TestDeadlinesOnVirtualTime runs handshakes over an in-memory network in
// a synctest bubble: the default deadlines fire at exactly their virtual
// time, however loaded the machine is.
func TestDeadlinesOnVirtualTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var n memNet
		srv, err := Listen(n.listen("server"), pskServer())
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()

		// A client of a silent address fails at its deadline, to the tick.
		start := time.Now()
		_, err = Dial(context.Background(), n.listen("client-0"), memAddr("nobody"), pskClient())
		if got := time.Since(start); !errors.Is(err, ErrHandshakeTimeout) || got != defaultHandshakeTimeout {
			t.Fatalf("Dial to a silent address: got (%v after %v), want ErrHandshakeTimeout after %v", err, got, defaultHandshakeTimeout)
		}

		// A client with another match's key fails at its deadline too: the
		// server drops records it cannot authenticate and sends no alert.
		wrong := pskClient()
		wrong.PSK = pskFor("player-1", []byte("another match's key"))
		start = time.Now()
		_, err = Dial(context.Background(), n.listen("client-wrong"), memAddr("server"), wrong)
		if got := time.Since(start); !errors.Is(err, ErrHandshakeTimeout) || got != defaultHandshakeTimeout {
			t.Fatalf("Dial with a wrong key: got (%v after %v), want ErrHandshakeTimeout after %v", err, got, defaultHandshakeTimeout)
		}
		synctest.Wait()
		if s := srv.snapshot(); s.HandshakeFailures != 1 || s.Peers != 0 {
			t.Fatalf("server after a wrong key: got %d failures and %d peers, want 1 and 0", s.HandshakeFailures, s.Peers)
		}

		// A half-open client holds a server slot until the server's deadline.
		half := n.listen("half-open")
		half.maxWrites = 1 // a ClientHello, then silence
		ctx, cancel := context.WithCancel(context.Background())
		go Dial(ctx, half, memAddr("server"), pskClient())
		synctest.Wait()
		cancel()
		if s := srv.snapshot(); s.HandshakesInFlight != 1 {
			t.Fatalf("half-open handshakes: got %d in flight, want 1", s.HandshakesInFlight)
		}

		// Meanwhile a real client connects at once.
		start = time.Now()
		cli, err := Dial(context.Background(), n.listen("client-1"), memAddr("server"), pskClient())
		if err != nil {
			t.Fatalf("real client: %v", err)
		}
		defer cli.Close()
		if got := time.Since(start); got != 0 {
			t.Fatalf("real client's handshake: took %v of virtual time, want 0", got)
		}
		synctest.Wait() // the server finishes its side of the handshake
		if err := cli.Send(10, []byte("over the bubble")); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		buf := make([]byte, transport.MaxDatagram)
		if n, _, ok, err := srv.Receive(buf); !ok || err != nil || string(buf[:n]) != "over the bubble" {
			t.Fatalf("server Receive: got (%q, %v, %v)", buf[:n], ok, err)
		}

		<-time.After(defaultHandshakeTimeout) // virtual time: the half-open deadline passes
		synctest.Wait()
		if s := srv.snapshot(); s.HandshakesInFlight != 0 || s.HandshakeFailures != 2 || s.Peers != 1 {
			t.Fatalf("after the deadline: got %d in flight, %d failed, %d peers; want 0, 2, 1", s.HandshakesInFlight, s.HandshakeFailures, s.Peers)
		}
	})
}
