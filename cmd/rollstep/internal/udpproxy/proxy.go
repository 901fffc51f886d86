package udpproxy

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/rollstep/rollstep/transport/sim"
)

// DefaultListen is the address a Proxy listens on when Config.Listen is
// empty: a port the kernel picks, on the loopback interface.
const DefaultListen = "127.0.0.1:0"

// DefaultMaxClients is the number of client addresses a Proxy serves when
// Config.MaxClients is zero.
const DefaultMaxClients = 64

// readBuffer is the size of every read buffer: the largest UDP payload, so
// that no datagram is truncated.
const readBuffer = 1<<16 - 1

// socketBuffer is the kernel receive buffer the proxy asks for on every
// socket, so that a burst is not dropped before the proxy reads it. The
// kernel may grant less (net.core.rmem_max).
const socketBuffer = 1 << 20

// ErrNoUpstream is returned by New when Config.Upstream is empty.
var ErrNoUpstream = errors.New("udpproxy: no upstream address")

// ErrMaxClients is returned by New when Config.MaxClients is negative.
var ErrMaxClients = errors.New("udpproxy: negative client limit")

// ErrStarted is returned by Run when it is called a second time, or after
// Close.
var ErrStarted = errors.New("udpproxy: proxy already started")

// Config configures a Proxy. Upstream is required; the zero values of the
// other fields give a proxy on DefaultListen with perfect links, seed 0,
// DefaultMaxClients and the real clock.
type Config struct {
	// Listen is the UDP address clients send to, "host:port". Port 0 lets
	// the kernel pick one; Proxy.Addr reports it.
	Listen string
	// Upstream is the UDP address datagrams from clients are forwarded to.
	Upstream string
	// Up shapes datagrams from clients to Upstream, Down those coming back.
	Up, Down sim.LinkConfig
	// Seed determines every random choice, as for NewScheduler.
	Seed uint64
	// MaxClients bounds the client addresses served at once, each with
	// its own upstream socket. A datagram from a further address takes
	// the place of the client idle longest, if one has been idle for
	// ClientIdle (counted in Stats.Expired), and is refused otherwise
	// (Stats.Refused). Zero means DefaultMaxClients.
	MaxClients int
	// Clock returns the time since an origin that latency spikes are
	// counted from; it must be monotonic and advance with real time,
	// since the proxy sleeps real time until the next arrival it reports.
	// Nil means the time since New.
	Clock func() time.Duration
}

// Stats holds the counters of a Proxy.
type Stats struct {
	// Up counts datagrams from clients to the upstream, Down the replies.
	Up, Down DirStats
	// Clients is the number of client addresses served since New,
	// Expired the number of them closed to make room for a new one.
	Clients, Expired int
	// Refused counts datagrams from client addresses beyond MaxClients,
	// or for which no upstream socket could be opened.
	Refused Counter
	// ReadErrors counts failed reads on upstream sockets, such as the
	// "connection refused" of an upstream that is not listening.
	ReadErrors int64
}

// Proxy forwards UDP datagrams between clients and one upstream address
// through a Scheduler. For every client address it opens a socket
// connected to the upstream, so replies map back to their client. It is
// made by New and driven by Run; its methods are safe for concurrent use.
type Proxy struct {
	listen     *net.UDPConn
	upstream   *net.UDPAddr
	clock      func() time.Duration
	maxClients int
	wake       chan struct{}

	// mu guards the fields below. A client's id is never reused: a
	// delivery queued for a client that expired since finds no client and
	// is dropped, never handed to the one that took its place.
	mu          sync.Mutex
	sched       *Scheduler
	byAddr      map[netip.AddrPort]int
	clients     map[int]*client
	nextID      int
	expired     int
	started     bool
	closed      bool
	cancel      context.CancelFunc // stops Run; nil until Run starts
	readers     *errgroup.Group    // the socket readers of Run; nil until Run starts
	refused     Counter
	readErrors  int64
	writeErrors [2]int64
}

// client is one client address and its socket connected to the upstream.
type client struct {
	addr     netip.AddrPort
	conn     *net.UDPConn
	lastSeen time.Duration // the clock when a datagram last went either way
}

