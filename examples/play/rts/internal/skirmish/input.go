package skirmish

// Input is everything the viewer reads from the devices in one
// update, read once (by the command) or scripted (Autoplay), so the rest of
// the viewer works on plain values and can be tested without a display.
type Input struct {
	X, Y int // cursor, in screen pixels

	LeftPressed, LeftReleased bool // left button went down / up this update
	RightPressed              bool // right button went down this update
	MiddleDown                bool // middle button held (drag pans)
	Shift                     bool // Shift held: add to the selection
	AttackMove                bool // A held: a right click is an attack-move
	Squad                     int  // number key pressed: squad 1 to 10 (key 0), or 0
	All                       bool // E pressed: select every group
	Wheel                     float64
	PanX, PanY                float64 // arrow keys, in pixels (live mode)

	// Replay mode.
	Pause, StepForward, StepBack bool
	JumpBack, JumpForward        bool
	Home, End, Faster, Slower    bool
}
