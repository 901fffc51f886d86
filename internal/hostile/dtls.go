package hostile

import (
	"encoding/binary"
	"math/rand/v2"
	"net"
)

// DTLS record layout (RFC 6347 §4.1): content type, version, epoch,
// 48-bit sequence number, length, then the fragment.
const (
	recordHeader    = 13
	typeHandshake   = 22
	handshakeHello  = 1 // ClientHello
	helloRandomFrom = recordHeader + 12 + 2
)

// PacketTap is a net.PacketConn that records in Capture every datagram
// written through it: what an on-path attacker overhears of a transport
// that encrypts, such as DTLS, whose records a Tap above it never sees.
type PacketTap struct {
	net.PacketConn
	Capture *Capture
}

// WriteTo records p and writes it.
func (t *PacketTap) WriteTo(p []byte, addr net.Addr) (int, error) {
	t.Capture.add(p)
	return t.PacketConn.WriteTo(p, addr)
}

// DTLSPhases returns the phases that only a DTLS transport meets, for
// captures taken with a PacketTap: plaintext records at epoch 0 (which
// anyone can make without a key) of every content type, from the peer's
// address and from strangers; mutations of captured records; and floods
// of the peer's captured ClientHello, without a cookie and with a fresh
// random field each, from strangers, as a spoofing attacker would start
// handshakes it never finishes. Each burst is burst datagrams or fewer.
func DTLSPhases(burst int) []Phase {
	many := func(f func(r *rand.Rand, to [][]byte) []byte) func(r *rand.Rand, to, _ [][]byte) [][]byte {
		return func(r *rand.Rand, to, _ [][]byte) [][]byte {
			out := make([][]byte, 0, burst)
			for range burst {
				if p := f(r, to); p != nil {
					out = append(out, p)
				}
			}
			return out
		}
	}
	epoch0 := func(r *rand.Rand, _ [][]byte) []byte {
		types := [...]byte{20, 21, 22, 23, 24, 99, byte(r.Uint32())}
		return PlaintextRecord(types[r.IntN(len(types))], r.Uint64(), randomBytes(r, r.IntN(64)))
	}
	return []Phase{
		{"DTLS epoch-0 records", FromPeer, many(epoch0)},
		{"DTLS epoch-0 records from strangers", FromStrangers, many(epoch0)},
		{"DTLS record mutations", FromPeer, many(func(r *rand.Rand, to [][]byte) []byte {
			if len(to) == 0 {
				return nil
			}
			return Mutate(r, to[r.IntN(len(to))], to[r.IntN(len(to))])
		})},
		{"DTLS ClientHello flood from strangers", FromStrangers, many(func(r *rand.Rand, to [][]byte) []byte {
			for _, p := range to {
				if isClientHello(p) {
					q := append([]byte(nil), p...)
					copy(q[helloRandomFrom:], randomBytes(r, 32))
					return q
				}
			}
			return nil
		})},
	}
}

// PlaintextRecord returns a DTLS 1.2 record at epoch 0 of content type
// typ with sequence number seq (its low 48 bits) and body.
func PlaintextRecord(typ byte, seq uint64, body []byte) []byte {
	r := make([]byte, recordHeader, recordHeader+len(body))
	r[0], r[1], r[2] = typ, 0xfe, 0xfd
	binary.BigEndian.PutUint64(r[3:], seq&(1<<48-1)) // epoch 0 in r[3:5]
	binary.BigEndian.PutUint16(r[11:], uint16(len(body)))
	return append(r, body...)
}

// isClientHello reports whether datagram p starts with an epoch-0
// handshake record holding a whole ClientHello.
func isClientHello(p []byte) bool {
	return len(p) >= helloRandomFrom+32 && p[0] == typeHandshake && p[3] == 0 && p[4] == 0 &&
		p[recordHeader] == handshakeHello
}
