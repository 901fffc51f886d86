package fighter

import (
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/state"
)

// Arena and body sizes, in world units. X grows to the right, Y upwards,
// and the ground is Y = 0. A fighter's Pos is the middle of its feet.
const (
	// ArenaWidth is the distance between the two walls.
	ArenaWidth = 320
	// HalfWidth is half a fighter's width: its hurtbox spans Pos.X ±
	// HalfWidth, and the walls stop it HalfWidth from their face.
	HalfWidth = 8
	// StandHeight is the height of a standing or airborne fighter's
	// hurtbox.
	StandHeight = 32
	// CrouchHeight is the height of a crouching fighter's hurtbox.
	CrouchHeight = 20
	// StartGap is the distance between the fighters when a round starts,
	// before the random offset of at most StartJitter either way.
	StartGap = 120
	// StartJitter bounds the random shift of both fighters at a round
	// start, drawn from State.Rand.
	StartJitter = 8
)

// Movement tuning, in world units per frame (speeds) and per frame squared
// (Gravity). Typed constants, so no importer can change them and desync
// its peers; each is an exact multiple of a power-of-two fraction of One.
const (
	// WalkSpeed is how far a walking fighter moves in one frame.
	WalkSpeed = fixed.One * 5 / 2
	// JumpSpeed is the horizontal speed of a jump taken with left or right
	// held.
	JumpSpeed = fixed.One * 3
	// JumpVelocity is the upward speed at take-off.
	JumpVelocity = fixed.One * 9
	// Gravity is subtracted from the vertical speed of an airborne fighter
	// every frame. A jump lasts 2·JumpVelocity/Gravity - 1 = 23 frames (the
	// take-off frame already applies gravity once).
	Gravity = fixed.One * 3 / 4
	// Friction scales the pushback speed of a grounded fighter in hitstun
	// or blockstun every frame.
	Friction = fixed.One * 3 / 4
)

// GameID identifies this version of the simulation: sessions put it in
// their handshake (peers with another value refuse each other) and replays
// in their header (a replay of another version is refused). Change it
// whenever Step, State or Input changes.
var GameID = [16]byte{'r', 'o', 'l', 'l', 's', 't', 'e', 'p', '/', 'f', 'i', 'g', 'h', 't', 'v', '1'}

// Match rules.
const (
	// MaxHealth is every fighter's health at the start of a round.
	MaxHealth = 100
	// RoundFrames is the length of a round: at 60 frames per second, 45
	// seconds. When it runs out, the fighter with more health wins it.
	RoundFrames = 45 * 60
	// RoundOverFrames is the pause between a round's end and the next
	// round, during which inputs are ignored.
	RoundOverFrames = 90
)

// Buttons is a set of held buttons, one bit each. The zero value is
// nothing held.
type Buttons uint8

// The buttons.
const (
	Left   Buttons = 1 << iota // walk (or jump) left
	Right                      // walk (or jump) right
	Up                         // jump
	Down                       // crouch; with Attack a low attack
	Attack                     // attack: high standing, low crouching
	Block                      // block an attack from the front
)

// Has reports whether every button of m is held in b.
func (b Buttons) Has(m Buttons) bool { return b&m == m }

// Input is one player's input for one frame: the buttons held. It is one
// byte on the wire and arena-serializable; the zero Input is "nothing
// held", which is also what a disconnected player sends.
type Input struct {
	// Buttons are the held buttons.
	Buttons Buttons
}

// Action is what a fighter is doing. The zero value, ActionIdle, is a
// fighter standing still on the ground.
type Action uint8

// The actions.
const (
	ActionIdle      Action = iota // standing on the ground, free to act
	ActionWalk                    // walking; free to act
	ActionCrouch                  // crouching; free to act
	ActionBlock                   // holding block, standing or crouching; free to act
	ActionJump                    // airborne after a jump; no control until landing
	ActionAttack                  // in an attack's startup, active or recovery frames
	ActionHitstun                 // hit: no control until Timer runs out
	ActionBlockstun               // blocked a hit: no control until Timer runs out
)

