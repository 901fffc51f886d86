package rollback

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/internal/probe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/hostile"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestHostileNetwork runs every phase of package hostile against node 0 of
// a 2-player match on virtual time: 15 s a phase (60 s in the soak run),
// a burst of 8 datagrams every frame (480 a second), once as an outsider
// and once as a dishonest participant who holds the match's keys and
// signs its mutations again. Each phase may cost node 0 at most 1 s of
// stall per 15 s, no datagram may reach a stranger's address, and neither
// peer may lose the other. Against the outsider the peers agree on every
// frame both confirmed; the key holder's forged inputs may desync them,
// and then the forgery and the desync are reported, never silent.
func TestHostileNetwork(t *testing.T) {
	phase := testenv.Pick(15*time.Second, 60*time.Second)
	for _, insider := range []bool{false, true} {
		name := map[bool]string{false: "outsider", true: "key holder"}[insider]
		t.Run(name, func(t *testing.T) {
			m := newMatch(t, 2, 31, sim.LinkConfig{Latency: sim.Latency{Base: ms(30), Jitter: ms(5)}}, nil)
			toVictim, fromVictim := &hostile.Capture{}, &hostile.Capture{}
			for i, c := range []*hostile.Capture{fromVictim, toVictim} {
				m.nodes[i].game = newRecGame(1 << 16) // records every frame of 9 soak-sized phases
				s, err := NewSession[pair, uint16](testConfig(2, i, 31), m.nodes[i].game, pair{}, &hostile.Tap{Conn: m.nodes[i].conn, Capture: c})
				require.NoError(t, err)
				m.nodes[i].s = s // newMatch's session never ran; it shares the socket, so it is not closed
			}
			m.render = time.Second / 60
			m.run(2 * time.Second)
			var sign hostile.Signer
			if insider {
				peer := m.nodes[1].s
				sign = func(p []byte) (wire.Key, uint64, bool) {
					send, _, ok := probe.PeerKeys(peer, 0)
					seq := probe.Transport(peer).Peers[0].PacketsSent + 2
					if wire.PacketType(p).Handshake() {
						return wire.NewKey(testToken), seq, true
					}
					return send, seq, ok
				}
			}
			strangers := make([]*sim.Endpoint, 16)
			for i := range strangers {
				strangers[i] = m.net.NewEndpoint()
			}
			r := rand.New(rand.NewPCG(31, 7))
			for _, ph := range hostile.Phases(sign, 8) {
				before := m.nodes[0].s.Stats().Stall
				start := m.nodes[0].s.Frame()
				end := m.net.Now() + phase
				for now := m.net.Now() + m.render; now <= end; now += m.render {
					for k, p := range ph.Make(r, toVictim.Packets(), fromVictim.Packets()) {
						from := transport.Conn(m.nodes[1].conn)
						if ph.Target == hostile.FromStrangers {
							from = strangers[k%len(strangers)]
						}
						_ = from.Send(0, p) // the simulated network refuses oversized datagrams
					}
					m.step(now)
				}
				stall := m.nodes[0].s.Stats().Stall - before
				played := m.nodes[0].s.Frame() - start
				t.Logf("%s: %d frames, stall %v", ph.Name, played, stall.Round(time.Millisecond))
				assert.LessOrEqual(t, stall, phase/15, "%s: stall", ph.Name)
				assert.Greater(t, played, core.Frame(phase/m.render*9/10), "%s: frames played", ph.Name)
			}
			buf := make([]byte, transport.MaxDatagram)
			for i, s := range strangers {
				if _, _, ok, _ := s.Receive(buf); ok {
					t.Errorf("stranger %d was answered", i)
				}
			}
			for i := range 2 {
				assert.Zero(t, m.count(i, isType[core.PeerLostEvent]), "node %d lost its peer", i)
			}
			if !insider {
				for i := range 2 {
					assert.Zero(t, m.count(i, isType[core.DesyncEvent[pair]]), "node %d desyncs", i)
				}
				m.checkAgreement()
				return
			}
			// A key holder's forged inputs of player 1 can reach node 0
			// before player 1's own, and the first input of a frame stands:
			// that is a desync, and it must not be a silent one. Node 0
			// names the forgery (equivocation: player 1's peer sent other
			// inputs for frames it already had), and both report the desync.
			assert.NotZero(t, m.count(0, isType[core.EquivocationEvent]), "node 0: forged inputs not reported")
			if m.count(0, isType[core.DesyncEvent[pair]]) == 0 {
				m.checkAgreement()
			} else {
				assert.NotZero(t, m.count(1, isType[core.DesyncEvent[pair]]), "node 1 did not see the desync node 0 saw")
			}
		})
	}
}
