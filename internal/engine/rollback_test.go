package engine

import (
	"testing"

	"github.com/rollstep/rollstep/core"
)

// Scenario 3: rollback edge cases.

// changing inputs: player p presses 1+p from frame `from` on, else 0.
func pressFrom(from core.Frame) func(p int, f core.Frame) testInput {
	return func(p int, f core.Frame) testInput {
		if f >= from {
			return testInput(1 + p)
		}
		return 0
	}
}

func TestRollbackAtPredictionLimit(t *testing.T) {
	m := newMesh(t, 2, 0, 8, pressFrom(3))
	// Engine 0 runs alone until it reaches its prediction limit.
	for k := 0; k < 8; k++ {
		if r := m.advance(0); !r.Stepped {
			t.Fatalf("call %d did not step", k)
		}
	}
	r := m.advance(0)
	if r.Stepped || !r.Stalled || m.engs[0].Frame() != 8 {
		t.Fatalf("at the limit: stepped %v stalled %v frame %d; want a stall at frame 8", r.Stepped, r.Stalled, m.engs[0].Frame())
	}
	// Engine 1 produces its inputs for frames 0..7 (also at its limit).
	for k := 0; k < 9; k++ {
		m.advance(1)
	}
	m.deliver(1, 0)
	r = m.advance(0)
	if !r.RolledBack || r.LoadedFrame != 3 || r.Resimulated != 5 || !r.Stepped {
		t.Fatalf("correction at the limit: rolled back %v from %d resim %d stepped %v; want from 3, 5 frames, then a step",
			r.RolledBack, r.LoadedFrame, r.Resimulated, r.Stepped)
	}
	m.settle(40)
}

func TestRollbackToFrameZero(t *testing.T) {
	m := newMesh(t, 2, 0, 8, pressFrom(0))
	for k := 0; k < 4; k++ {
		m.advance(0)
		m.advance(1)
	}
	m.deliver(1, 0)
	r := m.advance(0)
	if !r.RolledBack || r.LoadedFrame != 0 || r.Resimulated != 4 {
		t.Fatalf("rolled back %v from %d resim %d; want from frame 0, 4 frames", r.RolledBack, r.LoadedFrame, r.Resimulated)
	}
	m.settle(30)
}

func TestCorrectionForCurrentFrameIsNotLoaded(t *testing.T) {
	m := newMesh(t, 2, 0, 8, pressFrom(5))
	// Both engines step frames 0..4 with each other's real inputs.
	for k := 0; k < 5; k++ {
		m.advance(0)
		m.advance(1)
		m.exchange()
	}
	m.advance(1) // engine 1 schedules its frame-5 input (a change: 2)
	m.deliver(1, 0)
	loads := m.engs[0].Stats().Loads
	if m.engs[0].Frame() != 5 {
		t.Fatalf("engine 0 at frame %d, want 5", m.engs[0].Frame())
	}
	r := m.advance(0)
	if r.RolledBack || m.engs[0].Stats().Loads != loads {
		t.Fatalf("an input for the current frame caused a load from frame %d", r.LoadedFrame)
	}
	if !r.Stepped {
		t.Fatal("frame 5 was not stepped")
	}
	m.settle(30)
}

func TestCorrectionsAtLimitManyPlayers(t *testing.T) {
	for _, n := range []int{3, 4} {
		t.Run(map[int]string{3: "3players", 4: "4players"}[n], func(t *testing.T) {
			inputs := func(p int, f core.Frame) testInput {
				if f >= core.Frame(1+p) {
					return testInput(1 + p)
				}
				return 0
			}
			m := newMesh(t, n, 0, 8, inputs)
			for k := 0; k < 9; k++ {
				for i := 0; i < n; i++ {
					m.advance(i)
				}
			}
			if m.engs[0].Frame() != 8 {
				t.Fatalf("engine 0 at frame %d, want the limit 8", m.engs[0].Frame())
			}
			// Corrections from every peer but the last arrive while
			// engine 0 is at the limit: the latest first.
			for j := n - 2; j >= 1; j-- {
				m.deliver(j, 0)
			}
			r := m.advance(0)
			if !r.RolledBack || r.LoadedFrame != 2 || r.Stepped {
				t.Fatalf("rolled back %v from %d stepped %v; want a rollback from frame 2 without a step (peer %d still missing)",
					r.RolledBack, r.LoadedFrame, r.Stepped, n-1)
			}
			m.deliver(n-1, 0)
			r = m.advance(0)
			if !r.RolledBack || r.LoadedFrame != core.Frame(n) || !r.Stepped {
				t.Fatalf("rolled back %v from %d stepped %v; want a rollback from frame %d and a step", r.RolledBack, r.LoadedFrame, r.Stepped, n)
			}
			m.settle(40)
		})
	}
}

// Effects of a frame are delivered once, and a correction that removes
// them reports them cancelled.
func TestEffectsDeliveredOnceAndCancelled(t *testing.T) {
	m := newMesh(t, 2, 0, 8, pressFrom(0)) // player 1 presses 2: no effect
	m.games[0].effects = true
	var played []core.FrameEffect
	for k := 0; k < 3; k++ {
		r := m.advance(0)
		played = append(played, r.Effects...)
	}
	// Engine 0 predicted player 1's zero input, which emits an effect
	// (value%4 == 0), for frames 0..2; player 0 pressed 1 (no effect).
	if len(played) != 3 {
		t.Fatalf("delivered %v, want one predicted effect per frame", played)
	}
	for k := 0; k < 3; k++ {
		m.advance(1)
	}
	m.deliver(1, 0)
	r := m.advance(0)
	if !r.RolledBack || len(r.Effects) != 0 || len(r.Cancelled) != 3 {
		t.Fatalf("after the correction: effects %v cancelled %v, want the 3 predicted ones cancelled", r.Effects, r.Cancelled)
	}
	for i, fe := range r.Cancelled {
		if fe != played[i] {
			t.Fatalf("cancelled %+v, want %+v", fe, played[i])
		}
	}
}
