package core

// Frame numbers a simulation step. Frame 0 is the first step; the state
// "after frame f" is the state once Step has run for frames 0 through f.
type Frame int32

// PlayerHandle is a player's index, from 0 to Config.Players-1. Inputs are
// passed to Step in handle order, never in arrival order.
type PlayerHandle int

// PeerID names a remote peer: it is the index of the peer in Config.Peers.
type PeerID int

// MaxPlayers is the largest number of players one match can have.
const MaxPlayers = 16

// InputStatus says where an input given to Step came from. The zero value
// is never passed to Step.
type InputStatus uint8

const (
	// InputConfirmed is the player's real input for the frame.
	InputConfirmed InputStatus = iota + 1
	// InputPredicted is a guess (see rollstep.Session.SetPredictor): the real input has
	// not arrived, and the frame will be re-simulated if the guess was wrong.
	InputPredicted
	// InputDisconnected marks a player who left the match at or before this
	// frame. The value is the zero value of I. The frame from which a player
	// is disconnected is agreed by every peer (see DisconnectPeer).
	InputDisconnected
	// InputFilled is a confirmed input the engine filled in because the
	// player's D rose, skipping the frame: its Value is the player's
	// previous input (the zero value for queued, command-style inputs). Every peer
	// sees the same status for the frame, so Step may treat it like a
	// real input (state-style inputs: the player still holds the button)
	// or like no input (command-style: a copy would repeat a command).
	InputFilled
)

// String returns the status name.
func (st InputStatus) String() string {
	switch st {
	case InputConfirmed:
		return "confirmed"
	case InputPredicted:
		return "predicted"
	case InputDisconnected:
		return "disconnected"
	case InputFilled:
		return "filled"
	}
	return "unknown"
}

// Input is one player's input for one frame as given to Step.
type Input[I comparable] struct {
	// Value is the input. It is the zero value when Status is
	// InputDisconnected.
	Value I
	// Status says whether Value is real, predicted or a disconnection.
	Status InputStatus
}

// Game is the deterministic simulation the engine runs.
//
// Step advances s by one frame. inputs has one entry per player, in handle
// order; the slice is owned by the engine and valid only during the call.
// Step must depend on nothing but s and inputs (no clocks, no map
// iteration order, no globals, no floats), or peers desync. It may treat
// InputDisconnected and InputFilled specially, but must not let the state depend on
// whether an input is InputConfirmed or InputPredicted (a correct
// prediction is not re-simulated, and peers see different statuses);
// use the status only for presentation. it emits sounds,
// particles and other side effects into fx instead of playing them, and the
// engine delivers them once per frame (see Effects).
//
// S must be arena-serializable (see package state): the engine saves it by
// copying, so any data outside S is invisible to rollback.
type Game[S any, I comparable] interface {
	Step(s *S, inputs []Input[I], fx Effects)
}

// GameFunc adapts a function to the Game interface.
type GameFunc[S any, I comparable] func(s *S, inputs []Input[I], fx Effects)

// Step calls f(s, inputs, fx).
func (f GameFunc[S, I]) Step(s *S, inputs []Input[I], fx Effects) { f(s, inputs, fx) }
