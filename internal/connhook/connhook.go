// Package connhook reaches, for the rest of this module, what the Conns of
// transport/udp and transport/dtls do not export. transport/udp sets
// UDPPeers, through which the session's endpoint manages the provisional
// peers of a udp.Conn, UDPBatch, through which it batches the sends of
// one Update, and UDPSends, which counts them for the module's tests;
// transport/dtls sets DTLSStatsOf, which the module's tests read. Each
// package sets its hooks when it is initialised, so a hook is nil in a
// program that does not link its package (and then no Conn of that
// package exists).
package connhook

import "github.com/rollstep/rollstep/transport"

// Peers manages the peer table of a Conn that maps network addresses to
// Addrs and lets the layer above vouch for them: a transport/udp Conn
// with Config.AcceptUnknown, or with peers whose address is not known yet.
type Peers interface {
	// Forget removes peer id, static or provisional. Later datagrams from
	// its address count as from an unknown source; datagrams already
	// queued keep the Addr they arrived under. It returns an error
	// matching transport.ErrUnknownPeer if id is not known.
	Forget(id transport.Addr) error
	// Rebind moves peer id to the address of peer from and forgets from:
	// a datagram that arrived under provisional peer from authenticated as
	// peer id (its NAT mapping changed, or its address was not known). It
	// returns an error matching transport.ErrUnknownPeer if either peer is
	// unknown.
	Rebind(id, from transport.Addr) error
}

// UDPPeers returns the peer table of c when c is a *udp.Conn, and false
// for any other Conn. transport/udp sets it.
var UDPPeers func(c transport.Conn) (Peers, bool)

// DTLSStatsOf returns the counters of c when c is a *dtls.Conn, and false
// for any other Conn. transport/dtls sets it.
var DTLSStatsOf func(c transport.Conn) (DTLSStats, bool)

// Batch holds a Conn's sends so that those of one round go out together
// (transport/udp on Linux: one sendmmsg(2) for up to 16 datagrams). While
// held, Send copies the datagram and returns nil, and what becomes of it
// is reported to the Hold's fail.
type Batch interface {
	// Hold starts holding. fail is called for each held datagram the
	// socket refuses, with its peer, its length and the error, outside
	// the Conn's lock but within the Send or Flush that wrote it, so it
	// should only count.
	Hold(fail func(to transport.Addr, n int, err error))
	// Flush writes the held datagrams and stops holding.
	Flush()
}

// UDPBatch returns the Batch of c if c is a transport/udp Conn that owns
// its socket (one that can batch).
var UDPBatch func(c transport.Conn) (Batch, bool)

// UDPSends returns, when c is a transport/udp Conn, the datagrams it has
// handed to its socket and the system calls that wrote them (a sendmmsg
// writes several), for the module's tests; transport/udp sets it.
var UDPSends func(c transport.Conn) (datagrams, calls uint64, ok bool)
