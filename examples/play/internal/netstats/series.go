package netstats

// Series is a ring of the newest samples of one quantity.
type Series struct {
	v    []float64
	next int
	full bool
}

func newSeries(n int) Series { return Series{v: make([]float64, n)} }

// push appends x, dropping the oldest sample once the ring is full.
func (s *Series) push(x float64) {
	s.v[s.next] = x
	s.next++
	if s.next == len(s.v) {
		s.next, s.full = 0, true
	}
}

// Len is the number of samples held.
func (s *Series) Len() int {
	if s.full {
		return len(s.v)
	}
	return s.next
}

// At returns the i-th oldest sample held.
func (s *Series) At(i int) float64 {
	if s.full {
		i = (s.next + i) % len(s.v)
	}
	return s.v[i]
}

// Last returns the newest sample, or 0 when there is none.
func (s *Series) Last() float64 {
	if s.Len() == 0 {
		return 0
	}
	return s.At(s.Len() - 1)
}

// Max returns the largest sample held, or 0 when there is none.
func (s *Series) Max() float64 {
	m := 0.0
	for i := range s.Len() {
		m = max(m, s.At(i))
	}
	return m
}

// Min returns the smallest sample held, or 0 when there is none.
func (s *Series) Min() float64 {
	n := s.Len()
	if n == 0 {
		return 0
	}
	m := s.At(0)
	for i := 1; i < n; i++ {
		m = min(m, s.At(i))
	}
	return m
}
