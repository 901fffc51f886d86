package lockstep

import (
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/state"
)

type (
	in8   struct{ A uint8 }
	in64  struct{ A int64 }
	inMix struct {
		A int64
		B uint8
		_ [7]uint8
	}
	st1  struct{ A uint8 }
	st12 struct {
		A int32
		B [8]uint8
	}
)

// TestEnvelopeLayout: wrapping any arena-serializable input or state adds
// no implicit padding on 32- or 64-bit targets, so the wrapped types are
// arena-serializable too.
func TestEnvelopeLayout(t *testing.T) {
	check := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	check("envelope[uint8]", state.Validate[envelope[uint8]]())
	check("envelope[in8]", state.Validate[envelope[in8]]())
	check("envelope[in64]", state.Validate[envelope[in64]]())
	check("envelope[inMix]", state.Validate[envelope[inMix]]())
	check("envelope[[3]uint16]", state.Validate[envelope[[3]uint16]]())
	check("world[st1]", state.Validate[world[st1]]())
	check("world[st12]", state.Validate[world[st12]]())
	check("world[tState]", state.Validate[world[tState]]())
	check("world[inMix]", state.Validate[world[inMix]]())
	if err := state.Validate[envelope[int]](); err == nil {
		t.Error("envelope[int] validated; int's size differs between targets")
	}
}

// TestWrapGameFills: a copy of a command (a turn the engine filled when D
// rose, or a prediction) gives the game the zero input, a repeated system
// command applies once, and with HoldInputs copies pass through.
func TestWrapGameFills(t *testing.T) {
	var got []tInput
	g := &wrapGame[tState, tInput]{
		user: core.GameFunc[tState, tInput](func(_ *tState, in []core.Input[tInput], _ *core.Effects) {
			got = append(got, in[0].Value)
		}),
		ticks: 1, in: make([]core.Input[tInput], 1), idle: make([]core.Input[tInput], 1),
	}
	var w world[tState]
	env := envelope[tInput]{Cmd: cmdSpeed, Input: tInput{Seq: 1}}
	put16(&env.Seq, 1)
	put16(&env.Arg, 200)
	put16(&env.Count, 1)
	step := func() {
		g.Step(&w, []core.Input[envelope[tInput]]{{Value: env, Status: core.InputConfirmed}}, nil)
	}
	step() // frame 0: the command and the speed change apply
	step() // frame 1: a copy (same Count, same command Seq)
	env.Input = tInput{Seq: 1}
	put16(&env.Count, 2)
	step() // frame 2: an equal command, but a new one
	if len(got) != 3 || got[0].Seq != 1 || got[1].Seq != 0 || got[2].Seq != 1 {
		t.Fatalf("game got %+v, want the command, the zero input, the command", got)
	}
	if w.Sys.speed() != 200 || get32(w.Sys.Since) != 0 {
		t.Fatalf("speed %d since %d, want 200 since 0", w.Sys.speed(), get32(w.Sys.Since))
	}
	g.hold = true
	step()
	if got[3].Seq != 1 {
		t.Fatalf("with HoldInputs a copy gave %+v, want the held input", got[3])
	}
}
