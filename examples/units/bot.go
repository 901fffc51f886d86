package units

import "github.com/rollstep/rollstep/state"

// Bot makes a player's orders the way a busy player would: every frame,
// with probability 1/Every, it sends one of its units to a random point.
// It is deterministic for a seed. A Bot runs outside the step (it is the
// player's hands), so it keeps its own random source rather than one in
// State.
type Bot struct {
	// Player is the handle of the player the bot plays.
	Player int
	// Every is the mean number of frames between orders; 0 or 1 means an
	// order every frame.
	Every uint32
	rand  state.Rand
}

// NewBot returns a bot for player, seeded with seed, ordering once every
// `every` frames on average.
func NewBot(player int, every uint32, seed uint64) *Bot {
	return &Bot{Player: player, Every: every, rand: state.NewRand(seed ^ uint64(player+1)*0x9e3779b97f4a7c15)}
}

// Next returns the bot's order for its next frame, given the state it
// sees (which may be predicted: a bot reacts to what is on its screen).
func (b *Bot) Next(s *State) Order {
	if b.Every > 1 && b.rand.Uint32N(b.Every) != 0 {
		return Order{}
	}
	players := int(s.Players)
	count := int(s.clampedCount())
	if players < 1 || b.Player >= count || b.Player >= players {
		return Order{}
	}
	owned := (count - b.Player + players - 1) / players // units b.Player, b.Player+players, ...
	i := b.Player + int(b.rand.Uint32N(uint32(owned)))*players
	return Order{
		Unit: uint16(i),
		Kind: OrderMove,
		X:    int16(b.rand.Uint32N(MapSize)),
		Y:    int16(b.rand.Uint32N(MapSize)),
	}
}
