package core

// Effect is one side effect a frame's Step asks the game to play: a sound,
// a particle burst, a rumble. The engine treats it as an opaque comparable
// value: Kind names what to play and Args carry its parameters (a sound id,
// a position in fixed-point raw units, ...). Two effects are the same
// effect when all their fields are equal.
type Effect struct {
	Kind uint32   // what to play, defined by the game
	Args [3]int64 // its parameters, defined by the game
}

// FrameEffect is an Effect together with the frame whose Step emitted it.
type FrameEffect struct {
	Frame  Frame  // the frame whose Step emitted Effect
	Effect Effect // the effect
}

// Effects collects the effects one call of Step emits. The engine owns
// the value behind it and resets it before every Step; Step must not
// retain it. A unit test of a game can pass any type with an Emit method.
//
// # Delivery contract
//
// A frame may be simulated several times: once with predicted inputs and
// again after each correction. The engine compares what each simulation of
// a frame emitted with what it already delivered for that frame, and at the
// end of an update reports as new only the effects not delivered before,
// and as cancelled those delivered earlier that the newest simulation no
// longer emits. So a punch sound predicted at frame 40 and
// confirmed by the real input plays once; a punch that the real input
// turns into a block is reported cancelled, and the block's sound is new.
// Effects of a frame become final when the frame is confirmed. Sync-test
// re-simulations never deliver effects.
type Effects interface {
	// Emit records e. It returns false, and drops e, when the frame has
	// already emitted as many effects as the match allows.
	Emit(e Effect) bool
}
