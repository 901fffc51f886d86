// Package rtt checks the round-trip samples a peer's packets imply, for
// core's and internal/endpoint's estimators alike.
//
// A peer's packet echoes a timestamp of ours (Echo) and says how long it
// held it (EchoDelay); the round trip is now − Echo − EchoDelay. Both
// values come from the peer, so a peer that holds the session token can
// forge them: Sample refuses what no honest peer produces, so that one
// forged packet cannot wrap the estimate or push it to minutes.
package rtt

import "time"

// Max is the longest round trip Sample accepts. A link slower than this
// cannot carry a real-time match; a longer sample is forged or broken.
const Max = 10 * time.Second

// Sample returns the round trip that a packet received at now implies,
// echoing our timestamp echo after holding it for echoDelay, and whether
// it is plausible: echo is one of our timestamps (not negative, not in our
// future), echoDelay is not negative, and the round trip is at most Max. The round trip may be slightly
// negative when the peer's clock runs fast; callers decide what a
// negative sample means.
func Sample(now, echo, echoDelay time.Duration) (time.Duration, bool) {
	if echo < 0 || echo > now || echoDelay < 0 {
		return 0, false
	}
	r := now - echo - echoDelay
	return r, r <= Max
}

// Outlier bounds how far one sample may pull an estimate: a sample above
// Outlier(srtt) counts as that value. A genuine step in latency (a route
// change, a spike) passes within a sample or two, since each raises the
// bound; one forged or freak sample of seconds moves a 50 ms estimate by
// tens of milliseconds instead of most of the way.
func Outlier(srtt time.Duration) time.Duration { return 4*srtt + 200*time.Millisecond }
