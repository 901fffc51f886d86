package webrtc

import (
	"testing"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
)

// The matches these tests play run on the real clock, over pion's
// goroutines, on a machine CI may load heavily (the race detector slows
// pion several times): a pause of a few seconds is the machine's, not the
// link's. The exported names are for the external test package too.

// MatchTransport is the transport of a test match keyed by token: its
// disconnect timeout is the tests' own bound, so that a slow machine
// fails a test with "the match did not end", not with a split that
// made the peers' states differ.
func MatchTransport(token uint64) transport.Config {
	return transport.Config{Token: token, DisconnectTimeout: testWait}
}

// CheckLifeCycle drains peer's session s of its events and fails t on
// any that says the match came apart: a peer lost otherwise than by its
// Leave at the agreed end, or a split. Call it after every Update, so
// that a test that fails on the peers' states says why they differ.
func CheckLifeCycle[S any, I comparable](t testing.TB, peer int, s *rollstep.Session[S, I]) {
	t.Helper()
	for _, ev := range s.Events() {
		switch ev := ev.(type) {
		case core.PeerLostEvent:
			if !ev.Left || ev.Reason != core.LeaveEnded {
				t.Errorf("peer %d at frame %d: %T %+v", peer, s.Frame(), ev, ev)
			}
		case core.SplitEvent:
			t.Errorf("peer %d at frame %d: %T %+v", peer, s.Frame(), ev, ev)
		}
	}
}
