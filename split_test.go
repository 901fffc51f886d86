package rollstep

import (
	"fmt"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// A four-peer match splits in two sides of two for 3 to 5 s. When the
// sides hear each other again, the side without the lowest player handle
// (players 2 and 3) yields as a whole: each of its peers throws its side's
// frames away and rejoins from the other side, one after the other, and
// the match is one again, in every mode, at 2 % and 8 % loss.
func TestSplitHealsTwoSides(t *testing.T) {
	for seed := uint64(0); seed < 3; seed++ {
		for _, mode := range []Mode{Lockstep, Rollback, Auto} {
			t.Run(fmt.Sprintf("%d/%v", seed, mode), func(t *testing.T) {
				m := newCrashMatch(t, 4, mode, 0.02+0.03*float64(seed), 50+10*seed+uint64(mode))
				m.run(func() bool { return m.lowest() >= 300 })
				for _, a := range []int{0, 1} {
					for _, b := range []int{2, 3} {
						m.net.Cut(m.conns[a].ID(), m.conns[b].ID())
						m.net.Cut(m.conns[b].ID(), m.conns[a].ID())
					}
				}
				out := m.now + time.Duration(3+seed)*time.Second
				m.run(func() bool { return m.now >= out })
				m.net.Heal()
				ev2, ev3 := m.awaitRejoin(2), m.awaitRejoin(3)
				for i, ev := range []core.RejoinEvent{ev2, ev3} {
					require.Positive(t, ev.Discarded, "peer %d threw away its side's frames", 2+i)
				}
				r := max(ev2.Return, ev3.Return)
				m.run(func() bool { return m.lowest() >= r+180 })
				m.agree(r)
				for i := range 2 {
					_, ok := m.rejoined(i)
					require.False(t, ok, "peer %d of the kept side rejoined", i)
				}
				t.Logf("healed: peer 2 returns at frame %d (%d discarded), peer 3 at %d (%d discarded)", ev2.Return, ev2.Discarded, ev3.Return, ev3.Discarded)
			})
		}
	}
}
