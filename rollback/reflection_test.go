package rollback

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/probe"

	"github.com/stretchr/testify/assert"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// reflector is the network of an on-path attacker that sends every
// datagram a peer sends straight back to it, from the address it was sent
// to, ahead of whatever that address really sent.
type reflector struct {
	*sim.Endpoint
	back []reflected
}

type reflected struct {
	from transport.Addr
	p    []byte
}

func (r *reflector) Send(to transport.Addr, p []byte) error {
	r.back = append(r.back, reflected{to, append([]byte(nil), p...)})
	return r.Endpoint.Send(to, p)
}

func (r *reflector) Receive(buf []byte) (int, transport.Addr, bool, error) {
	if len(r.back) > 0 {
		d := r.back[0]
		r.back = r.back[1:]
		return copy(buf, d.p), d.from, true, nil
	}
	return r.Endpoint.Receive(buf)
}

// TestReflectionCostsNothing: with every packet node 0 sends reflected
// back to it, 15 s of play cost node 0 at most 1 s of stall, no genuine
// packet of node 1 is dropped as a replay, every reflected one fails its
// tag, and the peers agree. With one key per match the reflections passed
// the tag and the replay window, used up node 1's sequence numbers and
// kept node 1 "heard": the audit measured 12.6 to 14.9 s of stall in 15 s
// of the fighter at 500 reflections a second.
func TestReflectionCostsNothing(t *testing.T) {
	m := newMatch(t, 2, 23, sim.LinkConfig{Latency: sim.Latency{Base: ms(30)}}, nil)
	r := &reflector{Endpoint: m.nodes[0].conn}
	s, err := NewSession[pair, uint16](testConfig(2, 0, 23), m.nodes[0].game, pair{}, r)
	if err != nil {
		t.Fatal(err)
	}
	m.nodes[0].s = s // the session newMatch made never ran; it shares the socket, so it is not closed
	m.render = time.Second / 60
	m.run(15 * time.Second)

	st := m.nodes[0].s.Stats()
	p := probe.Transport(m.nodes[0].s).Peers[0]
	t.Logf("node 0: frame %d, stall %v, wrong token %d, replayed %d, inputs received %d",
		m.nodes[0].s.Frame(), st.Stall, p.WrongToken, p.Replayed, p.InputsReceived)
	assert.LessOrEqual(t, st.Stall, time.Second, "stall in 15 s")
	assert.Zero(t, p.Replayed, "genuine packets dropped as replays")
	assert.Greater(t, p.WrongToken, uint64(500), "reflected packets that failed their tag")
	assert.Greater(t, m.nodes[0].s.Frame(), core.Frame(800), "frames played in 15 s at 60 a second")
	assert.Zero(t, probe.Transport(m.nodes[1].s).Peers[0].Replayed)
	m.checkAgreement()
}
