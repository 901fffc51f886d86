package rollstep

import "time"

// Backoff of a yield that does not hold: a session dropped again soon
// after its yielded comeback resumed (within backoffWindow disconnect
// timeouts) waits before it yields again, twice as long after each such
// drop, from 2 disconnect timeouts up to 1<<maxStrikes (16).
const (
	backoffWindow = 4
	maxStrikes    = 4
)

// yieldBackoff spaces out the yields of a session that the match keeps
// dropping soon after each return: a link to some peer is still down (a
// partial partition), the others drop it again for a survivor that cannot
// hear it, and each return stalls them for a disconnect timeout.
type yieldBackoff struct {
	timeout time.Duration // the disconnect timeout
	back    bool          // a yielded comeback resumed at backAt, not dropped since
	backAt  time.Duration
	strikes int           // drops soon after a return, in a row
	retryAt time.Duration // no yield before
	told    bool          // a probe told the session it was dropped, at toldAt,
	toldAt  time.Duration // while it waited
}

// returned records that the session's yielded comeback resumed at now.
func (b *yieldBackoff) returned(now time.Duration) { b.back, b.backAt = true, now }

// mayYield reports whether a session told at now that it was dropped may
// yield now. The first word after a return decides how long it waits: a
// strike more if the return was recent, none left if not.
func (b *yieldBackoff) mayYield(now time.Duration) bool {
	if b.back {
		b.back = false
		if now-b.backAt < backoffWindow*b.timeout {
			b.strikes = min(b.strikes+1, maxStrikes)
			b.retryAt = now + b.timeout<<b.strikes
		} else {
			b.strikes = 0
		}
	}
	if now < b.retryAt {
		b.told, b.toldAt = true, now
		return false
	}
	b.told = false
	return true
}

// waiting reports whether, at now, the session waits out the backoff,
// told within the disconnect timeout that it was dropped.
func (b *yieldBackoff) waiting(now time.Duration) bool {
	return b.told && now-b.toldAt < b.timeout
}

// holds reports whether the backoff holds yields back at now.
func (b *yieldBackoff) holds(now time.Duration) bool { return now < b.retryAt }
