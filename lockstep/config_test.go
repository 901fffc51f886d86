package lockstep

import (
	"errors"
	"testing"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
)

// TestEngineConfigPassesEffectLimit checks that MaxEffectsPerFrame reaches
// the engine (an RTS turn with many deaths emits more than the default 16
// effects) and that a bad value is refused naming the field.
func TestEngineConfigPassesEffectLimit(t *testing.T) {
	c := Config{Players: 2, Local: []core.PlayerHandle{0}, Peers: []Peer{{Addr: transport.PeerID(1), Players: []core.PlayerHandle{1}}}}
	c.MaxEffectsPerFrame = 200
	d := c.withDefaults()
	if got := d.engineConfig().MaxEffectsPerFrame; got != 200 {
		t.Errorf("core MaxEffectsPerFrame = %d, want 200", got)
	}
	c.MaxEffectsPerFrame = -1
	var ce *core.ConfigError
	if err := c.Validate(); !errors.As(err, &ce) || ce.Field != "MaxEffectsPerFrame" {
		t.Errorf("Validate with -1: %v, want a *core.ConfigError for MaxEffectsPerFrame", err)
	}
}
