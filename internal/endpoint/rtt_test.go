package endpoint

import (
	"testing"
	"time"
)

// TestForgedEchoes: a peer's Echo and EchoDelay cannot wrap the endpoint's
// round-trip estimate or push it past rtt.Max (before, an EchoDelay of
// -1 h made a 1-hour RTT and an Echo from our future counted as 0).
func TestForgedEchoes(t *testing.T) {
	var q peer
	now := 10 * time.Second
	q.sampled(now, true, 0, -time.Hour)
	q.sampled(now, true, now+time.Second, 0)
	q.sampled(now, true, -time.Hour, 0)
	if q.samples != 0 {
		t.Fatalf("%d samples (RTT %v) from forged echoes, want 0", q.samples, q.srtt)
	}
	q.sampled(now, true, 9*time.Second, 50*time.Millisecond)
	if q.samples != 1 || q.srtt != 950*time.Millisecond {
		t.Fatalf("%d samples, RTT %v; want 1, 950ms", q.samples, q.srtt)
	}
}
