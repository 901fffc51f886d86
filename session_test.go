package rollstep

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport/sim"
)

const ms = time.Millisecond

// gState hashes every input applied, in order.
type gState struct {
	Frame int32
	_     int32
	Hash  uint64
}

type gInput struct{ Buttons uint32 }

// gPeer is one peer of a test match; sums[f] is the checksum after frame
// f as last simulated (a re-simulation overwrites it).
type gPeer struct {
	sess *Session[gState, gInput]
	sums []uint64
	rng  *rand.Rand
	maxW int // the largest W seen
	// guesses, when not nil, counts the values of the predicted remote
	// inputs the game stepped with.
	guesses map[uint32]int
}

func (p *gPeer) step(s *gState, in []core.Input[gInput], _ core.Effects) {
	for i, x := range in {
		s.Hash = (s.Hash ^ uint64(i)<<40 ^ uint64(x.Value.Buttons)) * 0x100000001b3
		if p.guesses != nil && x.Status == core.InputPredicted {
			p.guesses[x.Value.Buttons]++
		}
	}
	f := int(s.Frame)
	s.Frame++
	for len(p.sums) <= f {
		p.sums = append(p.sums, 0)
	}
	p.sums[f] = state.Checksum(s)
}

// newPeers builds two peers of cfg over net.
func newPeers(t *testing.T, net *sim.Network, cfg Config, edit ...func(i int, c *Config)) []*gPeer {
	t.Helper()
	return newPeersN(t, net, 2, cfg, edit...)
}

// newPeersN builds n peers of cfg over net, peer i owning player i.
func newPeersN(t *testing.T, net *sim.Network, n int, cfg Config, edit ...func(i int, c *Config)) []*gPeer {
	t.Helper()
	var conns []*sim.Endpoint
	for range n {
		conns = append(conns, net.NewEndpoint())
	}
	var peers []*gPeer
	for i := range n {
		c := cfg
		for _, e := range edit {
			e(i, &c)
		}
		c.Players = n
		c.Local = []core.PlayerHandle{core.PlayerHandle(i)}
		c.Peers = nil
		for j := range n {
			if j != i {
				c.Peers = append(c.Peers, Peer{Addr: conns[j].ID(), Players: []core.PlayerHandle{core.PlayerHandle(j)}})
			}
		}
		c.Transport.Rand = rand.NewChaCha8([32]byte{byte(i), 1})
		p := &gPeer{rng: rand.New(rand.NewPCG(uint64(i), 2))}
		s, err := NewSession(c, core.GameFunc[gState, gInput](p.step), gState{}, conns[i])
		if err != nil {
			t.Fatal(err)
		}
		p.sess = s
		peers = append(peers, p)
	}
	return peers
}

// play runs the peers from *now to end, every dt, each giving a new input
// (a button held for a while) every frame.
func play(t *testing.T, net *sim.Network, peers []*gPeer, now *time.Duration, end, dt time.Duration) {
	t.Helper()
	for *now < end {
		*now += dt
		net.RunUntil(*now)
		for i, p := range peers {
			in := gInput{Buttons: uint32(*now / (300 * ms) % 4)}
			if p.rng.IntN(8) == 0 {
				in.Buttons |= 0x100
			}
			_ = p.sess.AddLocalInput(core.PlayerHandle(i), in)
			if err := p.sess.Update(*now); err != nil {
				t.Fatalf("peer %d: %v", i, err)
			}
			p.maxW = max(p.maxW, p.sess.Stats().Prediction)
		}
	}
}

// agree checks that the peers agree on every confirmed frame and that no
// desync was detected.
func agree(t *testing.T, peers []*gPeer) core.Frame {
	t.Helper()
	end := core.Frame(1 << 30)
	for i, p := range peers {
		st := p.sess.Stats()
		if st.Desyncs != 0 {
			t.Fatalf("peer %d: %d desyncs", i, st.Desyncs)
		}
		f, _ := p.sess.ConfirmedFrame()
		end = min(end, f+1)
	}
	for f := range int(end) {
		for i, p := range peers[1:] {
			if p.sums[f] != peers[0].sums[f] {
				t.Fatalf("confirmed frame %d differs between peers 0 and %d", f, i+1)
			}
		}
	}
	return end
}

