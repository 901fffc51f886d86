package rollstep

// Mode is the front end a match uses. The zero value is
// invalid: NewSession refuses it, so a forgotten Mode is an error rather
// than a silent default.
type Mode int

// The modes.
const (
	// The zero Mode is unset; NewSession refuses it.
	_ Mode = iota
	// Lockstep waits for every input of a turn before running it (D ≥ 1,
	// W = 0): package lockstep.
	Lockstep
	// Rollback predicts missing inputs and re-simulates on mispredictions
	// (W = 8 by default): package rollback.
	Rollback
	// Auto covers latency with input delay within a felt-lag budget and
	// predicts beyond it, moving between the two at any frame as the link
	// changes: package lockstep with a prediction window.
	Auto
)

// InputStyle is how AddLocalInput's inputs reach frames (Config.Inputs).
// The zero value means the mode's default: Held in Rollback, Queued in
// Lockstep and Auto.
type InputStyle uint8

// The input styles.
const (
	// Held inputs are state-style: AddLocalInput sets the input the
	// player holds, such as a pad's buttons, and every frame uses the
	// newest. A game calls it once per rendered frame.
	Held InputStyle = iota + 1
	// Queued inputs are command-style: AddLocalInput queues one, such as
	// an order, each frame takes the oldest queued input, or the zero I
	// when none is queued, and at most Config.MaxQueuedInputs wait. A game
	// calls it whenever the player acts.
	Queued
)

var modeNames = [...]string{"unknown", "lockstep", "rollback", "auto"}

// String returns the mode's name, such as "lockstep".
func (m Mode) String() string {
	if m >= 0 && int(m) < len(modeNames) {
		return modeNames[m]
	}
	return modeNames[0]
}
