package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/internal/testenv"
)

// mixState mixes field sizes: byte arrays, bools, 16-, 32- and 64-bit
// fields.
type mixState struct {
	Tick  int64
	Flags [40]uint8
	On    [8]bool
	Pts   [4000]mixPt
}

type mixPt struct {
	A, B int16
	C    int32
}

// The search, driven between two engines holding random states with its
// queries and answers delivered in random order, names exactly what the
// naive oracle state.Diff names: the differing leaf fields in memory
// order, all of them unless Incomplete, and never one that does not
// differ; and the answerer's replay of the search ends with it. 40 and
// 80 cases (100 and 200 in the soak run).
func TestNarrowOracle(t *testing.T) {
	t.Run("bigState", func(t *testing.T) { narrowOracle[bigState](t, testenv.Pick(40, 100), nil) })
	t.Run("mixState", func(t *testing.T) {
		on := int(unsafe.Offsetof(world[mixState]{}.Game) + unsafe.Offsetof(mixState{}.On))
		narrowOracle[mixState](t, testenv.Pick(80, 200), func(raw []byte) {
			for j := on; j < on+8; j++ {
				raw[j] &= 1 // a bool holds 0 or 1
			}
		})
	})
}

// narrowOracle runs cases random cases for state type S; fix repairs a
// mutated state's bytes. The engine searches its world (the control state,
// then S), so the changes fall anywhere in it, and the oracle's paths are
// named as the game knows them (gamePath).
func narrowOracle[S any](t *testing.T, cases int, fix func(raw []byte)) {
	mk := func(i int) *Engine[S, testInput] {
		c := DefaultConfig()
		c.Local = []core.PlayerHandle{core.PlayerHandle(i)}
		c.Peers = [][]core.PlayerHandle{{core.PlayerHandle(1 - i)}}
		c.Prediction, c.MaxPrediction, c.SnapshotRetention = 0, 0, 1
		e, err := NewEngine[S, testInput](c, nopGame[S]{}, new(S))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	a, b := mk(0), mk(1)
	r := rand.New(rand.NewPCG(11, uint64(cases)))
	size := sizeOf[world[S]]()
	bs := blockSizeFor(size)
	for k := range cases {
		t.Run(fmt.Sprintf("case%d", k), func(t *testing.T) {
			sa, sb := new(world[S]), new(world[S])
			raw := rawOf(sb, nil)
			// 1 to 24 changes: single bytes anywhere, or runs of bytes
			// across field and block boundaries.
			for range 1 + r.IntN(24) {
				off := r.IntN(size)
				if r.IntN(4) == 0 {
					off = min(size-1, max(0, bs*r.IntN(64)+r.IntN(16)-8)) // near a first-level block edge
				}
				for j := off; j < min(size, off+1+r.IntN(12)); j++ {
					raw[j] ^= byte(1 + r.IntN(255))
				}
			}
			if fix != nil {
				fix(raw)
			}
			if err := arena.DecodeRaw(raw, sb); err != nil {
				t.Fatal(err)
			}
			var oracle []string
			for _, d := range arena.Diff(sa, sb) {
				oracle = append(oracle, gamePath(d.Path))
			}
			if len(oracle) == 0 {
				t.Skip("no change")
			}
			a.events, a.peers[0].hunt = nil, hunt{}
			b.peers[0].snap, b.peers[0].snapFrame, b.peers[0].answers, b.peers[0].hunt = rawOf(sb, nil), 10, nil, hunt{} // a fresh peer
			a.startHunt(0, 10, sa)
			for a.peers[0].hunt.active {
				// The peer gets the pending queries in any order, and we
				// get some of its answers to them, in any order.
				h := &a.peers[0].hunt
				pend := slices.Clone(h.pend[:h.npend])
				for _, k := range r.Perm(len(pend)) {
					p := &pend[k]
					b.answerQuery(0, &BlockReport{Frame: 10, Offset: p.off, Length: p.n, BlockSize: blockSizeFor(p.n), Hashes: p.hashes})
				}
				var ans []BlockAnswer
				for _, x := range b.peers[0].answers {
					if h.pending(span{x.Offset, x.Length}) >= 0 {
						ans = append(ans, x.BlockAnswer)
					}
				}
				r.Shuffle(len(ans), func(i, j int) { ans[i], ans[j] = ans[j], ans[i] })
				for _, x := range ans[:1+r.IntN(len(ans))] {
					a.huntAnswer(0, &x)
				}
			}
			if m := &b.peers[0].hunt.theirs; !m.on || !m.done {
				t.Fatalf("the search ended but the peer's replay did not (on %v)", m.on)
			}
			if len(a.events) != 1 {
				t.Fatalf("%d events, want 1", len(a.events))
			}
			ev := a.events[0].(core.DesyncFieldsEvent)
			if len(ev.Paths) > len(oracle) || !slices.Equal(ev.Paths, oracle[:len(ev.Paths)]) {
				t.Fatalf("paths %q are not a prefix of the oracle's %q", ev.Paths, oracle)
			}
			if complete := len(ev.Paths) == len(oracle); complete == ev.Incomplete || (len(oracle) > maxPaths && ev.Reason != "more than 16 fields differ" && ev.Reason != "the search reached its bound of 64 queries") {
				t.Fatalf("%d of %d paths, incomplete %v (%s)", len(ev.Paths), len(oracle), ev.Incomplete, ev.Reason)
			}
		})
	}
}

// nopGame is a Step that only exists.
type nopGame[S any] struct{}

func (nopGame[S]) Step(*S, []core.Input[testInput], core.Effects) {}
