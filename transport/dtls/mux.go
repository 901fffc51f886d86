package dtls

import (
	"bytes"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// muxInbox is how many datagrams wait for pion to read them, per source.
const muxInbox = 64

// muxReadBuf is the mux's receive buffer: larger than any datagram a
// well-behaved peer sends, so that oversized ones arrive whole.
const muxReadBuf = 8192

// mux splits one net.PacketConn into one net.PacketConn per remote
// address, for pion's listener (it implements pion's net.PacketListener).
// A datagram from a new address creates a subconn only if it starts with
// a DTLS handshake record header and fewer than limit subconns exist;
// otherwise it is dropped. Invariants: conns holds exactly the subconns
// that are not closed; len(conns) <= limit.
type mux struct {
	pc      net.PacketConn
	accepts chan *subconn
	done    chan struct{} // closed by close
	exited  chan struct{} // closed when loop returns
	limit   int

	refused   atomic.Uint64 // new sources dropped for want of room
	full      atomic.Uint64 // datagrams dropped because an inbox was full
	plaintext atomic.Uint64 // datagrams dropped whole by keepAuthenticated

	mu     sync.Mutex
	closed bool
	conns  map[string]*subconn
}

func newMux(pc net.PacketConn, backlog, limit int) *mux {
	m := &mux{
		pc:      pc,
		accepts: make(chan *subconn, backlog),
		done:    make(chan struct{}),
		exited:  make(chan struct{}),
		limit:   limit,
		conns:   make(map[string]*subconn),
	}
	go m.loop()
	return m
}

// loop reads the socket until it is closed and routes each datagram.
func (m *mux) loop() {
	defer close(m.exited)
	buf := make([]byte, muxReadBuf)
	for {
		n, addr, err := m.pc.ReadFrom(buf)
		if err != nil {
			select {
			case <-m.done:
				return
			default:
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			return
		}
		m.route(buf[:n], addr)
	}
}

func (m *mux) route(p []byte, addr net.Addr) {
	key := addr.String()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	s := m.conns[key]
	if s == nil {
		// 22 is the handshake content type; a record header is 13 bytes.
		if len(p) < 13 || p[0] != 22 {
			return
		}
		if len(m.conns) >= m.limit {
			m.refused.Add(1)
			return
		}
		s = &subconn{m: m, key: key, raddr: addr, inbox: make(chan []byte, muxInbox), closed: make(chan struct{})}
		select {
		case m.accepts <- s:
			m.conns[key] = s
		default:
			m.refused.Add(1)
			return
		}
	}
	if !s.verified.Load() {
		if c := s.cookie.Load(); c != nil && echoes(p, *c) {
			s.verified.Store(true)
		}
	}
	if s.established.Load() {
		n := keepAuthenticated(p)
		if n == 0 {
			m.plaintext.Add(1)
			return
		}
		p = p[:n]
	}
	select {
	case s.inbox <- append([]byte(nil), p...):
	default:
		m.full.Add(1)
	}
}

// establish marks the subconn of addr as carrying a finished handshake:
// from now on route drops the plaintext records keepAuthenticated removes
// before pion sees them.
func (m *mux) establish(addr net.Addr) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s := m.conns[addr.String()]; s != nil {
		s.established.Store(true)
	}
}

// verified reports whether the source at addr has echoed the cookie of
// a HelloVerifyRequest: whether it receives at its address.
func (m *mux) verified(addr net.Addr) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.conns[addr.String()]
	return s != nil && s.verified.Load()
}

// Accept returns the next subconn for a new source.
func (m *mux) Accept() (net.PacketConn, net.Addr, error) {
	select {
	case s := <-m.accepts:
		return s, s.raddr, nil
	case <-m.done:
		return nil, nil, net.ErrClosed
	}
}

// Close stops accepting, closes the socket and waits for the read loop.
// Subconns see net.ErrClosed on their next read.
func (m *mux) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return net.ErrClosed
	}
	m.closed = true
	close(m.done)
	m.mu.Unlock()
	err := m.pc.Close()
	<-m.exited
	return err
}

// Addr returns the socket's address.
func (m *mux) Addr() net.Addr { return m.pc.LocalAddr() }

// subconn is the net.PacketConn of one remote address. pion's Conn reads
// it and interrupts blocked reads by setting a read deadline.
type subconn struct {
	m      *mux
	key    string
	raddr  net.Addr
	inbox  chan []byte
	closed chan struct{}
	once   sync.Once
	rd     deadline
	// established is set once the handshake over this subconn finished.
	established atomic.Bool
	// cookie is the one of the HelloVerifyRequest pion last sent to
	// raddr; verified is set once a ClientHello from raddr echoed it,
	// proving that raddr receives what is sent to it.
	cookie   atomic.Pointer[[]byte]
	verified atomic.Bool
}

func (s *subconn) ReadFrom(b []byte) (int, net.Addr, error) {
	select {
	case p := <-s.inbox:
		return copy(b, p), s.raddr, nil
	case <-s.closed:
		return 0, nil, net.ErrClosed
	case <-s.m.done:
		return 0, nil, net.ErrClosed
	case <-s.rd.wait():
		return 0, nil, os.ErrDeadlineExceeded
	}
}

func (s *subconn) WriteTo(p []byte, addr net.Addr) (int, error) {
	select {
	case <-s.closed:
		return 0, net.ErrClosed
	default:
	}
	if c := helloVerifyCookie(p); c != nil {
		c = bytes.Clone(c)
		s.cookie.Store(&c)
	}
	return s.m.pc.WriteTo(p, addr)
}

// Close removes the subconn from the mux; a later datagram from its
// address may create a new one.
func (s *subconn) Close() error {
	s.once.Do(func() {
		close(s.closed)
		s.m.mu.Lock()
		if s.m.conns[s.key] == s {
			delete(s.m.conns, s.key)
		}
		s.m.mu.Unlock()
	})
	return nil
}

func (s *subconn) LocalAddr() net.Addr                { return s.m.pc.LocalAddr() }
func (s *subconn) SetDeadline(t time.Time) error      { s.rd.set(t); return nil }
func (s *subconn) SetReadDeadline(t time.Time) error  { s.rd.set(t); return nil }
func (s *subconn) SetWriteDeadline(_ time.Time) error { return nil } // UDP writes do not block

// deadline is a settable read deadline whose channel closes when it
// passes. Invariant: done is closed iff the deadline set by the latest
// call to set (generation gen) has passed.
type deadline struct {
	mu    sync.Mutex
	gen   uint64
	timer *time.Timer
	done  chan struct{}
}

func (d *deadline) set(t time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.gen++
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	if d.done == nil || isClosed(d.done) {
		d.done = make(chan struct{})
	}
	if t.IsZero() {
		return
	}
	wait := time.Until(t)
	if wait <= 0 {
		close(d.done)
		return
	}
	gen, done := d.gen, d.done
	d.timer = time.AfterFunc(wait, func() {
		d.mu.Lock()
		if d.gen == gen {
			close(done)
		}
		d.mu.Unlock()
	})
}

func (d *deadline) wait() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done == nil {
		d.done = make(chan struct{})
	}
	return d.done
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
