package lobby

import "time"

// limiter allows burst messages at once and rate a second sustained, by
// the generic cell rate algorithm: tat is the time at which the sender
// would be back to a full burst, and a message is allowed while that is
// at most burst intervals ahead of now.
type limiter struct {
	tat      time.Time
	interval time.Duration // 1 s / rate
	slack    time.Duration // (burst-1) intervals
}

func newLimiter(rate, burst int) limiter {
	iv := time.Second / time.Duration(rate)
	return limiter{interval: iv, slack: time.Duration(burst-1) * iv}
}

// allow reports whether a message at time now is within the limits, and
// counts it if so.
func (l *limiter) allow(now time.Time) bool {
	tat := l.tat
	if tat.Before(now) {
		tat = now
	}
	if tat.Sub(now) > l.slack {
		return false
	}
	l.tat = tat.Add(l.interval)
	return true
}