// ClientIdle is how long a client must have been silent both ways before
// a new client address may take its place in a full table.
const ClientIdle = 30 * time.Second

// New validates cfg, resolves the upstream address and binds the listen
// socket, so that Addr is known before Run. It returns ErrNoUpstream,
// ErrMaxClients, the *transport.ConfigError of an invalid link, or the error of
// resolving or binding.
func New(cfg Config) (*Proxy, error) {
	switch {
	case cfg.Upstream == "":
		return nil, ErrNoUpstream
	case cfg.MaxClients < 0:
		return nil, ErrMaxClients
	}
	sched, err := NewScheduler(cfg.Up, cfg.Down, cfg.Seed)
	if err != nil {
		return nil, err
	}
	up, err := net.ResolveUDPAddr("udp", cfg.Upstream)
	if err != nil {
		return nil, err
	}
	listen := cfg.Listen
	if listen == "" {
		listen = DefaultListen
	}
	la, err := net.ResolveUDPAddr("udp", listen)
	if err != nil {
		return nil, err
	}
	conn, err := net.ListenUDP("udp", la)
	if err != nil {
		return nil, err
	}
	_ = conn.SetReadBuffer(socketBuffer) // best effort
	p := &Proxy{
		listen:     conn,
		upstream:   up,
		clock:      cfg.Clock,
		maxClients: cfg.MaxClients,
		wake:       make(chan struct{}, 1),
		sched:      sched,
		byAddr:     make(map[netip.AddrPort]int),
		clients:    make(map[int]*client),
	}
	if p.maxClients == 0 {
		p.maxClients = DefaultMaxClients
	}
	if p.clock == nil {
		start := time.Now()
		p.clock = func() time.Duration { return time.Since(start) }
	}
	return p, nil
}

// Addr returns the address the proxy listens on.
func (p *Proxy) Addr() *net.UDPAddr { return p.listen.LocalAddr().(*net.UDPAddr) }

// Run forwards datagrams until ctx is done, then closes every socket,
// discards the datagrams still in flight and returns the final counters.
// It returns a nil error when it stopped because of ctx or Close, the
// error of the listen socket if that failed, and ErrStarted if Run was
// called before or after Close.
func (p *Proxy) Run(ctx context.Context) (Stats, error) {
	p.mu.Lock()
	if p.started || p.closed {
		p.mu.Unlock()
		return p.Stats(), ErrStarted
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// readers reads the listen socket and every client's upstream socket;
	// the listen socket's failure cancels rctx, which stops Run.
	readers, rctx := errgroup.WithContext(ctx)
	p.started, p.cancel, p.readers = true, cancel, readers
	p.mu.Unlock()

	readers.Go(p.readClients)
	var writer errgroup.Group
	writer.Go(func() error {
		p.deliver(rctx)
		return nil
	})
	<-rctx.Done()
	_ = writer.Wait() // nothing is written after this
	p.Close()
	runErr := readers.Wait() // nothing is read after this
	p.mu.Lock()
	p.sched.Discard()
	p.mu.Unlock()
	return p.Stats(), runErr
}

// Close closes every socket and makes a running Run return. Run calls it
// when it stops; call it to stop a Proxy from outside Run's context, or to
// release one whose Run is never called. Later calls do nothing.
func (p *Proxy) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	if p.cancel != nil {
		p.cancel()
	}
	err := p.listen.Close()
	for _, c := range p.clients {
		c.conn.Close()
	}
	return err
}

// Stats returns a snapshot of the counters.
func (p *Proxy) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := Stats{
		Up:         p.sched.Stats(Up),
		Down:       p.sched.Stats(Down),
		Clients:    p.nextID,
		Expired:    p.expired,
		Refused:    p.refused,
		ReadErrors: p.readErrors,
	}
	s.Up.WriteErrors = p.writeErrors[Up]
	s.Down.WriteErrors = p.writeErrors[Down]
	return s
}

