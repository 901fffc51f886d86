package engine

// The game speeds SetSpeed accepts, in percent of normal.
const (
	MinSpeed = 1
	MaxSpeed = 1000
)
