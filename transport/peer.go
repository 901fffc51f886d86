package transport

// PeerState is where a remote peer is in the life cycle of its
// connection. The zero value is not the state of any peer.
type PeerState uint8

// The peer states. A peer starts in StateHandshaking; StateRefused,
// StateDisconnected and StateLeft are final.
const (
	// StateHandshaking: Hellos are being exchanged.
	StateHandshaking PeerState = iota + 1
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
