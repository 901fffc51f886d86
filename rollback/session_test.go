package rollback

import (
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

func TestTwoPeersAgreeOnPerfectLink(t *testing.T) {
	m := newMatch(t, 2, 1, sim.LinkConfig{}, nil)
	if !m.runUntil(300, 10*time.Second) {
		t.Fatalf("frame 300 not confirmed: frames %d %d", m.nodes[0].s.Frame(), m.nodes[1].s.Frame())
	}
	m.checkAgreement()
	for i := range 2 {
		if m.count(i, isType[core.ConnectedEvent]) != 1 || m.count(i, isType[core.StartedEvent]) != 1 {
			t.Errorf("node %d: want one core.ConnectedEvent and one core.StartedEvent, got %v", i, m.nodes[i].events)
		}
	}
}

func TestConfigValidateNamesTheField(t *testing.T) {
	base := testConfig(2, 0, 1)
	for _, c := range []struct {
		field  string
		change func(c *Config)
	}{
		{"TickRate", func(c *Config) { c.TickRate = 5000 }},
		{"Prediction", func(c *Config) { c.Prediction = 65 }},
		{"InputDelay", func(c *Config) { c.InputDelay = 3 }},
		{"MaxStepsPerUpdate", func(c *Config) { c.MaxStepsPerUpdate = -1 }},
		{"Peers", func(c *Config) { c.Peers = nil }},
		{"Peers[1].Addr", func(c *Config) {
			c.Peers = append(c.Peers, rollstep.Peer{Addr: c.Peers[0].Addr, Players: []core.PlayerHandle{0}})
		}},
		{"Spectators[0]", func(c *Config) { c.Spectators = []transport.Addr{c.Peers[0].Addr} }},
		{"Local", func(c *Config) { c.Local = []core.PlayerHandle{5} }},
		{"MaxCatchUp", func(c *Config) { c.MaxCatchUp = time.Millisecond }},
		{"MaxEffectsPerFrame", func(c *Config) { c.MaxEffectsPerFrame = -1 }},
	} {
		cfg := base
		cfg.Peers = append([]rollstep.Peer(nil), base.Peers...)
		c.change(&cfg)
		err := cfg.Validate()
		var ce *rollstep.ConfigError
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("%s: Validate() = %v, want a *rollstep.ConfigError for %s", c.field, err, c.field)
		}
	}
	bad := base
	bad.Transport.InterruptTimeout = time.Hour
	var ce *rollstep.ConfigError
	if err := bad.Validate(); !errors.As(err, &ce) || ce.Field != "Transport.InterruptTimeout" {
		t.Errorf("bad transport config: %v, want a *rollstep.ConfigError for Transport.InterruptTimeout", err)
	}
	if err := base.Validate(); err != nil {
		t.Errorf("valid config: %v", err)
	}
	if base.Prediction != 0 || base.TickRate != 0 {
		t.Errorf("Validate modified the config: %+v", base)
	}
}

func TestHandshakeRefusesOtherGameBuild(t *testing.T) {
	m := newMatch(t, 2, 2, sim.LinkConfig{Latency: sim.Latency{Base: ms(10)}}, func(i int, c *Config) { c.Game[0] += byte(i) })
	for now := m.render; now < time.Second; now += m.render {
		m.net.RunUntil(now)
		for _, nd := range m.nodes {
			if err := nd.s.Update(now); err != nil && !errors.Is(err, rollstep.ErrRefused) {
				t.Fatal(err)
			}
			nd.events = keep(nd.events, nd.s.Events())
		}
	}
	for i, nd := range m.nodes {
		var ref core.RefusedEvent
		for _, ev := range nd.events {
			if e, ok := ev.(core.RefusedEvent); ok {
				ref = e
			}
		}
		var mm *wire.ConfigMismatchError
		if !errors.As(ref.Err, &mm) {
			t.Errorf("node %d: core.RefusedEvent %+v, want a wire.ConfigMismatchError", i, ref)
		}
		if err := nd.s.Update(time.Second); !errors.Is(err, rollstep.ErrRefused) || !errors.As(err, &mm) {
			t.Errorf("node %d: Update = %v, want rollstep.ErrRefused naming the differing field", i, err)
		}
		if nd.s.Stats().Started {
			t.Errorf("node %d started a refused match", i)
		}
	}
}

// TestEffectsPlayOnceDespiteRollbacks checks that what a host plays
// (delivered minus cancelled) is exactly what the confirmed simulation
// emits, although frames are re-simulated many times.
func TestEffectsPlayOnceDespiteRollbacks(t *testing.T) {
	m := newMatch(t, 2, 4, sim.LinkConfig{Latency: sim.Latency{Base: ms(80), Jitter: ms(20)}}, func(i int, c *Config) {
		if i == 0 {
			c.Spectators = []transport.Addr{2} // only to keep an input log
		}
	})
	m.net.NewEndpoint() // the silent spectator
	live := make(map[core.FrameEffect]int)
	end := m.net.Now() + 5*time.Second
	for now := m.render; now <= end; now += m.render {
		m.step(now)
		play, cancel := m.nodes[0].s.Effects()
		for _, fe := range play {
			live[fe]++
		}
		for _, fe := range cancel {
			live[fe]--
		}
	}
	m.checkAgreement()
	eng := m.nodes[0].s
	_, logEnd := eng.LogRange()
	c := logEnd - 1
	// The oracle: the confirmed inputs on a SyncTest, which never
	// predicts.
	oracle, _ := NewSyncTest[pair, uint16](SyncTestConfig{CheckDistance: 1}, pairGame{leakAt: -1}, pair{})
	want := make(map[core.FrameEffect]int)
	for f := core.Frame(0); f <= c; f++ {
		in, err := eng.ReadLog(f, nil)
		if err != nil {
			t.Fatalf("ReadLog(%d): %v", f, err)
		}
		vals := make([]uint16, len(in))
		for p, i := range in {
			vals[p] = i.Value
		}
		fx, err := oracle.AdvanceFrame(vals)
		if err != nil {
			t.Fatal(err)
		}
		for _, fe := range fx {
			want[fe]++
		}
	}
	for fe, n := range live {
		if fe.Frame <= c && n != want[fe] {
			t.Errorf("effect %+v played %d times, want %d", fe, n, want[fe])
		}
	}
	for fe, n := range want {
		if live[fe] != n {
			t.Errorf("effect %+v played %d times, want %d", fe, live[fe], n)
		}
	}
	if st := m.nodes[0].s.Stats(); st.Rollbacks == 0 || len(want) == 0 {
		t.Errorf("no rollbacks (%d) or no effects (%d): the test proves nothing", st.Rollbacks, len(want))
	}
}

