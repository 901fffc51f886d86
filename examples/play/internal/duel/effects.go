package duel

import (
	"slices"

	"github.com/rollstep/rollstep/core"
)

// sparkFrames is how many rendered frames a hit spark lasts on screen.
const sparkFrames = 18

// Voice is a sound being played: Stop silences it at once.
type Voice interface{ Stop() }

// Voices starts the sound of an effect, or returns nil for an effect
// without one (or a machine without sound).
type Voices func(e core.Effect) Voice

// Playing is one effect the screen is playing: its sound and, for a hit
// or a block, its spark's age in rendered frames.
type Playing struct {
	core.FrameEffect
	// Age counts the rendered frames since the effect started.
	Age   int
	voice Voice
}

// Effects are the effects being played, in the order they started. An
// effect stays until its spark has faded; an effect that a rollback
// cancels is removed at once and its sound stopped, so a hit that the real
// input turned into a block neither sparks nor sounds.
type Effects struct {
	// Live are the effects on screen, oldest first.
	Live   []Playing
	voices Voices
	// Played counts the effects started since the match began and
	// Cancelled the cancellations received (an effect cancelled after its
	// spark faded has nothing left to stop, but is counted).
	Played, Cancelled int
}

// apply starts the effects of play and stops those of cancel. The
// session delivers each effect of a frame once and cancels only effects
// it delivered, so neither list needs deduplication.
func (e *Effects) apply(play, cancel []core.FrameEffect) {
	for _, c := range cancel {
		if i := slices.IndexFunc(e.Live, func(p Playing) bool { return p.FrameEffect == c }); i >= 0 {
			if v := e.Live[i].voice; v != nil {
				v.Stop()
			}
			e.Live = slices.Delete(e.Live, i, i+1)
		}
		e.Cancelled++
	}
	for _, fe := range play {
		var v Voice
		if e.voices != nil {
			v = e.voices(fe.Effect)
		}
		e.Live = append(e.Live, Playing{FrameEffect: fe, voice: v})
		e.Played++
	}
}

// Age moves every effect on screen one rendered frame older and forgets
// those whose spark has faded (their sounds are short and end by
// themselves).
func (e *Effects) Age() {
	e.Live = slices.DeleteFunc(e.Live, func(p Playing) bool { return p.Age >= sparkFrames })
	for i := range e.Live {
		e.Live[i].Age++
	}
}

// Fade returns how far an effect's spark has faded, from 0 (new) to 1
// (gone).
func (p Playing) Fade() float64 { return float64(p.Age) / sparkFrames }

// stopAll silences every effect still playing.
func (e *Effects) stopAll() {
	for _, p := range e.Live {
		if p.voice != nil {
			p.voice.Stop()
		}
	}
	e.Live = nil
}
