package engine

import (
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// A checksum report that never arrives (say every copy of it was lost)
// must not stop the comparisons: once the sender's ring no longer holds
// it, the sender cannot resend it, and the receiver stops waiting for it.
// Here every copy of frame 5's report from engine 1 is dropped; engine 1's
// state is nudged at frame 300, and engine 0 must still see the desync.
func TestChecksumGapDoesNotStopComparisons(t *testing.T) {
	mk := func(local core.PlayerHandle, g *testGame) *Engine[testState, testInput] {
		c := Config{Players: 2, Local: []core.PlayerHandle{local}, Peers: [][]core.PlayerHandle{{1 - local}}, InputDelay: 1, Prediction: 8, MaxPrediction: 8}
		e, err := NewEngine[testState, testInput](c, g, &testState{})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	e0 := mk(0, &testGame{})
	e1 := mk(1, &testGame{nudge: true, nudgeAt: 300})
	engs := [2]*Engine[testState, testInput]{e0, e1}
	var desync *core.DesyncEvent[testState]
	for f := core.Frame(0); f < 400; f++ {
		now := time.Duration(f) * time.Millisecond
		var out [2]*Message[Slot[testInput]]
		for i, e := range engs {
			_ = e.AddLocalInput(core.PlayerHandle(i), genInput(2, i, f))
			r := e.Advance(now)
			for _, ev := range r.Events {
				if d, ok := ev.(core.DesyncEvent[testState]); ok && i == 0 && desync == nil {
					desync = &d
				}
			}
			out[i] = cloneMessage(r.Messages[0].Message)
		}
		out[1].Checksums = slices.DeleteFunc(out[1].Checksums, func(r ChecksumReport) bool { return r.Frame == 5 })
		for i, e := range engs {
			if err := e.Receive(now, 0, out[1-i]); err != nil {
				t.Fatalf("frame %d: engine %d: %v", f, i, err)
			}
		}
	}
	if desync == nil {
		t.Fatalf("engine 0 saw no desync after frame 5's report was lost (%d reports skipped)", e0.Stats().SkippedReports)
	}
	if desync.Frame != 300 {
		t.Errorf("desync at frame %d, want 300", desync.Frame)
	}
	if got := e0.Stats().SkippedReports; got != 1 {
		t.Errorf("SkippedReports = %d, want 1 (frame 5)", got)
	}
}
