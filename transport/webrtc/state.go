package webrtc

import (
	"fmt"

	"github.com/rollstep/rollstep/transport"
)

// State is where one peer's connection is; Conn.PeerState reports it.
// The zero value is Connecting: every peer starts there.
type State int

const (
	// Connecting means the set-up (signaling, ICE, DTLS, SCTP) is under
	// way: Send to the peer drops what it is given.
	Connecting State = iota
	// Open means the data channel is open and datagrams flow.
	Open
	// Failed means the set-up failed or timed out, or the connection
	// broke after it opened; PeerState's error, a *ConnectError, says why.
	// A failed peer stays failed.
	Failed
	// Closed means the channel closed: the peer closed its Conn, or this
	// Conn was closed. A closed peer stays closed.
	Closed
)

// String returns the state's name, such as "open".
func (s State) String() string {
	switch s {
	case Connecting:
		return "connecting"
	case Open:
		return "open"
	case Failed:
		return "failed"
	case Closed:
		return "closed"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// The reasons of a *ConnectError.
const (
	reasonTimeout    = "timed out"
	reasonICE        = "ICE failed"
	reasonTURN       = "TURN allocation refused"
	reasonConnection = "connection failed"
	reasonSignaling  = "signaling"
)

// ConnectError says why a peer's connection failed: PeerState returns it
// for a peer in state Failed. Reason is one of
//
//   - "timed out": the channel did not open within Config.ConnectTimeout
//     (the peer never answered, or ICE was still checking); Err matches
//     context.DeadlineExceeded.
//   - "ICE failed": no candidate pair worked, a working path stopped
//     answering, or ICE gathered no local candidate at all (then the
//     peer fails as soon as gathering ends, and Err says so).
//   - "TURN allocation refused": as "ICE failed", after a TURN server of
//     Config.ICEServers refused this peer's credential (error 401 or 441
//     to an authenticated Allocate request): the relay that ICE may have
//     needed was never allocated. Err names the server. Native builds
//     only: a browser does not tell the Conn, which reports "ICE failed"
//     or "timed out" there. A peer that times out after a refusal keeps
//     Reason "timed out", and its Err tells of the refusal too.
//   - "connection failed": DTLS or SCTP failed after ICE, or pion could
//     not create the connection; Err is pion's error, if any.
//   - "signaling": the Signaler failed (Err is its error) or the peer's
//     offer or answer could not be applied.
type ConnectError struct {
	// Peer is the peer whose connection failed.
	Peer transport.Addr
	// Reason is one of the reasons above.
	Reason string
	// Err is the underlying error, or nil.
	Err error
}

// Error returns "webrtc: peer 2: timed out: ..." with the peer, the
// reason and Err's message.
func (e *ConnectError) Error() string {
	s := "webrtc: " + e.Peer.String() + ": " + e.Reason
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns Err.
func (e *ConnectError) Unwrap() error { return e.Err }

// Stats counts a Conn's datagrams and set-up messages since New; see
// Conn.Stats. Byte counts are datagram payload bytes, without the SCTP,
// DTLS, UDP and IP headers (see "Cost" in the package documentation).
type Stats struct {
	// DatagramsIn and BytesIn count datagrams put in the receive queue,
	// including those later dropped because the queue was full.
	DatagramsIn, BytesIn uint64
	// DatagramsOut and BytesOut count datagrams handed to a data channel.
	DatagramsOut, BytesOut uint64
	// DroppedNotOpen counts datagrams Send dropped because the peer's
	// channel was not open: still connecting, failed or closed.
	DroppedNotOpen uint64
	// DroppedBacklog counts datagrams Send dropped because the channel
	// already held more than 1 MiB not yet acknowledged: the path is
	// congested or the peer stopped acknowledging, and what was queued
	// behind that would arrive late, if at all.
	DroppedBacklog uint64
	// DroppedFull counts received datagrams dropped, oldest first,
	// because Receive did not keep up with Config.QueueLen.
	DroppedFull uint64
	// DroppedOversize counts received messages longer than
	// transport.MaxDatagram, dropped unread.
	DroppedOversize uint64
	// BadSignals counts set-up messages ignored: malformed or over 64 KiB,
	// from an address not in Config.Peers, out of turn (an answer to the
	// peer that answers, a second offer), or candidates beyond 64 from
	// one peer.
	BadSignals uint64
}
