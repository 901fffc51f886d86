package fighter

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/state"
)

// Bot plays one fighter the way a steady player does: it looks at the
// screen, picks an intention (close in, attack high or low, block, jump,
// back off) and holds those buttons for a few frames before it looks
// again. It is deterministic for a seed. A Bot runs outside the step (it is
// the player's hands), so it keeps its own random source rather than one in
// State, and it may see a predicted state, as a player sees one.
type Bot struct {
	// Player is the handle of the player the bot plays, 0 or 1.
	Player int
	rand   state.Rand
	held   Buttons
	hold   uint32 // frames left before the bot looks again
}

// NewBot returns a bot for player, seeded with seed; two bots with one
// seed and different players play differently.
func NewBot(player int, seed uint64) *Bot {
	return &Bot{Player: player, rand: state.NewRand(seed ^ uint64(player+1)*0x9e3779b97f4a7c15)}
}

// Next returns the bot's input for its next frame, given the state it
// sees.
func (b *Bot) Next(s *State) Input {
	if b.hold > 0 {
		b.hold--
		return Input{Buttons: b.held}
	}
	if b.Player < 0 || b.Player > 1 {
		return Input{}
	}
	me, them := &s.Fighters[b.Player], &s.Fighters[1-b.Player]
	toward, away := Right, Left
	if them.Pos.X < me.Pos.X {
		toward, away = Left, Right
	}
	dist := (them.Pos.X - me.Pos.X).Abs()
	r := b.rand.Uint32N(100)
	var held Buttons
	switch {
	case s.Over > 0:
		held = 0
	case them.Action == ActionAttack && dist < fixed.FromInt(40) && r < 55:
		held = Block // most of the time the bot sees it coming
		if them.Attack == AttackLow && r < 35 {
			held |= Down
		}
	case dist > fixed.FromInt(36):
		switch {
		case r < 70:
			held = toward
		case r < 80:
			held = Up | toward
		case r < 90:
			held = away
		}
	default:
		switch {
		case r < 35:
			held = Attack
		case r < 55:
			held = Attack | Down
		case r < 70:
			held = Block
		case r < 80:
			held = Up | away
		case r < 90:
			held = away
		}
	}
	b.held = held
	b.hold = 2 + b.rand.Uint32N(6)
	return Input{Buttons: held}
}

// BotInputs returns a scripted player for benchmarks and tools that need
// inputs as a pure function of the player and the frame (such as
// bench.FitsWindow): each player holds one of a few button combinations
// (walk in, attack high or low, block standing or crouching, jump in, back
// off) for spans of 8 frames, chosen by a hash of seed, player and span.
// Something is always held, so the input is never the zero Input, the
// value a predictor guesses before it knows better. Unlike a Bot it does
// not look at the state.
func BotInputs(seed uint64) func(p core.PlayerHandle, f core.Frame) Input {
	return func(p core.PlayerHandle, f core.Frame) Input {
		toward, away := Right, Left
		if p%2 == 1 {
			toward, away = Left, Right
		}
		choices := [8]Buttons{toward, toward, Attack, Attack | Down, Block, Block | Down, Up | toward, away}
		h := mix(seed ^ uint64(p)<<48 ^ uint64(uint32(f)/8))
		return Input{Buttons: choices[h%uint64(len(choices))]}
	}
}

// mix is the SplitMix64 finalizer: a bijective scramble of x.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