// AttackKind says which attack a fighter in ActionAttack is doing.
type AttackKind uint8

// The attacks. The zero value, AttackNone, is the attack of a fighter that
// is not attacking.
const (
	AttackNone AttackKind = iota // not attacking
	AttackHigh                   // standing attack: blocked standing or crouching
	AttackLow                    // crouching attack: blocked only crouching
)

// Result is how a round ended. The zero value, ResultNone, means no round
// has ended yet.
type Result uint8

// The results.
const (
	ResultNone    Result = iota // no round ended yet
	ResultPlayer0               // player 0 won
	ResultPlayer1               // player 1 won
	ResultDraw                  // both fell at once, or time ran out at equal health
)

// Fighter is one player's fighter. Its 64 bytes have the same layout on
// 32- and 64-bit targets: the two Vec2 first, then the 4-byte fields, then
// the single bytes and explicit padding.
type Fighter struct {
	// Pos is the middle of the fighter's feet.
	Pos fixed.Vec2
	// Vel is the fighter's speed in units per frame.
	Vel fixed.Vec2
	// Health is what is left of MaxHealth; the round ends at 0.
	Health int32
	// Timer counts frames in the current action: up from 0 in
	// ActionAttack, down to 0 in hitstun and blockstun.
	Timer int32
	// Wins counts the rounds this fighter won.
	Wins int32
	// Hits counts the attacks this fighter landed, Blocked those it
	// blocked, over the whole match.
	Hits, Blocked int32
	// Action is what the fighter is doing.
	Action Action
	// Attack is the attack in progress, when Action is ActionAttack.
	Attack AttackKind
	// Facing is +1 when the fighter faces right, -1 when it faces left.
	Facing int8
	// Crouching reports a crouching hurtbox (crouch, crouching block or
	// low attack).
	Crouching bool
	// Connected reports that the attack in progress has hit or been
	// blocked: an attack connects at most once.
	Connected bool
	_         [7]byte
}

// State is the whole simulation state of a fighter match: two fighters,
// the round clock and the random source for round starts.
type State struct {
	// Frame counts the steps taken.
	Frame int32
	// Round is the number of the round in progress, from 1.
	Round int32
	// RoundFrame counts the frames of the round in progress.
	RoundFrame int32
	// Over counts down the pause after a round ended; 0 while fighting.
	Over int32
	// Fighters are player 0's and player 1's fighters.
	Fighters [2]Fighter
	// Rand shifts the start positions of every round.
	Rand state.Rand
	// Last is the result of the newest finished round.
	Last Result
	_    [7]byte
}

// New returns the initial state of a match seeded with seed: round 1 about
// to start. Every peer calls it with the same seed and gets the same bytes.
func New(seed uint64) State {
	s := State{Rand: state.NewRand(seed)}
	s.startRound()
	return s
}

// startRound resets both fighters for the next round.
func (s *State) startRound() {
	s.Round++
	s.RoundFrame, s.Over = 0, 0
	shift := int64(s.Rand.Int32N(2*StartJitter+1)) - StartJitter
	mid := int64(ArenaWidth/2) + shift
	for p := range s.Fighters {
		f := &s.Fighters[p]
		wins, hits, blocked := f.Wins, f.Hits, f.Blocked
		*f = Fighter{Health: MaxHealth, Wins: wins, Hits: hits, Blocked: blocked, Facing: 1}
		f.Pos.X = fixed.FromInt(mid - StartGap/2)
		if p == 1 {
			f.Pos.X = fixed.FromInt(mid + StartGap/2)
			f.Facing = -1
		}
	}
}

// Winner returns the player with more round wins and true, or false when
// the match is even.
func (s *State) Winner() (player int, ok bool) {
	a, b := s.Fighters[0].Wins, s.Fighters[1].Wins
	switch {
	case a > b:
		return 0, true
	case b > a:
		return 1, true
	}
	return 0, false
}
