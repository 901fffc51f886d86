package hostile

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// A Capture keeps the first keptFirst datagrams it saw (the handshake,
// whose packets phases replay long after) and the newest, up to
// maxCaptured in all.
const (
	keptFirst   = 64
	maxCaptured = 512
)

// Capture keeps the datagrams a Tap saw sent: the first few, which hold
// the handshake, and the newest, oldest first. It is safe for concurrent
// use.
type Capture struct {
	mu      sync.Mutex
	packets [][]byte
}

// add keeps a copy of p.
func (c *Capture) add(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.packets) == maxCaptured {
		c.packets = slices.Delete(c.packets, keptFirst, keptFirst+maxCaptured/4)
	}
	c.packets = append(c.packets, slices.Clone(p))
}

// Packets returns a copy of the captured datagrams, oldest first.
func (c *Capture) Packets() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.packets)
}

// Tap is a transport.Conn that records in Capture every datagram sent
// through it, as an on-path attacker would overhear them.
type Tap struct {
	transport.Conn
	Capture *Capture
}

// Send records p and sends it.
func (t *Tap) Send(to transport.Addr, p []byte) error {
	t.Capture.add(p)
	return t.Conn.Send(to, p)
}

// Signer returns the key that tags packet p as the sender of the captured
// direction would tag it, and a sequence number for it that the victim
// would take as fresh (near the sender's own), or false when the attacker
// holds no key: the tests of a dishonest participant hold the match's
// keys, those of an outsider do not.
type Signer func(p []byte) (key wire.Key, seq uint64, ok bool)

// Target says where a phase's datagrams go: to the victim from the
// address of its genuine peer, or from addresses the victim never saw.
type Target int

const (
	// FromPeer datagrams come from the victim's genuine peer's address.
	FromPeer Target = iota
	// FromStrangers datagrams come from addresses unknown to the victim.
	FromStrangers
)

// Phase is one way of abusing a socket. Make returns the datagrams of one
// burst, from the captures of what the victim's peer sent it (toVictim)
// and what the victim sent (fromVictim), and a random source.
type Phase struct {
	Name   string
	Target Target
	Make   func(r *rand.Rand, toVictim, fromVictim [][]byte) [][]byte
}

// Phases returns every phase, with mutations re-signed by sign when it is
// not nil. Each burst is burst datagrams or fewer.
func Phases(sign Signer, burst int) []Phase {
	resign := func(p []byte) []byte { return Resign(p, sign) }
	pick := func(r *rand.Rand, c [][]byte) []byte {
		if len(c) == 0 {
			return nil
		}
		return c[r.IntN(len(c))]
	}
	many := func(f func(r *rand.Rand, to, from [][]byte) []byte) func(r *rand.Rand, to, from [][]byte) [][]byte {
		return func(r *rand.Rand, to, from [][]byte) [][]byte {
			out := make([][]byte, 0, burst)
			for range burst {
				if p := f(r, to, from); p != nil {
					out = append(out, p)
				}
			}
			return out
		}
	}
	return []Phase{
		{"random bytes", FromPeer, many(func(r *rand.Rand, _, _ [][]byte) []byte { return randomBytes(r, r.IntN(transport.MaxDatagram+1)) })},
		{"random bytes from strangers", FromStrangers, many(func(r *rand.Rand, _, _ [][]byte) []byte { return randomBytes(r, r.IntN(transport.MaxDatagram+1)) })},
		{"oversized", FromPeer, many(func(r *rand.Rand, _, _ [][]byte) []byte {
			return randomBytes(r, transport.MaxDatagram+1+r.IntN(transport.MaxDatagram))
		})},
		{"random bodies behind valid headers", FromPeer, many(func(r *rand.Rand, to, _ [][]byte) []byte {
			p := pick(r, to)
			if len(p) < 9 {
				return nil
			}
			h := 3
			if wire.PacketType(p).Handshake() {
				h = 9
			}
			q := append(slices.Clone(p[:h]), randomBytes(r, r.IntN(200))...)
			return resign(append(q, 0, 0, 0, 0))
		})},
		{"mutations", FromPeer, many(func(r *rand.Rand, to, _ [][]byte) []byte {
			p := pick(r, to)
			if p == nil {
				return nil
			}
			return resign(Mutate(r, p, pick(r, to)))
		})},
		{"replays", FromPeer, many(func(r *rand.Rand, to, _ [][]byte) []byte { return pick(r, to) })},
		{"reflection", FromPeer, many(func(r *rand.Rand, _, from [][]byte) []byte { return pick(r, from) })},
		{"Hello flood from strangers", FromStrangers, many(func(r *rand.Rand, to, _ [][]byte) []byte { return helloOf(r, to) })},
		{"Hello flood from the peer", FromPeer, many(func(r *rand.Rand, to, _ [][]byte) []byte { return helloOf(r, to) })},
	}
}

// helloOf returns a captured Hello, or nil if none was captured.
func helloOf(r *rand.Rand, c [][]byte) []byte {
	var hellos [][]byte
	for _, p := range c {
		if wire.PacketType(p) == wire.TypeHello {
			hellos = append(hellos, p)
		}
	}
	if len(hellos) == 0 {
		return nil
	}
	return hellos[r.IntN(len(hellos))]
}

// randomBytes returns n random bytes.
func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// Mutate returns a mutation of p: bits flipped, truncated, extended, or
// spliced with other.
func Mutate(r *rand.Rand, p, other []byte) []byte {
	q := slices.Clone(p)
	switch r.IntN(4) {
	case 0:
		for range 1 + r.IntN(4) {
			if len(q) > 0 {
				q[r.IntN(len(q))] ^= 1 << r.IntN(8)
			}
		}
	case 1:
		q = q[:r.IntN(len(q)+1)]
	case 2:
		q = append(q, randomBytes(r, 1+r.IntN(64))...)
	default:
		cut := r.IntN(len(q) + 1)
		q = append(q[:cut], other[min(cut, len(other)):]...)
	}
	return q
}

// Resign returns p with its sequence number and its last wire.TagSize
// bytes replaced by the sequence number sign gives (all 64 bits in a long
// header, the low 16 in a short one) and a valid tag under its key, or p
// itself when sign is nil or holds no key for it, or p is too short to
// carry a tag.
func Resign(p []byte, sign Signer) []byte {
	if sign == nil || len(p) < 3+wire.TagSize {
		return p
	}
	key, seq, ok := sign(p)
	if !ok {
		return p
	}
	q := slices.Clone(p[:len(p)-wire.TagSize])
	if wire.PacketType(q).Handshake() {
		if len(q) < 9 {
			return p
		}
		binary.LittleEndian.PutUint64(q[1:], seq)
	} else {
		binary.LittleEndian.PutUint16(q[1:], uint16(seq))
	}
	return wire.AppendTag(q, key, seq, 0)
}
