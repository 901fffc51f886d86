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

var modeNames = [...]string{"unknown", "lockstep", "rollback", "auto"}

// String returns the mode's name, such as "lockstep".
func (m Mode) String() string {
	if m >= 0 && int(m) < len(modeNames) {
		return modeNames[m]
	}
	return modeNames[0]
}
