package sim

import (
	"fmt"

	"github.com/rollstep/rollstep/transport"
)

// Endpoint is one node of a Network. It implements transport.Conn: Send
// copies the datagram into the network, which decides its fate at once;
// Receive returns datagrams that have arrived, oldest first. An Endpoint is
// made by Network.NewEndpoint; the zero value is not usable.
type Endpoint struct {
	net    *Network
	id     transport.Addr
	closed bool
	in     inbox
}

var _ transport.Conn = (*Endpoint)(nil)

// ID returns the identifier other endpoints use to send to e, and that
// Receive reports for datagrams from e.
func (e *Endpoint) ID() transport.Addr { return e.id }

// Send copies p and sends it to the endpoint to, as transport.Conn
// specifies. It never retains p. Sending to a closed endpoint or over a cut
// link succeeds and the datagram is dropped; sending to an ID that no
// endpoint has returns an error matching transport.ErrUnknownPeer. An
// endpoint may send to itself.
func (e *Endpoint) Send(to transport.Addr, p []byte) error {
	switch {
	case e.closed:
		return transport.ErrClosed
	case len(p) > transport.MaxDatagram:
		return fmt.Errorf("%w: %d bytes, over the %d-byte limit", transport.ErrDatagramTooLarge, len(p), transport.MaxDatagram)
	case uint64(to) >= uint64(len(e.net.endpoints)):
		return fmt.Errorf("%w %d", transport.ErrUnknownPeer, to)
	}
	e.net.send(e.id, to, p)
	return nil
}

// Receive copies the oldest arrived datagram into buf, as transport.Conn
// specifies. It does not advance virtual time.
func (e *Endpoint) Receive(buf []byte) (n int, from transport.Addr, ok bool, err error) {
	if e.closed {
		return 0, 0, false, transport.ErrClosed
	}
	if e.in.n == 0 {
		return 0, 0, false, nil
	}
	if a := e.in.front(); len(a.buf) > len(buf) {
		return 0, 0, false, fmt.Errorf("%w: %d bytes for a datagram of %d bytes", transport.ErrShortBuffer, len(buf), len(a.buf))
	}
	a := e.in.pop()
	n = copy(buf, a.buf)
	e.net.pool.put(a.buf)
	return n, a.from, true, nil
}

// Close closes e: its pending datagrams are discarded, and datagrams that
// arrive for it later are dropped and counted as dropped on their link.
// Close returns ErrClosed if e was already closed.
func (e *Endpoint) Close() error {
	if e.closed {
		return transport.ErrClosed
	}
	e.closed = true
	for e.in.n > 0 {
		e.net.pool.put(e.in.pop().buf)
	}
	return nil
}
