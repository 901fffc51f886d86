package sim

// String returns s as H/S/P (height, length and period), as in
// "400ms/600ms/2s", the form that the -spike flag of cmd/rollstep reads,
// or "none" for the zero Spike.
func (s Spike) String() string {
	if s.isZero() {
		return "none"
	}
	return s.Height.String() + "/" + s.Length.String() + "/" + s.Period.String()
}

// String returns l as "50ms", "50ms±10ms" or
// "50ms±10ms spike 400ms/600ms/2s", the form that the -latency flag of
// cmd/rollstep reads.
func (l Latency) String() string {
	s := l.Base.String()
	if l.Jitter != 0 {
		s += "±" + l.Jitter.String()
	}
	if !l.Spike.isZero() {
		s += " spike " + l.Spike.String()
	}
	return s
}
