package rollback

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/timesync"
	"github.com/rollstep/rollstep/transport/sim"
)

// TestTimesyncBalancesLateStarter starts node 1 300 ms late on a 50 ms
// link, so node 0 starts its clock earlier and runs ahead; timesync must
// make node 0, and only node 0, wait, until both are within a frame.
func TestTimesyncBalancesLateStarter(t *testing.T) {
	m := newMatch(t, 2, 3, sim.LinkConfig{Latency: sim.Latency{Base: ms(50)}}, nil)
	m.nodes[1].mute = true
	m.run(300 * time.Millisecond)
	m.nodes[1].mute = false
	m.run(6 * time.Second)
	waits := func(i int) int {
		return m.count(i, func(ev core.Event) bool { e, ok := ev.(core.TimesyncEvent); return ok && e.Wait > 0 })
	}
	if waits(0) == 0 || waits(1) != 0 {
		t.Errorf("wait recommendations: node 0 %d, node 1 %d; want node 0 only", waits(0), waits(1))
	}
	st0, st1 := m.nodes[0].s.Stats(), m.nodes[1].s.Stats()
	if st0.Waited == 0 {
		t.Errorf("node 0 never waited")
	}
	if a := st0.Timesync.Advantage; a < -1 || a > 1 {
		t.Errorf("node 0 advantage after balancing = %d frames, want within 1", a)
	}
	if d := m.nodes[0].s.Frame() - m.nodes[1].s.Frame(); d < -2 || d > 2 {
		t.Errorf("frame difference %d at the same moment, want within 2", d)
	}
	t.Logf("node 0 waited %d frames; advantages %d / %d", st0.Waited, st0.Timesync.Advantage, st1.Timesync.Advantage)
	m.checkAgreement()
}

// TestTimesyncIgnoresDifferentDelays gives the peers different input
// delays (2 and 0). Estimating the peer's frame from its input frames, as
// GGPO did, would make the D = 2 peer look two frames ahead and stall the
// other; timesync must recommend no wait to either and see the other's D.
func TestTimesyncIgnoresDifferentDelays(t *testing.T) {
	m := newMatch(t, 2, 5, sim.LinkConfig{Latency: sim.Latency{Base: ms(30)}}, func(i int, c *Config) {
		c.FixedDelay, c.InputDelay = true, 2-2*i
	})
	m.run(8 * time.Second)
	for i := range 2 {
		n := m.count(i, func(ev core.Event) bool { e, ok := ev.(core.TimesyncEvent); return ok && e.Wait > 0 })
		st := m.nodes[i].s.Stats()
		if n != 0 || st.Waited != 0 {
			t.Errorf("node %d: %d wait recommendations, waited %d; want none", i, n, st.Waited)
		}
		if a := st.Timesync.Advantage; a < -1 || a > 1 {
			t.Errorf("node %d advantage %d, want within 1", i, a)
		}
		if want := 2 - 2*(1-i); st.Timesync.RemoteDelay < want || st.Timesync.RemoteDelay > want+1 {
			t.Errorf("node %d sees remote D %d, want %d", i, st.Timesync.RemoteDelay, want)
		}
	}
	m.checkAgreement()
}

func TestManualTimesyncOnlyReports(t *testing.T) {
	m := newMatch(t, 2, 3, sim.LinkConfig{Latency: sim.Latency{Base: ms(50)}}, func(i int, c *Config) {
		c.ManualTimesync = true
	})
	m.nodes[1].mute = true
	m.run(300 * time.Millisecond)
	m.nodes[1].mute = false
	m.run(3 * time.Second)
	var rec core.TimesyncEvent
	for _, ev := range m.nodes[0].events {
		if e, ok := ev.(core.TimesyncEvent); ok && e.Wait > 0 {
			rec = e
		}
	}
	if rec.Wait == 0 || rec.Applied {
		t.Fatalf("no manual recommendation: %+v", rec)
	}
	if st := m.nodes[0].s.Stats(); st.Waited != 0 {
		t.Errorf("manual mode waited %d frames by itself", st.Waited)
	}
	before := m.nodes[0].s.Frame()
	if err := m.nodes[0].s.Wait(rec.Wait); err != nil {
		t.Fatal(err)
	}
	m.run(time.Second)
	if st := m.nodes[0].s.Stats(); st.Waited != uint64(rec.Wait) {
		t.Errorf("Waited = %d after Wait(%d)", st.Waited, rec.Wait)
	}
	if got := m.nodes[0].s.Frame() - before; got > 60-core.Frame(rec.Wait)+1 {
		t.Errorf("advanced %d frames in 1 s while waiting %d", got, rec.Wait)
	}
}