// TestAutoSwitchesMode: a link that goes from 20 ms to 150 ms and back.
// At 20 ms the delay budget covers the latency: auto runs as lockstep
// (W = 0). At 150 ms it predicts the part beyond the budget (W > 0), and
// back at 20 ms it returns to W = 0. Every confirmed frame agrees.
func TestAutoSwitchesMode(t *testing.T) {
	lat := func(d time.Duration) sim.Latency { return sim.Latency{Base: d, Jitter: 2 * ms} }
	net, err := sim.New(sim.Config{Seed: 3, Link: sim.LinkConfig{Latency: lat(20 * ms),
		Schedule: []sim.Step{{At: 20 * time.Second, Latency: lat(150 * ms)}, {At: 40 * time.Second, Latency: lat(20 * ms)}}}})
	if err != nil {
		t.Fatal(err)
	}
	peers := newPeers(t, net, Config{Mode: Auto, Inputs: Held})
	var now time.Duration
	phase := func(end time.Duration) (d, w, maxW int) {
		for _, p := range peers {
			p.maxW = 0
		}
		play(t, net, peers, &now, end, 4*ms)
		st := peers[0].sess.Stats()
		return st.Delay, st.Prediction, peers[0].maxW
	}
	d1, w1, _ := phase(20 * time.Second)
	d2, w2, max2 := phase(40 * time.Second)
	d3, w3, _ := phase(100 * time.Second)
	t.Logf("20ms: D=%d W=%d; 150ms: D=%d W=%d (max %d); 20ms again: D=%d W=%d", d1, w1, d2, w2, max2, d3, w3)
	if w1 != 0 || max2 == 0 || w3 != 0 {
		t.Fatalf("W went %d → %d → %d, want 0 → >0 → 0", w1, max2, w3)
	}
	if d2 > int(defaultDelayBudget/(time.Second/defaultFrameRate)) {
		t.Fatalf("D=%d exceeds the %v budget", d2, defaultDelayBudget)
	}
	if f := agree(t, peers); f < 60*90 {
		t.Fatalf("only %d frames confirmed in 100 s", f)
	}
}

// TestLockstepAndAutoInOneMatch: peers in one match may run different
// modes. Peer 0 plays Lockstep (it never predicts), peer 1 Auto on a
// 150 ms link, beyond its delay budget, so it predicts and rolls back; the
// match runs and every confirmed frame agrees.
func TestLockstepAndAutoInOneMatch(t *testing.T) {
	net, err := sim.New(sim.Config{Seed: 5, Link: sim.LinkConfig{Latency: sim.Latency{Base: 150 * ms, Jitter: 5 * ms}}})
	if err != nil {
		t.Fatal(err)
	}
	peers := newPeers(t, net, Config{Inputs: Held, TickRate: 60}, func(i int, c *Config) {
		c.Mode = []Mode{Lockstep, Auto}[i]
	})
	var now time.Duration
	play(t, net, peers, &now, 20*time.Second, 4*ms)
	if peers[0].maxW != 0 || peers[1].maxW == 0 {
		t.Fatalf("largest W: lockstep peer %d, auto peer %d; want 0 and more", peers[0].maxW, peers[1].maxW)
	}
	if f := agree(t, peers); f < 60*10 {
		t.Fatalf("only %d frames confirmed in 20 s", f)
	}
}