// readClients reads the listen socket until it is closed, which returns
// nil, or fails, which returns the error.
func (p *Proxy) readClients() error {
	buf := make([]byte, readBuffer)
	for {
		n, addr, err := p.listen.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		p.fromClient(addr, buf[:n])
	}
}

// fromClient submits b from addr, opening the client's upstream socket on
// its first datagram.
func (p *Proxy) fromClient(addr netip.AddrPort, b []byte) {
	p.mu.Lock()
	defer p.poke()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	now := p.clock()
	i, ok := p.byAddr[addr]
	if !ok {
		if len(p.clients) >= p.maxClients && !p.expireIdle(now) {
			p.refused.add(len(b))
			return
		}
		conn, err := net.DialUDP("udp", nil, p.upstream)
		if err != nil {
			p.refused.add(len(b))
			return
		}
		_ = conn.SetReadBuffer(socketBuffer) // best effort
		i = p.nextID
		p.nextID++
		p.clients[i] = &client{addr: addr, conn: conn}
		p.byAddr[addr] = i
		p.readers.Go(func() error {
			p.readUpstream(i, conn)
			return nil
		})
	}
	p.clients[i].lastSeen = now
	p.sched.Submit(now, Up, i, b)
}

// expireIdle closes the client idle longest, if it has been idle for
// ClientIdle at now, and reports whether it did. p.mu is held.
func (p *Proxy) expireIdle(now time.Duration) bool {
	oldest := -1
	for id, c := range p.clients {
		if oldest < 0 || c.lastSeen < p.clients[oldest].lastSeen ||
			(c.lastSeen == p.clients[oldest].lastSeen && id < oldest) {
			oldest = id
		}
	}
	if oldest < 0 || now-p.clients[oldest].lastSeen < ClientIdle {
		return false
	}
	c := p.clients[oldest]
	delete(p.clients, oldest)
	delete(p.byAddr, c.addr)
	c.conn.Close() // its reader returns
	p.expired++
	return true
}

// readUpstream reads the upstream socket of client i until it is closed.
func (p *Proxy) readUpstream(i int, conn *net.UDPConn) {
	buf := make([]byte, readBuffer)
	for {
		n, err := conn.Read(buf)
		p.mu.Lock()
		c := p.clients[i]
		switch {
		case p.closed || errors.Is(err, net.ErrClosed) || c == nil:
			p.mu.Unlock()
			return
		case err != nil:
			p.readErrors++
		default:
			c.lastSeen = p.clock()
			p.sched.Submit(c.lastSeen, Down, i, buf[:n])
		}
		p.mu.Unlock()
		p.poke()
	}
}

// poke wakes the delivery loop so that it recomputes its next deadline.
func (p *Proxy) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// deliver writes every datagram at its arrival time until ctx is done. It
// sleeps on one timer until the next arrival or a poke.
func (p *Proxy) deliver(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var due []Delivery
	var targets []*client
	for {
		p.mu.Lock()
		now := p.clock()
		for {
			d, ok := p.sched.Pop(now)
			if !ok {
				break
			}
			due = append(due, d)
		}
		next, pending := p.sched.Next()
		targets = targets[:0]
		for i := range due {
			targets = append(targets, p.clients[due[i].Client]) // nil: the client expired
		}
		p.mu.Unlock()

		for i := range due {
			if targets[i] != nil {
				p.write(targets[i], &due[i])
			}
			due[i] = Delivery{}
		}
		due = due[:0]

		timer.Stop()
		if pending {
			wait := next - p.clock()
			if wait <= 0 {
				continue
			}
			timer.Reset(wait)
		}
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		case <-timer.C:
		}
	}
}

// write sends d to the upstream or to its client and counts a failure.
func (p *Proxy) write(c *client, d *Delivery) {
	var err error
	if d.Dir == Up {
		_, err = c.conn.Write(d.Payload)
	} else {
		_, err = p.listen.WriteToUDPAddrPort(d.Payload, c.addr)
	}
	if err != nil {
		p.mu.Lock()
		p.writeErrors[d.Dir]++
		p.mu.Unlock()
	}
}
