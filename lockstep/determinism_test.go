package lockstep

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport/sim"
)

// transcript runs a seeded 4-peer match over an impaired link and
// describes, per peer, what it did: turns, stalls, D, the state's
// checksum and the bytes it sent.
func transcript(t *testing.T, seed uint64) string {
	link := sim.LinkConfig{Latency: sim.Latency{Base: 90 * ms, Jitter: 60 * ms}, Loss: 0.1,
		Duplicate: 0.05, Reorder: 0.05, ReorderDelay: 20 * ms}
	m := newMatch(t, 4, seed, link, Config{TurnPeriod: 50 * ms})
	m.run(2 * time.Second)
	_ = m.peers[1].sess.SetSpeed(1, 150)
	m.run(12 * time.Second)
	m.check()
	var b strings.Builder
	for i, p := range m.peers {
		st := p.sess.Stats()
		fmt.Fprintf(&b, "peer %d: turn %d stall %v stalled-turns %d D %d period %v sum %x sent %d\n",
			i, p.sess.Frame(), st.Stall, st.StalledFrames, st.Delay, st.Period,
			p.sums[len(p.sums)-1], m.net.Outbound(p.conn.ID()).Sent.Bytes)
	}
	return b.String()
}

// TestDeterministicTranscript: the same seed gives the same match, to the
// byte and the nanosecond; another seed gives another.
func TestDeterministicTranscript(t *testing.T) {
	a, b := transcript(t, 71), transcript(t, 71)
	if a != b {
		t.Fatalf("same seed, different matches:\n%s\n%s", a, b)
	}
	if c := transcript(t, 72); c == a {
		t.Fatalf("different seeds, same match:\n%s", a)
	}
	t.Log("\n" + a)
}
