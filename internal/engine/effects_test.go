package engine

import (
	"testing"

	"github.com/rollstep/rollstep/core"
)

func TestEffectListOutsideAnEngine(t *testing.T) {
	fx := NewEffectList(2)
	for i := range 3 {
		ok := fx.Emit(core.Effect{Kind: uint32(i)})
		if want := i < 2; ok != want {
			t.Errorf("Emit #%d = %v, want %v", i, ok, want)
		}
	}
	if fx.Len() != 2 || fx.At(1).Kind != 1 || fx.Dropped() != 1 {
		t.Errorf("Len %d, At(1) %+v, Dropped %d; want 2, kind 1, 1", fx.Len(), fx.At(1), fx.Dropped())
	}
	fx.Reset()
	if fx.Len() != 0 || fx.Dropped() != 0 || !fx.Emit(core.Effect{Kind: 9}) {
		t.Errorf("after Reset: Len %d, Dropped %d", fx.Len(), fx.Dropped())
	}
	if zero := NewEffectList(0); zero.Emit(core.Effect{}) || zero.Dropped() != 1 {
		t.Errorf("NewEffectList(0) kept an effect (dropped %d), want it dropped", zero.Dropped())
	}
}
