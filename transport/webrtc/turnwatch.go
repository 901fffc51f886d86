//go:build !js

package webrtc

import (
	"fmt"
	"net"
	"sync"

	"github.com/pion/stun/v4"
	"github.com/pion/transport/v5"
)

// turnWatch is the network of a Conn's ICE agents in native builds:
// pion's standard one, whose TURN client sockets over UDP (the only
// sockets ICE opens with ListenPacket) are watched for a TURN server that
// refuses this peer's credential. pion's agent only logs the failed
// allocation, so without the watch a refused credential shows only as
// missing relay candidates.
type turnWatch struct {
	transport.Net
	refused func(error)
}

func (n *turnWatch) ListenPacket(network, address string) (net.PacketConn, error) {
	pc, err := n.Net.ListenPacket(network, address)
	if err != nil {
		return nil, err
	}
	return &turnSocket{PacketConn: pc, refused: n.refused}, nil
}

// maxSigned bounds the authenticated Allocate requests a turnSocket
// remembers: a TURN client sends a few (one per stale nonce), and a
// server that never answers must not make the set grow.
const maxSigned = 8

// turnSocket is a TURN client's socket. It remembers the transaction ids
// of the Allocate requests it sends that carry a MESSAGE-INTEGRITY
// attribute (RFC 8489 §14.5: the second request, after the server's
// challenge), and reports an error response to one of them with error
// 401 (Unauthorized) or 441 (Wrong Credentials): the server refused the
// credential, not merely asked for it. The 401 that answers the first,
// unauthenticated request is the challenge of every allocation (RFC 8489
// §9.2.3) and is not reported. Anything else passes untouched.
type turnSocket struct {
	net.PacketConn
	refused func(error)

	mu     sync.Mutex
	signed map[[stun.TransactionIDSize]byte]struct{}
}

// stunType returns the STUN message type of p, or false if p is no STUN
// message (such as TURN ChannelData, which carries the relayed traffic).
func stunType(p []byte) (stun.MessageType, bool) {
	if !stun.IsMessage(p) {
		return stun.MessageType{}, false
	}
	var t stun.MessageType
	t.ReadValue(uint16(p[0])<<8 | uint16(p[1]))
	return t, true
}

// decode returns p decoded as a STUN message, from a copy of p.
func decode(p []byte) (*stun.Message, bool) {
	m := &stun.Message{Raw: append([]byte(nil), p...)}
	return m, m.Decode() == nil
}

func (c *turnSocket) WriteTo(p []byte, addr net.Addr) (int, error) {
	if t, ok := stunType(p); ok && t.Method == stun.MethodAllocate && t.Class == stun.ClassRequest {
		if m, ok := decode(p); ok && (m.Contains(stun.AttrMessageIntegrity) || m.Contains(stun.AttrMessageIntegritySHA256)) {
			c.mu.Lock()
			if c.signed == nil {
				c.signed = make(map[[stun.TransactionIDSize]byte]struct{})
			}
			if len(c.signed) < maxSigned {
				c.signed[m.TransactionID] = struct{}{}
			}
			c.mu.Unlock()
		}
	}
	return c.PacketConn.WriteTo(p, addr)
}

func (c *turnSocket) ReadFrom(p []byte) (int, net.Addr, error) {
	n, addr, err := c.PacketConn.ReadFrom(p)
	if t, ok := stunType(p[:n]); ok && t.Method == stun.MethodAllocate && t.Class != stun.ClassRequest {
		c.check(p[:n], t, addr)
	}
	return n, addr, err
}

// check looks at an Allocate response from addr and reports a refused
// credential.
func (c *turnSocket) check(p []byte, t stun.MessageType, addr net.Addr) {
	m, ok := decode(p)
	if !ok {
		return
	}
	c.mu.Lock()
	_, signed := c.signed[m.TransactionID]
	delete(c.signed, m.TransactionID)
	c.mu.Unlock()
	if !signed || t.Class != stun.ClassErrorResponse {
		return
	}
	var code stun.ErrorCodeAttribute
	if code.GetFrom(m) != nil {
		return
	}
	if code.Code == stun.CodeUnauthorized || code.Code == stun.CodeWrongCredentials {
		c.refused(fmt.Errorf("TURN server %v refused the credential: error %d to an authenticated Allocate", addr, int(code.Code)))
	}
}
