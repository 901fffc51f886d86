package negotiate

import (
	"testing"

	"github.com/rollstep/rollstep/internal/hostile"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
)

// queueConn is a Conn that delivers queued datagrams from one address and
// records the length of every datagram sent.
type queueConn struct {
	from  transport.Addr
	queue [][]byte
	sent  []int
}

func (c *queueConn) Send(_ transport.Addr, p []byte) error {
	c.sent = append(c.sent, len(p))
	return nil
}

func (c *queueConn) Receive(buf []byte) (int, transport.Addr, bool, error) {
	if len(c.queue) == 0 {
		return 0, 0, false, nil
	}
	p := c.queue[0]
	c.queue = c.queue[1:]
	return copy(buf, p), c.from, true, nil
}

func (c *queueConn) Close() error { return nil }

// FuzzNegotiation feeds two datagrams from the other side to an authority
// and to a follower, once as the fuzzer made them and once signed again
// under the token (sequence number and tag replaced), so that mutations
// reach DecodeMatch and handle instead of dying at the tag. Neither side
// may panic, answer with more bytes than it received, or have its
// follower adopt an offer that is out of range.
func FuzzNegotiation(f *testing.F) {
	const token = 0x5e55
	key := wire.NewKey(token)
	enc := func(m *wire.Match) []byte {
		p, err := wire.AppendMatch(nil, key, 3, m)
		if err != nil {
			f.Fatal(err)
		}
		return p
	}
	offer := wire.Match{Kind: wire.MatchOffered, Offer: wire.MatchOffer{Players: 3, TickRate: 20, Seed: 7, Game: [16]byte{1}, Params: []byte("map=x")}}
	seeds := [][]byte{
		enc(&offer),
		enc(&wire.Match{Kind: wire.MatchAccepted, Digest: offered.Digest()}),
		enc(&wire.Match{Kind: wire.MatchRefused, Digest: offered.Digest()}),
		must(wire.AppendHello(nil, key, 4, &wire.Hello{Protocol: wire.Protocol, Nonce: 1})),
	}
	for _, a := range seeds {
		for _, b := range seeds {
			f.Add(a, b)
		}
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		for _, resign := range []bool{false, true} {
			in := [][]byte{a, b}
			if resign {
				in = [][]byte{resigned(a, key, 5), resigned(b, key, 6)}
			}
			received := 0
			for _, p := range in {
				received += len(p)
			}
			for _, side := range []string{"authority", "follower"} {
				conn := &queueConn{from: 1, queue: append([][]byte(nil), in...)}
				var n *Negotiation
				var err error
				if side == "authority" {
					n, err = NewOffer(conn, NegotiationConfig{Token: token}, []transport.Addr{1}, offered)
				} else {
					n, err = NewAccept(conn, NegotiationConfig{Token: token}, 1, func(m MatchConfig) error {
						if verr := m.validate(); verr != nil {
							t.Fatalf("adopted an offer out of range: %v", verr)
						}
						return nil
					})
				}
				if err != nil {
					t.Fatal(err)
				}
				conn.sent = conn.sent[:0]
				_, _ = n.Update(0)
				answered := 0
				for _, s := range conn.sent {
					answered += s
				}
				if side == "authority" {
					// The authority answers nothing: it sends its offer,
					// once per Update at most, whatever it receives.
					if len(conn.sent) > 1 {
						t.Fatalf("authority sent %d datagrams in one Update (resigned %v)", len(conn.sent), resign)
					}
					continue
				}
				if answered > received {
					t.Fatalf("%s answered %d bytes to %d received (resigned %v)", side, answered, received, resign)
				}
			}
		}
	})
}

// resigned returns p signed again under key with sequence number seq
// (hostile.Resign).
func resigned(p []byte, key wire.Key, seq uint64) []byte {
	return hostile.Resign(p, func([]byte) (wire.Key, uint64, bool) { return key, seq, true })
}

func must(p []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return p
}
