package rollback

import "testing"

// TestCoreConfigPassesEffectLimit checks that MaxEffectsPerFrame reaches
// the engine: without it a game emitting more than 16 effects in a frame
// would lose them with no way to raise the limit.
func TestCoreConfigPassesEffectLimit(t *testing.T) {
	c := testConfig(2, 0, 1)
	c.MaxEffectsPerFrame = 40
	cc, err := c.coreConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cc.MaxEffectsPerFrame != 40 {
		t.Errorf("core MaxEffectsPerFrame = %d, want 40", cc.MaxEffectsPerFrame)
	}
}
