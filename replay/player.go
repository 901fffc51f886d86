package replay

import (
	"fmt"

	"github.com/rollstep/rollstep/core"
)

// Player plays a Replay back by stepping the game as fast as the caller
// calls Step, and jumps with Seek. It owns a copy of the state; the replay
// is only read. Effects the game emits are dropped (the zero core.Effects
// holds none). A Player is not safe for concurrent use, and shares the
// Replay's decoding buffers, so use one Player per Replay at a time.
type Player[S any, I comparable] struct {
	rp    *Replay[S, I]
	game  core.Game[S, I]
	cur   S
	frame core.Frame      // steps taken: the next frame to step
	row   int             // the record holding frame, when frame < Frames
	in    []core.Input[I] // the inputs handed to Step, a copy of the record
	fx    discard
}

// NewPlayer returns a Player of rp at frame 0, holding the initial state.
func NewPlayer[S any, I comparable](rp *Replay[S, I], game core.Game[S, I]) *Player[S, I] {
	return &Player[S, I]{rp: rp, game: game, cur: rp.init, in: make([]core.Input[I], rp.b.hdr.Players)}
}

// Frame returns the number of frames stepped: the state is the one after
// frames 0 to Frame()-1, and the next Step runs frame Frame().
func (pl *Player[S, I]) Frame() core.Frame { return pl.frame }

// State returns the current state. It is valid until the next Step or
// Seek; do not modify it.
func (pl *Player[S, I]) State() *S { return &pl.cur }

// Step runs the next frame with its recorded inputs and reports true, or
// reports false, doing nothing, when every frame has been played.
func (pl *Player[S, I]) Step() bool {
	b := &pl.rp.b
	if pl.frame >= b.hdr.Frames {
		return false
	}
	for b.ends[pl.row] <= pl.frame {
		pl.row++
	}
	n := len(pl.in)
	copy(pl.in, b.rows[pl.row*n:(pl.row+1)*n])
	pl.game.Step(&pl.cur, pl.in, pl.fx)
	pl.frame++
	return true
}

// Seek moves the player to frame f (0 <= f <= Frames): it loads the
// nearest keyframe at or before f, or the initial state, and steps from
// there, unless stepping forward from the current frame is shorter. It
// returns an error ("replay: frame out of range"), and does not move, for
// a frame outside the replay.
func (pl *Player[S, I]) Seek(f core.Frame) error {
	h := &pl.rp.b.hdr
	if f < 0 || f > h.Frames {
		return fmt.Errorf("%s: seek to frame %d, replay has %d", outOfRange, f, h.Frames)
	}
	k := core.Frame(h.KeyframeInterval)
	if key := f / k * k; f < pl.frame || key > pl.frame {
		if key == 0 {
			pl.cur = pl.rp.init
		} else {
			pl.rp.keyframe(int(f/k)-1, &pl.cur)
		}
		pl.frame = key
		pl.row = rowAt(pl.rp.b.ends, key)
	}
	for pl.frame < f {
		pl.Step()
	}
	return nil
}

// discard is the Effects a replay steps the game with: a replay plays no
// effects, so it keeps none.
type discard struct{}

func (discard) Emit(core.Effect) bool { return true }
