package webrtc

import (
	"context"
	"net"
	"strconv"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// Signaler carries the set-up messages of the connections (SDP offers and
// answers, ICE candidates) between this peer and the others: package
// lobby's Match is one. The Conn treats every payload as hostile input;
// the Signaler vouches only for the sender's address, which it must
// authenticate (a lobby member cannot send under another's seat).
type Signaler interface {
	// Send delivers payload to peer to, reliably and in order with the
	// other payloads to to. It must be safe for concurrent use (ICE
	// gathers candidates on its own goroutines) and must not retain
	// payload after it returns. It should not block for long: Close
	// waits for a Send under way. An error loses the message; for an
	// offer or answer, it fails that peer with Reason "signaling".
	Send(to transport.Addr, payload []byte) error
	// Receive returns the next payload sent to this peer and its sender,
	// waiting until one arrives or ctx ends (then it returns ctx's
	// error). The Conn calls it from one goroutine and owns the payload it
	// returns. Any other error ends the set-up: peers still connecting
	// fail with Reason "signaling"; open channels stay open.
	Receive(ctx context.Context) (from transport.Addr, payload []byte, err error)
}

// ICEServer is a STUN or TURN server that ICE uses to find a path through
// NATs.
type ICEServer struct {
	// URLs are the server's addresses, such as
	// "stun:stun.example.com:3478" or
	// "turn:turn.example.com:3478?transport=udp"; at least one.
	URLs []string
	// Username and Credential authenticate this peer to a TURN server
	// (a long-term credential, RFC 8489 §9.2); STUN servers need none.
	Username, Credential string
}

// Config configures a Conn. Self, Peers and Signaler are required, so the
// zero value is invalid; the other fields have defaults.
type Config struct {
	// Self is this peer's address and Peers the others', as the Signaler
	// knows them (a lobby.Match's seats). Peers must be non-empty, without
	// duplicates, and must not hold Self. Of each pair, the lower address
	// makes the offer. The Conn copies the slice.
	Self  transport.Addr
	Peers []transport.Addr
	// Signaler relays the set-up messages.
	Signaler Signaler
	// ICEServers are the STUN and TURN servers; none means host
	// candidates only (a LAN, or one machine).
	ICEServers []ICEServer
	// ConnectTimeout bounds the set-up of each peer's connection: a peer
	// whose channel is not open by then fails with a *ConnectError whose
	// Reason is "timed out". 0 means 30 s.
	ConnectTimeout time.Duration
	// QueueLen is how many received datagrams wait for Receive; when the
	// queue is full the oldest is dropped. 0 means 256.
	QueueLen int

	// loopback, for tests, keeps ICE to host candidates on loopback over
	// UDP4 without mDNS, so set-ups are fast and offline (native builds).
	loopback bool
	// socket, for tests, is the one UDP socket ICE uses (native builds),
	// so a test can count what crosses it.
	socket net.PacketConn
	// relayOnly, for tests, restricts ICE to relayed candidates (the
	// iceTransportPolicy "relay" of the W3C API), so that the only path
	// between two Conns is through a TURN server of ICEServers.
	relayOnly bool
}

const (
	defaultConnectTimeout = 30 * time.Second
	defaultQueueLen       = 256
)

// check returns the first rule c breaks, as a *transport.ConfigError, or
// nil. It does not modify c.
func (c *Config) check() error {
	bad := func(field, reason string) error {
		return &transport.ConfigError{Field: "webrtc.Config." + field, Reason: reason}
	}
	switch {
	case c.Signaler == nil:
		return bad("Signaler", "nil")
	case len(c.Peers) == 0:
		return bad("Peers", "empty: a Conn needs at least one peer")
	case c.ConnectTimeout < 0:
		return bad("ConnectTimeout", c.ConnectTimeout.String()+" is negative")
	case c.QueueLen < 0:
		return bad("QueueLen", strconv.Itoa(c.QueueLen)+" is negative")
	}
	seen := make(map[transport.Addr]int, len(c.Peers))
	for i, p := range c.Peers {
		field := "Peers[" + strconv.Itoa(i) + "]"
		if p == c.Self {
			return bad(field, p.String()+" is Self")
		}
		if j, dup := seen[p]; dup {
			return bad(field, p.String()+" is also Peers["+strconv.Itoa(j)+"]")
		}
		seen[p] = i
	}
	for i, s := range c.ICEServers {
		if len(s.URLs) == 0 {
			return bad("ICEServers["+strconv.Itoa(i)+"].URLs", "empty")
		}
	}
	return nil
}

// withDefaults returns a copy of c with every zero field set to its
// default and its slices copied.
func (c Config) withDefaults() Config {
	if c.ConnectTimeout == 0 {
		c.ConnectTimeout = defaultConnectTimeout
	}
	if c.QueueLen == 0 {
		c.QueueLen = defaultQueueLen
	}
	c.Peers = append([]transport.Addr(nil), c.Peers...)
	c.ICEServers = append([]ICEServer(nil), c.ICEServers...)
	return c
}
