package engine

import (
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/rollstep/rollstep/core"
)

// snapCopies counts the distinct state copies the engine holds for desync
// searches.
func (e *Engine[S, I]) snapCopies() int {
	var seen []*byte
	for i := range e.peers {
		if s := e.peers[i].snap; len(s) > 0 && !slices.Contains(seen, &s[0]) {
			seen = append(seen, &s[0])
		}
	}
	return len(seen)
}

// Four peers desyncing with one engine at the same frame share one copy of
// its state, and every search still names the nudged field.
func TestDesyncCopySharedAcrossPeers(t *testing.T) {
	nudgePath, _ := fieldAtOf[testState](int(unsafe.Offsetof(testState{}.Nudge)))
	h := newHarness(t, 5, 23, 200, func(i int, c *Config) {
		c.InputDelay, c.Prediction = 1, 8
	})
	h.nodes[0].game.nudge, h.nodes[0].game.nudgeAt = true, 61
	h.setLinks(link{latency: 30 * time.Millisecond, jitter: 40 * time.Millisecond, loss: 50})
	h.run(100000)
	for k := 0; k < 200; k++ { // let the searches finish
		h.step()
	}
	e := h.nodes[0].eng
	desynced := 0
	for i := range e.peers {
		if e.peers[i].desynced {
			desynced++
		}
	}
	if desynced != 4 {
		t.Fatalf("node 0 desynced with %d peers, want 4", desynced)
	}
	if got := e.snapCopies(); got != 1 {
		t.Fatalf("node 0 holds %d state copies for 4 peers desynced at one frame, want 1", got)
	}
	var fields []core.DesyncFieldsEvent
	for _, ev := range h.nodes[0].events {
		if f, ok := ev.(core.DesyncFieldsEvent); ok {
			fields = append(fields, f)
		}
	}
	if len(fields) != 4 {
		t.Fatalf("node 0: %d field events, want 4", len(fields))
	}
	for _, f := range fields {
		if f.Frame != 61 || f.Incomplete || !slices.Equal(f.Paths, []string{nudgePath}) {
			t.Fatalf("node 0: field event %+v, want frame 61 naming only %q", f, nudgePath)
		}
	}
	for i, nd := range h.nodes[1:] {
		if got := nd.eng.snapCopies(); got != 1 {
			t.Fatalf("node %d holds %d copies, want 1", i+1, got)
		}
	}
	// A gone peer's copy is released; the others keep the shared one.
	if err := e.DisconnectPeer(h.nodes[0].peerID[4]); err != nil {
		t.Fatal(err)
	}
	if e.peers[h.nodes[0].peerID[4]].snap != nil || e.snapCopies() != 1 {
		t.Fatalf("after a disconnect: gone peer's copy kept %v, %d copies", e.peers[h.nodes[0].peerID[4]].snap != nil, e.snapCopies())
	}
}