// TestModes runs a short match in each mode, with each input style,
// through the root package.
func TestModes(t *testing.T) {
	for _, tc := range []struct {
		mode   Mode
		inputs InputStyle
	}{{Lockstep, Held}, {Rollback, Held}, {Auto, Held}, {Lockstep, Queued}, {Rollback, Queued}, {Auto, Queued}} {
		mode := tc.mode
		t.Run(fmt.Sprintf("%v/%d", mode, tc.inputs), func(t *testing.T) {
			net, err := sim.New(sim.Config{Seed: 4, Link: sim.LinkConfig{Latency: sim.Latency{Base: 40 * ms, Jitter: 10 * ms}, Loss: 0.05}})
			if err != nil {
				t.Fatal(err)
			}
			peers := newPeers(t, net, Config{Mode: mode, Inputs: tc.inputs})
			var now time.Duration
			play(t, net, peers, &now, 10*time.Second, 4*ms)
			if got := peers[0].sess.Stats().Mode; got != mode {
				t.Fatalf("Stats().Mode = %v", got)
			}
			if f := agree(t, peers); f < 50 {
				t.Fatalf("only %d frames confirmed", f)
			}
			if st := peers[0].sess.Stats(); mode == Rollback && st.Rollbacks == 0 {
				t.Fatalf("no rollback in %d frames: prediction went untested", st.Frame)
			}
			for _, p := range peers {
				if err := p.sess.Close(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	net, _ := sim.New(sim.Config{})
	conn := net.NewEndpoint()
	base := Config{Players: 2, Local: []core.PlayerHandle{0}, Peers: []Peer{{Addr: 9, Players: []core.PlayerHandle{1}}}}
	tests := []struct {
		name string
		edit func(*Config)
		want error
	}{
		{"zero mode", func(c *Config) {}, ErrInvalidConfig},
		{"bad mode", func(c *Config) { c.Mode = 7 }, ErrInvalidConfig},
		{"lockstep predicts", func(c *Config) { c.Mode, c.Prediction = Lockstep, 2 }, ErrInvalidConfig},
		{"budget outside auto", func(c *Config) { c.Mode, c.DelayBudget = Rollback, ms }, ErrInvalidConfig},
		{"negative rate", func(c *Config) { c.Mode, c.TickRate = Auto, -1 }, ErrInvalidConfig},
		{"negative turn period", func(c *Config) { c.Mode, c.TurnPeriod = Lockstep, -ms }, ErrInvalidConfig},
		{"tick rate over 1000", func(c *Config) { c.Mode, c.TickRate = Rollback, 1001 }, ErrInvalidConfig},
		{"negative effect limit", func(c *Config) { c.Mode, c.MaxEffectsPerFrame = Auto, -1 }, ErrInvalidConfig},
		{"lockstep table", func(c *Config) { c.Mode, c.Players = Lockstep, 3 }, ErrInvalidConfig},
		{"rollback table", func(c *Config) { c.Mode, c.Players = Rollback, 3 }, ErrInvalidConfig},
		{"input style", func(c *Config) { c.Mode, c.Inputs = Rollback, Queued+1 }, ErrInvalidConfig},
		{"timesync wait", func(c *Config) { c.Mode, c.MaxWait = Rollback, -1 }, ErrInvalidConfig},
		{"spectator delay", func(c *Config) { c.Mode, c.SpectatorDelay = Auto, -1 }, ErrInvalidConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			tt.edit(&c)
			if err := c.Validate(); !errors.Is(err, tt.want) {
				t.Fatalf("Validate: %v, want %v", err, tt.want)
			}
			_, err := NewSession(c, core.GameFunc[gState, gInput](func(*gState, []core.Input[gInput], core.Effects) {}), gState{}, conn)
			if !errors.Is(err, tt.want) {
				t.Fatalf("NewSession: %v, want %v", err, tt.want)
			}
		})
	}
}

func TestTurnPeriodReplacesTickRate(t *testing.T) {
	net, _ := sim.New(sim.Config{})
	conn := net.NewEndpoint()
	cfg := Config{Mode: Lockstep, Players: 2, TickRate: 10, TurnPeriod: 150 * ms, Local: []core.PlayerHandle{0},
		Peers: []Peer{{Addr: 9, Players: []core.PlayerHandle{1}}}}
	s, err := NewSession(cfg, core.GameFunc[gState, gInput](func(*gState, []core.Input[gInput], core.Effects) {}), gState{}, conn)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Stats().Period; got != 150*ms {
		t.Errorf("turn period %v, want 150ms", got)
	}
}

// TestEffectLimitReachesTheEngine checks that MaxEffectsPerFrame is passed
// to the engine in every mode: an RTS turn with many deaths emits more
// than the default 16 effects.
func TestEffectLimitReachesTheEngine(t *testing.T) {
	for _, mode := range []Mode{Lockstep, Rollback, Auto} {
		cfg := Config{Mode: mode, Players: 2, Local: []core.PlayerHandle{0},
			Peers: []Peer{{Addr: 9, Players: []core.PlayerHandle{1}}}, MaxEffectsPerFrame: 64}
		_, cc, err := cfg.engineConfig()
		if err != nil || cc.MaxEffectsPerFrame != 64 {
			t.Errorf("%v: core MaxEffectsPerFrame = %d (%v), want 64", mode, cc.MaxEffectsPerFrame, err)
		}
	}
}
