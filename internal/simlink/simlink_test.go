package simlink

import "testing"

func TestDropReasonString(t *testing.T) {
	for r, want := range map[DropReason]string{DropNone: "none", DropCut: "cut", DropLoss: "loss", DropQueue: "queue", 9: "DropReason(9)"} {
		if got := r.String(); got != want {
			t.Errorf("%d: got %q, want %q", r, got, want)
		}
	}
}
