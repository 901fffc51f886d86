// Package udp is a transport.Conn over a plain UDP socket (any
// net.PacketConn), for matches that authenticate every packet with
// internal/wire's tag keyed by the per-match session token rather than
// with DTLS.
//
// # Design
//
// A game loop must never block on the network. On Linux, for a
// *net.UDPConn, the game loop's own Receive calls take datagrams off the
// socket: when the queue is empty, Receive makes one non-blocking
// recvmmsg(2) call for up to 16 datagrams, looks up each sender and
// queues them. No goroutine hands datagrams over, so a frame pays no
// wake-up, futex or scheduler hand-off per datagram: on loopback a send
// and its receive cost about half as much as through a reader goroutine
// (BenchmarkSendReceive). The session holds its Conn's sends for the
// length of one Update and writes them with one sendmmsg(2) call for up
// to 16 datagrams (a lone one with sendto(2)): a match of 8 peers makes
// one call a frame where it would make seven. These calls never wait
// (MSG_DONTWAIT) and are made raw, without telling Go's scheduler: a
// scheduled call would wake the runtime's sysmon thread every frame of a
// loop that sleeps between frames, which cost more CPU than the rest of
// the session's frame. Elsewhere, and for any
// other net.PacketConn, New starts one reader goroutine per Conn, which
// reads each datagram into a scratch buffer, looks up the sender, and
// copies the datagram into the queue that Receive drains, and every Send
// is its own write.
//
// The queue is a fixed ring of Config.QueueLen slots whose buffers are
// allocated once: in steady state neither path, Send nor Receive
// allocates (when the socket is a *net.UDPConn, which is detected and
// used through its netip methods; other net.PacketConns work, with an
// allocation per call). When the host falls behind and the ring is full,
// the oldest datagram is dropped: every rollstep packet repeats all
// unacknowledged inputs, so the newest supersedes it. Datagrams longer
// than transport.MaxDatagram are dropped unread.
//
// Close closes the socket, which ends the reader's blocking read, and
// returns once the goroutine, if any, has exited. A Conn is safe for
// concurrent use, though a game loop needs only one goroutine. When the
// socket fails underneath instead (closed behind the Conn's back, or 64
// read errors in a row), the Conn receives nothing more: once the queue
// is drained, Receive returns an error that matches transport.ErrClosed
// and wraps the socket error.
//
// # Peers and addresses
//
// A source address proves nothing about the sender (it can be spoofed
// off-path, and a NAT can reassign it), so this package never decides
// who a peer is: it only maps addresses to Addrs, and the layer above,
// the session's endpoint, authenticates each packet by its tag under the
// session token. The map starts as the static table Config.Peers. With
// Config.AcceptUnknown, the first datagram from a new address creates a
// provisional peer with a fresh Addr; at most Config.MaxUnknown exist
// at once (by default as many as the receive queue holds datagrams), and
// a datagram from a further new address removes the oldest, so a flood
// of sources costs bounded memory and cannot keep a new peer out for
// longer than its datagram can wait in the queue. The endpoint then
// either:
//
//   - rebinds, when the provisional peer's Hello belongs to a known,
//     interrupted peer whose address changed (NAT rebinding), or to a peer
//     whose address was unknown (first contact, below): the known Addr
//     takes over the new address and the provisional one is forgotten; or
//   - forgets it, when its datagram is not adopted (it fails the tag, or
//     is a replay of the match's own packets).
//
// A host does not do either itself: they are not part of this package's
// API, and the endpoint reaches them inside the module. Addresses change
// only through them; the Conn never follows a peer to a new address on
// its own.
//
// # Peers whose address is unknown
//
// A host often cannot know a client's address in advance: behind a NAT
// or a relay (such as rollstep proxy, which opens one port per client)
// the address appears only when the client's first datagram does. List
// such a peer with its ID and the zero Addr, and set AcceptUnknown:
//
//	udp.Config{Peers: []udp.Peer{{ID: 0}}, AcceptUnknown: true}
//
// The peer is unbound: Send drops what is sent to it (with a nil error,
// as if the network lost it) and nothing arrives under its ID. The
// client's first datagram arrives under a provisional Addr; the session's
// endpoint checks that it is a Hello of the match (the token's tag and the
// match's configuration digest) and rebinds to the provisional address the
// peer whose seat the Hello names
// (the sender's lowest player handle), if that peer is still waiting for
// a first Hello. From then on the peer is bound like any other. So a host
// with several peers of unknown address learns each from its own Hello,
// in any order; lockstep and rollback sessions name their seats. A Hello
// that names none (a spectator's) can still be ambiguous when several
// such peers wait: the endpoint refuses to guess, and such peers must be
// listed with the addresses the matchmaker answers (or learnt one at a
// time). A placeholder address would not do: the Conn would send to it,
// and a datagram from it would be taken for the peer.
//
// # The host loop
//
//  1. Open a socket (net.ListenUDP) and pass it to New with the peer
//     table; the Conn owns the socket from then on.
//  2. Each tick, call Receive with one reused buffer of
//     transport.MaxDatagram bytes until it returns ok == false, and hand
//     each datagram and Addr to the endpoint.
//  3. Send the datagrams the session produced; Send does not retain them.
//     A loop that drains too rarely loses the oldest datagrams once
//     Config.QueueLen of them wait.
//  4. At the end of the match, Close the Conn.
//
// # References
//
// RFC 768 (UDP); RFC 8085 §3 (UDP usage guidelines: message size,
// congestion, and why to never trust a source address); RFC 4787 §4.3
// (NAT mapping refresh and rebinding).
package udp
