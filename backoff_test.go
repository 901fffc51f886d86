package rollstep

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A session dropped again soon after each return waits 5 s, then 10, 20
// and 40 s (capped) before it yields again, at the default 2.5 s
// disconnect timeout; while it waits, each word that it was dropped keeps
// it waiting, and it says so for a timeout after the last one. A return
// that holds for four timeouts clears the strikes.
func TestYieldBackoff(t *testing.T) {
	const sec = time.Second
	b := yieldBackoff{timeout: 2500 * time.Millisecond}
	require.True(t, b.mayYield(0), "no return yet: no backoff")
	now := time.Duration(0)
	for _, wait := range []time.Duration{5 * sec, 10 * sec, 20 * sec, 40 * sec, 40 * sec} {
		b.returned(now)
		now += 3 * sec // dropped again 3 s after the return
		require.False(t, b.mayYield(now))
		require.True(t, b.waiting(now+2*sec))
		require.False(t, b.waiting(now+3*sec), "no word for a timeout")
		require.False(t, b.mayYield(now+wait-time.Millisecond), "before %v", wait)
		require.True(t, b.waiting(now+wait-time.Millisecond))
		now += wait
		require.True(t, b.mayYield(now), "after %v", wait)
		require.False(t, b.waiting(now))
	}
	b.returned(now)
	now += 10 * sec // the return held for four timeouts
	require.True(t, b.mayYield(now))
	b.returned(now)
	now += sec
	require.False(t, b.mayYield(now))
	require.True(t, b.mayYield(now+5*sec), "the strikes started over")
}
