package rollstep

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// comeBack brings player 1 back into m's match: it yields
// the split a 4 s blackout leaves (yield), or its process dies for a
// second and a new one, which set runs on first as its game would,
// restarts. It fails the test unless the rejoin succeeds.
func (m *crashMatch) comeBack(yield bool, set func(s *Session[gState, gInput])) {
	m.t.Helper()
	if yield {
		m.cutAll()
		m.runFor(4 * time.Second)
		m.net.Heal()
	} else {
		m.kill(1)
		m.runFor(time.Second)
		m.restart(1, nil)
		set(m.peers[1].sess)
	}
	m.awaitRejoin(1)
}

// The end every game set holds in a session that rejoined: one whose
// process restarted (its game sets the end again) or one that yielded a
// split. It takes the sponsor's engine, and before the fix it played on
// past the end, in Rollback on predictions of frames nobody plays. Every
// peer ends at the same frame on the same checksum.
func TestEndHoldsAfterARejoin(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		for _, yield := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/yield=%v", mode, yield), func(t *testing.T) {
				const end = 900
				m := newCrashMatch(t, 3, mode, 0, 77)
				for _, p := range m.peers {
					require.NoError(t, p.sess.EndAt(end))
				}
				m.run(func() bool { return m.lowest() >= 200 })
				m.comeBack(yield, func(s *Session[gState, gInput]) { require.NoError(t, s.EndAt(end)) })
				m.run(func() bool {
					for _, p := range m.peers {
						if !p.sess.Ended() {
							return false
						}
					}
					return true
				})
				want, ok := m.peers[0].sess.Checksum(end - 1)
				require.True(t, ok, "peer 0 checksummed the last frame")
				for i, p := range m.peers {
					require.Equal(t, core.Frame(end), p.sess.Frame(), "peer %d's frame", i)
					sum, ok := p.sess.Checksum(end - 1)
					require.True(t, ok, "peer %d", i)
					require.Equal(t, want, sum, "peer %d's checksum of the last frame", i)
				}
			})
		}
	}
}
