package transport

import "time"

// PeerState is where a remote peer is in the life cycle of its
// connection. The zero value, StateUnknown, is not the state of any peer.
type PeerState uint8

// The peer states. A peer starts in StateHandshaking; StateRefused,
// StateDisconnected and StateLeft are final.
const (
	// StateUnknown is the zero PeerState; no peer is in it.
	StateUnknown PeerState = iota
	// StateHandshaking: Hellos are being exchanged.
	StateHandshaking
	// StateConnected: both directions of the handshake are validated.
	StateConnected
	// StateInterrupted: connected, but silent for Config.InterruptTimeout.
	StateInterrupted
	// StateRefused: the handshake was refused (final).
	StateRefused
	// StateDisconnected: silent for Config.DisconnectTimeout, or the
	// handshake timed out (final).
	StateDisconnected
	// StateLeft: the peer sent a Leave (final).
	StateLeft
)

var stateNames = [...]string{"unknown", "handshaking", "connected", "interrupted", "refused", "disconnected", "left"}

// String returns the state's name, such as "connected".
func (s PeerState) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return stateNames[0]
}

// PeerStats is what a connection knows of one remote peer.
type PeerStats struct {
	Addr  Addr      // the peer's address on the Conn
	State PeerState // where it is in its life cycle
	// LastHeard is when its newest valid packet arrived, if Heard.
	LastHeard time.Duration
	Heard     bool
	// RTT and Jitter are the smoothed round trip and its deviation.
	RTT, Jitter time.Duration
	// SendErrors counts the transient send failures (an unreachable
	// network, a refused port), which the protocol retries; Dropped counts
	// the datagrams from the peer's address that were not valid packets
	// of the match (another token, malformed, replayed, early or stale).
	SendErrors, Dropped uint64
}