// TestPeerPausedForTenMinutes is the "background tab" case at session
// level: node 1's loop stops for ten minutes (the disconnect timeout is
// longer). Node 0 stalls at W; its advantage samples clamp instead of
// overflowing; when node 1 returns both play on in agreement, and no
// recommendation exceeds MaxWait.
func TestPeerPausedForTenMinutes(t *testing.T) {
	m := newMatch(t, 2, 17, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, func(i int, c *Config) {
		c.Transport.InterruptTimeout = time.Second
		c.Transport.DisconnectTimeout = time.Hour
	})
	m.render = time.Second / 60
	m.run(2 * time.Second)
	m.nodes[1].mute = true
	m.run(10 * time.Minute)
	m.nodes[1].mute = false
	start := m.nodes[0].s.Frame()
	m.run(5 * time.Second)
	if got := m.nodes[0].s.Frame() - start; got < 200 {
		t.Errorf("node 0 advanced %d frames in the 5 s after the pause, want about 300", got)
	}
	for i := range 2 {
		for _, ev := range m.nodes[i].events {
			if e, ok := ev.(core.TimesyncEvent); ok && (e.Wait > 8 || e.Advantage > timesync.MaxAdvantage || e.Advantage < -timesync.MaxAdvantage) {
				t.Errorf("node %d: absurd recommendation %+v", i, e)
			}
		}
		if m.count(i, isType[core.PeerLostEvent]) != 0 {
			t.Errorf("node %d dropped its peer", i)
		}
	}
	st := m.nodes[0].s.Stats()
	t.Logf("node 0 stalled %v; newest timesync %+v", st.Stall.Round(time.Second), st.Timesync)
	m.checkAgreement()
}

// TestTimesyncAbsorbsClockDrift runs node 1's clock 2 % slow for 30 s: node
// 0 would drift 36 frames ahead. Timesync makes node 0 wait in small
// steps instead of running into the prediction window and stalling.
func TestTimesyncAbsorbsClockDrift(t *testing.T) {
	m := newMatch(t, 2, 18, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, nil)
	m.nodes[1].slow = 20
	m.run(30 * time.Second)
	st := m.nodes[0].s.Stats()
	if st.Waited < 25 {
		t.Errorf("node 0 waited %d frames over a 36-frame drift", st.Waited)
	}
	if st.Stall > 200*time.Millisecond {
		t.Errorf("node 0 stalled %v: timesync did not keep it inside the window", st.Stall)
	}
	if w := m.nodes[1].s.Stats().Waited; w != 0 {
		t.Errorf("the slow node waited %d frames", w)
	}
	t.Logf("node 0 waited %d frames, stalled %v; frames %d and %d", st.Waited, st.Stall, m.nodes[0].s.Frame(), m.nodes[1].s.Frame())
	m.checkAgreement()
}

// TestClockDriftWithoutTimesyncStalls is the control of
// TestTimesyncAbsorbsClockDrift: with timesync off the fast node runs into
// the prediction window and stalls.
func TestClockDriftWithoutTimesyncStalls(t *testing.T) {
	m := newMatch(t, 2, 18, sim.LinkConfig{Latency: sim.Latency{Base: ms(20)}}, func(i int, c *Config) {
		c.NoTimesync = true
	})
	m.nodes[1].slow = 20
	m.run(30 * time.Second)
	st := m.nodes[0].s.Stats()
	if st.Waited != 0 || st.Stall < 200*time.Millisecond {
		t.Errorf("without timesync: waited %d, stalled %v; want no waits and stalls", st.Waited, st.Stall)
	}
	m.checkAgreement()
}