func TestRenderingReadsCopiesAndInterpolates(t *testing.T) {
	m := newMatch(t, 2, 5, sim.LinkConfig{Latency: sim.Latency{Base: ms(30)}}, nil)
	m.run(time.Second)
	s := m.nodes[0].s
	if s.State().Frame != int32(s.Frame()) {
		t.Errorf("State() is after frame %d, Frame() is %d", s.State().Frame-1, s.Frame())
	}
	if d := s.State().Frame - s.Previous().Frame; d < 1 || d > 4 {
		t.Errorf("Previous() is %d frames behind State(), want 1..4", d)
	}
	if f := s.Fraction(); f < 0 || f > fixed.One {
		t.Errorf("Fraction() = %v, outside [0, 1]", f.Float64())
	}
	s.State().Pos[0] += 1 << 40 // a renderer that writes
	s.Previous().Acc = 7
	m.run(time.Second)
	m.checkAgreement()
}

// TestHitchIsCaughtUpOverSeveralUpdates stops node 0's loop for 300 ms:
// the next Updates simulate at most MaxStepsPerUpdate frames each and
// catch up; a hitch beyond MaxCatchUp slips instead.
func TestHitchIsCaughtUpOverSeveralUpdates(t *testing.T) {
	m := newMatch(t, 2, 6, sim.LinkConfig{Latency: sim.Latency{Base: ms(10)}}, func(i int, c *Config) {
		c.MaxStepsPerUpdate = 3
		c.MaxCatchUp = 400 * time.Millisecond
	})
	m.run(time.Second)
	s := m.nodes[0].s
	start := s.Frame()
	m.nodes[0].mute = true
	m.run(300 * time.Millisecond)
	m.nodes[0].mute = false
	most, updates := 0, 0
	for s.Frame()-start < 300*60/1000+10 && updates < 100 {
		before := s.Frame()
		m.run(m.render)
		most = max(most, int(s.Frame()-before))
		updates++
	}
	if most != 3 {
		t.Errorf("at most %d frames per Update while catching up, want MaxStepsPerUpdate 3", most)
	}
	if updates < 7 || updates > 30 {
		t.Errorf("caught up in %d Updates, want the 18 missed frames spread over several", updates)
	}
	m.checkAgreement()
}

// TestDelayPolicyRaisesAndLowersD runs a link that goes from 15 ms to
// 200 ms and back: D rises to MaxDelay (2) and later falls to 0, inputs
// discarded by the lowering are harmless, and the peers stay in agreement.
func TestDelayPolicyRaisesAndLowersD(t *testing.T) {
	link := sim.LinkConfig{Latency: sim.Latency{Base: ms(15)}, Schedule: []sim.Step{
		{At: 4 * time.Second, Latency: sim.Latency{Base: ms(200)}},
		{At: 12 * time.Second, Latency: sim.Latency{Base: ms(15)}},
	}}
	m := newMatch(t, 2, 8, link, nil)
	m.run(10 * time.Second)
	if d := m.nodes[0].s.Stats().Delay; d != 2 {
		t.Errorf("D at 200 ms = %d, want 2", d)
	}
	m.run(15 * time.Second)
	if d := m.nodes[0].s.Stats().Delay; d != 0 {
		t.Errorf("D back at 15 ms = %d, want 0", d)
	}
	var seen []int
	for _, ev := range m.nodes[0].events {
		if e, ok := ev.(core.DelayEvent); ok {
			seen = append(seen, e.Delay)
		}
	}
	if len(seen) < 2 {
		t.Errorf("delay events %v, want a rise and a fall", seen)
	}
	t.Logf("D went %v; discarded inputs %d", seen, m.nodes[0].s.Stats().Discarded)
	m.checkAgreement()
}

func TestClosedSessionReturnsErrClosed(t *testing.T) {
	m := newMatch(t, 2, 9, sim.LinkConfig{}, nil)
	m.run(200 * time.Millisecond)
	s := m.nodes[0].s
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for name, err := range map[string]error{
		"Update": s.Update(time.Second), "Close": s.Close(),
		"AddLocalInput": s.AddLocalInput(0, 1), "Wait": s.Wait(1),
	} {
		if !errors.Is(err, rollstep.ErrClosed) {
			t.Errorf("%s after Close = %v, want rollstep.ErrClosed", name, err)
		}
	}
	if err := m.nodes[1].s.AddLocalInput(0, 1); !errors.Is(err, rollstep.ErrOutOfRange) {
		t.Errorf("AddLocalInput(remote player) = %v, want rollstep.ErrOutOfRange", err)
	}
}
