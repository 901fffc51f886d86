package transport

import "strconv"

// MaxDatagram is the largest datagram, in bytes, that a Conn sends or
// delivers: the payload the caller sees, before any encryption. It is the
// size QUIC assumes every path carries (RFC 9000 §14), so plaintext
// datagrams are never fragmented. A DTLS driver adds its record overhead
// (29 to 37 bytes) on top.
const MaxDatagram = 1200

// HeaderOverhead is the number of bytes an IPv4 and a UDP header add to every
// datagram on the wire (20 + 8). Byte counters that claim to measure
// bandwidth, such as those of transport/sim, add it once per datagram.
const HeaderOverhead = 28

// Addr is the address of a peer on a Conn: an opaque handle that the Conn
// assigns, for example per authenticated channel or per session token, not
// a network address (a datagram's source address alone does not say who
// sent it). A session's peers are numbered separately, by their index in
// its Config.Peers (core.PeerID). Every value, including the zero value,
// may name a peer; a Conn returns an error matching ErrUnknownPeer for
// identifiers it does not know.
type Addr uint32

// String returns the identifier in the form "peer 3".
func (id Addr) String() string {
	return "peer " + strconv.FormatUint(uint64(id), 10)
}

// Conn is a datagram connection to a set of peers, driven from a game loop.
// Datagrams are unreliable: they may be lost, duplicated or reordered, but
// each one arrives whole or not at all, and no delivered datagram is longer
// than MaxDatagram bytes. Methods never block.
//
// A Conn need not be safe for concurrent use; the game loop that owns it
// calls it from one goroutine. Implementations that are safe say so.
type Conn interface {
	// Send queues p as one datagram to the peer to and returns without
	// waiting for it to leave. Send must not modify p and must not retain
	// it: the caller may reuse p as soon as Send returns. An empty or nil p
	// sends an empty datagram.
	//
	// Send returns an error matching ErrDatagramTooLarge when len(p) >
	// MaxDatagram, one matching ErrUnknownPeer when the Conn does not know
	// to, and ErrClosed after Close. In each case nothing is sent. A nil
	// error does not mean that the datagram will arrive.
	Send(to Addr, p []byte) error

	// Receive copies the oldest datagram that has arrived into buf and
	// returns its length n and its sender. When nothing has arrived it
	// returns ok == false and a nil error at once. Receive writes only
	// buf[:n] and does not retain buf. A buf of MaxDatagram bytes is
	// always large enough.
	//
	// When buf is shorter than the datagram, Receive returns an error
	// matching ErrShortBuffer, leaves the datagram queued so that a call
	// with a larger buffer returns it, and does not write buf. After Close
	// it returns ErrClosed. Whenever err != nil, ok is false.
	Receive(buf []byte) (n int, from Addr, ok bool, err error)

	// Close releases the Conn. Datagrams that arrived but were not
	// received are discarded; datagrams that peers send afterwards are
	// dropped. The first call returns nil (or an error from releasing
	// resources); later calls return ErrClosed.
	Close() error
}
