package rollstep

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
	"github.com/stretchr/testify/require"
)

// endSplitAt is the agreed end of the matches of the end-split tests.
const endSplitAt = 600

// Every link drops 40 frames before the agreed end, for longer than the
// disconnect timeout: every peer loses the others and plays the last
// frames alone. The links heal while the end waits out the rest of the
// timeout after the loss, so each peer hears the others again and
// reports the split with each (a SplitEvent, not healed: every frame is
// played) before its MatchEndedEvent. Before, each ended at once and
// never knew the others had ended apart.
func TestSplitAtTheEndIsReported(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			const n = 3
			m := newCrashMatch(t, n, mode, 0, 11)
			for _, p := range m.peers {
				require.NoError(t, p.sess.EndAt(endSplitAt))
			}
			m.run(func() bool { return m.lowest() >= endSplitAt-40 })
			m.cutAll()
			lost := func() bool {
				for _, p := range m.peers {
					for _, q := range p.sess.Stats().Peers {
						if q.State != transport.StateDisconnected {
							return false
						}
					}
				}
				return true
			}
			m.run(lost)
			m.runFor(time.Second)
			m.net.Heal()
			ended := func() bool {
				for _, p := range m.peers {
					if !p.sess.Ended() {
						return false
					}
				}
				return true
			}
			m.run(ended)
			for i := range n {
				var splits []core.PeerID
				endIdx := -1
				for k, ev := range m.events[i] {
					switch ev := ev.(type) {
					case core.SplitEvent:
						require.Equal(t, -1, endIdx, "peer %d reported a split after its end", i)
						splits = append(splits, ev.Peer)
					case core.MatchEndedEvent:
						require.Equal(t, core.Frame(endSplitAt), ev.Frame)
						endIdx = k
					case core.RejoinEvent:
						t.Fatalf("peer %d: a split at the end is not healed: %+v", i, ev)
					}
				}
				require.NotEqual(t, -1, endIdx, "peer %d ended", i)
				require.ElementsMatch(t, []core.PeerID{0, 1}, splits, "peer %d reported the split with both others", i)
				require.Equal(t, core.Frame(endSplitAt), m.peers[i].sess.Frame())
			}
		})
	}
}

// A peer that crashes near the end holds the others' end for the rest of
// the disconnect timeout after they lost it, no longer; one that leaves
// holds it not at all.
func TestEndWaitsOutALossOnly(t *testing.T) {
	for _, leave := range []bool{false, true} {
		t.Run(fmt.Sprintf("leave=%v", leave), func(t *testing.T) {
			m := newCrashMatch(t, 3, Rollback, 0, 12)
			for _, p := range m.peers {
				require.NoError(t, p.sess.EndAt(endSplitAt))
			}
			m.run(func() bool { return m.lowest() >= endSplitAt-20 })
			if leave {
				require.NoError(t, m.peers[2].sess.Close())
				m.dead = 2
			} else {
				m.kill(2)
			}
			gone := m.now
			m.run(func() bool { return m.peers[0].sess.Ended() && m.peers[1].sess.Ended() })
			endAt := m.now
			timeout := m.peers[0].sess.ep.Config().DisconnectTimeout
			if leave {
				require.Less(t, endAt-gone, 600*ms, "a peer that left holds nothing: the last 20 frames and a round trip")
				return
			}
			require.GreaterOrEqual(t, endAt-gone, 2*timeout, "the loss after the disconnect timeout, then the wait")
			require.Less(t, endAt-gone, 2*timeout+300*ms, "no longer")
		})
	}
}

// The wait for the end's confirmation, after the last frame, is no
// stall: Stats.Stall and StalledFrames do not grow. Before, the pacer
// went on granting frames past the end and counted each refused one.
func TestWaitAtTheEndIsNoStall(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		t.Run(mode.String(), func(t *testing.T) {
			m := newCrashMatch(t, 3, mode, 0, 13)
			for _, p := range m.peers {
				require.NoError(t, p.sess.EndAt(endSplitAt))
			}
			at := make([]Stats, len(m.peers)) // when the peer played the last frame
			reached := make([]time.Duration, len(m.peers))
			ended := make([]time.Duration, len(m.peers))
			m.each = func() {
				for i, p := range m.peers {
					switch {
					case p.sess.Frame() < endSplitAt:
					case reached[i] == 0:
						at[i], reached[i] = p.sess.Stats(), m.now
					case ended[i] == 0 && p.sess.Ended():
						ended[i] = m.now
					}
				}
			}
			m.run(func() bool { return !slices.Contains(ended, 0) })
			longest := time.Duration(0)
			for i, p := range m.peers {
				st := p.sess.Stats()
				require.Equal(t, at[i].Stall, st.Stall, "peer %d stalled at the end", i)
				require.Equal(t, at[i].StalledFrames, st.StalledFrames, "peer %d", i)
				longest = max(longest, ended[i]-reached[i])
			}
			if mode == Rollback { // it predicts the last frames, then waits for them
				require.GreaterOrEqual(t, longest, 30*ms, "a peer waited at the end")
			}
		})
	}
}
