package webrtc

import (
	"context"
	"net"
	"strconv"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// Signaler carries the set-up messages of the connections (SDP offers and
// answers, ICE candidates) between this peer and the others, reliably and
// in order for each peer: the Match of package lobby is one. Send must be
// safe for concurrent use (ICE gathers candidates on its own goroutines);
// the Conn calls Receive from one goroutine, and it blocks until a message
// arrives or ctx ends. A Receive error other than ctx's ends the set-up of
// the peers not yet connected.
type Signaler interface {
	Send(to transport.Addr, payload []byte) error
	Receive(ctx context.Context) (from transport.Addr, payload []byte, err error)
}

// ICEServer is a STUN or TURN server that ICE uses to find a path through
// NATs, such as "stun:stun.example.com:3478" or, with a Username and
// Credential, "turn:turn.example.com:3478?transport=udp".
type ICEServer struct {
	URLs                 []string
	Username, Credential string
}

// Config configures a Conn. Self, Peers and Signaler are required.
type Config struct {
	// Self is this peer's address and Peers the others', as the signaling
	// knows them (a lobby.Match's seats). Of each pair, the lower address
	// makes the offer.
	Self  transport.Addr
	Peers []transport.Addr
	// Signaler relays the set-up messages.
	Signaler Signaler
	// ICEServers are the STUN and TURN servers; none means host
	// candidates only (a LAN, or one machine).
	ICEServers []ICEServer
	// ConnectTimeout bounds the set-up of each peer's connection; a peer
	// not connected by then fails with a *ConnectError. 0 means 30 s.
	ConnectTimeout time.Duration
	// QueueLen is how many received datagrams wait for Receive before the
	// oldest is dropped. 0 means 256.
	QueueLen int

	// loopback, for tests, keeps ICE to host candidates on loopback over
	// UDP4 without mDNS, so set-ups are fast and offline.
	loopback bool
	// socket, for tests, is the one UDP socket ICE uses (native builds),
	// so a test can count what crosses it.
	socket net.PacketConn
}

const (
	defaultConnectTimeout = 30 * time.Second
	defaultQueueLen       = 256
)

// check returns the first problem of c as a *transport.ConfigError.
func (c *Config) check() error {
	bad := func(field, reason string) error {
		return &transport.ConfigError{Field: "webrtc.Config." + field, Reason: reason}
	}
	switch {
	case c.Signaler == nil:
		return bad("Signaler", "nil")
	case len(c.Peers) == 0:
		return bad("Peers", "empty")
	case c.ConnectTimeout < 0:
		return bad("ConnectTimeout", "negative")
	case c.QueueLen < 0:
		return bad("QueueLen", "negative")
	}
	seen := make(map[transport.Addr]bool, len(c.Peers))
	for i, p := range c.Peers {
		field := "Peers[" + strconv.Itoa(i) + "]"
		switch {
		case p == c.Self:
			return bad(field, p.String()+" is Self")
		case seen[p]:
			return bad(field, p.String()+" appears twice")
		}
		seen[p] = true
	}
	for i, s := range c.ICEServers {
		if len(s.URLs) == 0 {
			return bad("ICEServers["+strconv.Itoa(i)+"].URLs", "empty")
		}
	}
	return nil
}
