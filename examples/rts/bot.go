package rts

import "github.com/rollstep/rollstep/state"

// Bot plays one player the way a busy player would: on average once every
// Every turns it takes one of its control groups and either clicks it onto
// a live enemy unit (an attack) or sends it toward an enemy base (or, now
// and then, to a random point). It is deterministic for a seed. A Bot runs
// outside the step (it is the player's hands), so its random source lives
// in the Bot, not in State.
type Bot struct {
	// Player is the handle of the player the bot plays.
	Player int
	// Every is the mean number of turns between commands; 0 or 1 means a
	// command every turn.
	Every uint32
	rand  state.Rand
}

// NewBot returns a bot for player, seeded with seed, commanding once every
// `every` turns on average.
func NewBot(player int, every uint32, seed uint64) *Bot {
	return &Bot{Player: player, Every: every, rand: state.NewRand(seed ^ uint64(player+1)*0x9e3779b97f4a7c15)}
}

// Next returns the bot's command for its next turn given the state it
// sees, or the zero Command (no command). Which turns get a command, its
// kind and its group come from the bot's random source alone, and it
// draws the same random values whatever the state: a match with more
// units makes the same number and kinds of commands.
func (b *Bot) Next(s *State) Command {
	if b.Every > 1 && b.rand.Uint32N(b.Every) != 0 {
		return Command{}
	}
	group, choice, pick, enemy := b.rand.Uint32N(Groups), b.rand.Uint32N(10), b.rand.Uint32(), b.rand.Uint32()
	x, y := int16(b.rand.Uint32N(MapSize)), int16(b.rand.Uint32N(MapSize))
	players, n := int(s.Players), int(s.count())
	if players < MinPlayers || players > MaxPlayers || b.Player >= players {
		return Command{}
	}
	c := Command{Kind: KindMove, Group: uint8(group), X: x, Y: y}
	if choice >= 8 {
		return c // a random point
	}
	e := (b.Player + 1 + int(enemy%uint32(players-1))) % players
	base := Base(e, players)
	c.X, c.Y = int16(base.X.Int())+x%64-32, int16(base.Y.Int())+y%64-32
	if choice < 4 {
		c.Kind = KindAttack // on the enemy base, unless a live enemy is found
		for k := range min(n, 8) {
			i := (int(pick%uint32(n)) + k*7919) % n
			if u := &s.Units[i]; u.Alive() && int(u.Owner) != b.Player {
				c.X, c.Y = int16(u.Pos.X.Int()), int16(u.Pos.Y.Int())
				break
			}
		}
	}
	return c
}
