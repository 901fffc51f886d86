package transfer

import "time"

// bucket is a token bucket on bytes in virtual time. Credit is kept in
// byte·nanoseconds, so a rate in bytes per second refills without
// rounding: a byte costs 1e9 and a nanosecond earns rate.
type bucket struct {
	rate     int64         // bytes per second, in [1, MaxRate]
	capacity int64         // the burst, in byte·ns
	credit   int64         // in [0, capacity], as of at
	at       time.Duration // the time credit was last refilled to
}

const nsPerSecond = int64(time.Second)

func newBucket(rate, burst int) bucket {
	return bucket{rate: int64(rate), capacity: int64(burst) * nsPerSecond}
}

// fill starts the bucket full at now.
func (b *bucket) fill(now time.Duration) {
	b.credit, b.at = b.capacity, now
}

// refill adds the credit earned since the last refill. A clock that went
// backwards earns nothing.
func (b *bucket) refill(now time.Duration) {
	if now <= b.at {
		return
	}
	elapsed := int64(now - b.at)
	b.at = now
	room := b.capacity - b.credit
	if elapsed > room/b.rate {
		b.credit = b.capacity
		return
	}
	b.credit += elapsed * b.rate // at most room: no overflow
}

// take spends the credit for n bytes if there is enough of it.
func (b *bucket) take(n int) bool {
	cost := int64(n) * nsPerSecond
	if b.credit < cost {
		return false
	}
	b.credit -= cost
	return true
}

// readyAt returns the earliest time take(n) can succeed; n·1e9 must not
// exceed the capacity.
func (b *bucket) readyAt(n int) time.Duration {
	need := int64(n)*nsPerSecond - b.credit
	if need <= 0 {
		return b.at
	}
	return b.at + time.Duration((need+b.rate-1)/b.rate)
}
