package duel

import (
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport/sim"
	"github.com/stretchr/testify/require"
)

// sounds counts the voices started and stopped, by effect kind.
type sounds struct{ started, stopped map[uint32]int }

type voice struct {
	s    *sounds
	kind uint32
	done bool
}

func (v *voice) Stop() {
	if v.done {
		panic("a voice stopped twice")
	}
	v.done = true
	v.s.stopped[v.kind]++
}

func (s *sounds) start(e core.Effect) Voice {
	s.started[e.Kind]++
	return &voice{s: s, kind: e.Kind}
}

// play runs d on virtual time, rendering at 120 Hz, until every seat's
// match ended or the time limit passed.
func play(t *testing.T, d *Duel, held func(now time.Duration) [2]fighter.Input) {
	t.Helper()
	const render = time.Second / 120
	for now := time.Duration(0); ; now += render {
		require.Less(t, now, 2*time.Minute, "the match never ended")
		require.NoError(t, d.Update(now, held(now)))
		ended := true
		for _, seat := range d.Seats {
			require.NoError(t, seat.Err)
			ended = ended && seat.Session.Ended()
		}
		if ended {
			return
		}
	}
}

// TestLocalMatchAgreesAndPlaysEachEffectOnce plays two bots over a link of
// 60 ms ± 10 ms with 2 % loss: the shown session predicts and rolls back,
// both end on the same state, and the sounds started minus those a
// rollback stopped are exactly the hits and blocks of the confirmed match.
func TestLocalMatchAgreesAndPlaysEachEffectOnce(t *testing.T) {
	s := &sounds{started: map[uint32]int{}, stopped: map[uint32]int{}}
	d, err := Local(LocalConfig{Latency: 60 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.02, Seed: 7}, s.start)
	require.NoError(t, err)
	defer d.Close()
	const frames = 1800
	for _, seat := range d.Seats {
		require.NoError(t, seat.Session.EndAt(frames))
	}
	play(t, d, func(time.Duration) [2]fighter.Input { return [2]fighter.Input{} })

	a, b := d.Seats[0].Session.State(), d.Seats[1].Session.State()
	require.Equal(t, int32(frames), a.Frame)
	require.Equal(t, state.Checksum(a), state.Checksum(b), "both seats end on the same state")

	st := d.View().Stats()
	require.Positive(t, st.Rollbacks, "the shown seat predicted the other across the link")
	require.Positive(t, s.stopped[fighter.EffectHit]+s.stopped[fighter.EffectBlock], "a rollback cancelled a predicted effect")
	hits := int(a.Fighters[0].Hits + a.Fighters[1].Hits)
	blocks := int(a.Fighters[0].Blocked + a.Fighters[1].Blocked)
	require.Positive(t, hits)
	require.Equal(t, hits, s.started[fighter.EffectHit]-s.stopped[fighter.EffectHit], "each confirmed hit sounds once")
	require.Equal(t, blocks, s.started[fighter.EffectBlock]-s.stopped[fighter.EffectBlock], "each confirmed block sounds once")
	require.Equal(t, d.Effects.Played, s.started[fighter.EffectHit]+s.started[fighter.EffectBlock]+s.started[fighter.EffectKO])

	require.Equal(t, netstatsLen(d), min(frames*2, 240), "the history sampled every rendered frame")
	require.Contains(t, d.History.Log()[len(d.History.Log())-1], "match ended at frame 1800")
}

func netstatsLen(d *Duel) int { return d.History.Delay.Len() }

// TestHumanInputReachesTheOtherSeat: what a person holds on one seat is
// what the other seat's session confirms for that player.
func TestHumanInputReachesTheOtherSeat(t *testing.T) {
	d, err := Local(LocalConfig{Humans: [2]bool{true, false}, Latency: 30 * time.Millisecond, Seed: 3}, nil)
	require.NoError(t, err)
	defer d.Close()
	for _, seat := range d.Seats {
		require.NoError(t, seat.Session.EndAt(240))
	}
	// Player 0 walks right for the first two seconds, then stands.
	play(t, d, func(now time.Duration) [2]fighter.Input {
		if now < 2*time.Second {
			return [2]fighter.Input{{Buttons: fighter.Right}}
		}
		return [2]fighter.Input{}
	})
	start := fighter.New(3)
	there := d.Seats[1].Session.State()
	require.Greater(t, there.Fighters[0].Pos.X, start.Fighters[0].Pos.X, "player 1's session saw player 0 walk right")
	require.Equal(t, state.Checksum(d.Seats[0].Session.State()), state.Checksum(there))
}

func TestEffectsCancelStopsTheSound(t *testing.T) {
	s := &sounds{started: map[uint32]int{}, stopped: map[uint32]int{}}
	e := Effects{voices: s.start}
	hit := core.FrameEffect{Frame: 40, Effect: core.Effect{Kind: fighter.EffectHit}}
	block := core.FrameEffect{Frame: 40, Effect: core.Effect{Kind: fighter.EffectBlock}}
	e.apply([]core.FrameEffect{hit}, nil)
	require.Len(t, e.Live, 1)
	// A rollback turns the predicted hit into a block.
	e.apply([]core.FrameEffect{block}, []core.FrameEffect{hit})
	require.Equal(t, 1, s.stopped[fighter.EffectHit], "the cancelled hit's sound stopped")
	require.Len(t, e.Live, 1)
	require.Equal(t, block, e.Live[0].FrameEffect)

	for range sparkFrames {
		e.Age()
	}
	require.Len(t, e.Live, 1)
	require.InDelta(t, 1.0, e.Live[0].Fade(), 1e-9)
	e.Age()
	require.Empty(t, e.Live, "a faded spark is forgotten")
	// A cancel that arrives after the spark faded stops nothing.
	e.apply(nil, []core.FrameEffect{block})
	require.Zero(t, s.stopped[fighter.EffectBlock])
}

func TestLocalRefusesJitterAboveLatency(t *testing.T) {
	_, err := Local(LocalConfig{Latency: time.Millisecond, Jitter: 2 * time.Millisecond}, nil)
	require.ErrorContains(t, err, "jitter")
}

// TestRemoteSeatsPlayEachOther: two one-seat duels, as two machines run
// them, over a link they share only through their Conns.
func TestRemoteSeatsPlayEachOther(t *testing.T) {
	nw, err := sim.New(sim.Config{Seed: 5, Link: sim.LinkConfig{Latency: sim.Latency{Base: 40 * time.Millisecond}}})
	require.NoError(t, err)
	eps := [2]*sim.Endpoint{nw.NewEndpoint(), nw.NewEndpoint()}
	var ds [2]*Duel
	for p := range ds {
		ds[p], err = Remote(p, false, eps[p], eps[1-p].ID(), 99, 99, nil)
		require.NoError(t, err)
		defer ds[p].Close()
		require.NoError(t, ds[p].View().EndAt(600))
	}
	const render = time.Second / 120
	for now := time.Duration(0); !ds[0].View().Ended() || !ds[1].View().Ended(); now += render {
		require.Less(t, now, time.Minute, "the match never ended")
		nw.RunUntil(now)
		for _, d := range ds {
			require.NoError(t, d.Update(now, [2]fighter.Input{}))
		}
	}
	require.Equal(t, state.Checksum(ds[0].View().State()), state.Checksum(ds[1].View().State()))
	require.Positive(t, ds[1].History.Peers[0].RTT.Last(), "the history measured the round trip")

	_, err = Remote(2, false, eps[0], eps[1].ID(), 1, 1, nil)
	require.ErrorContains(t, err, "players 0 and 1")
}

// TestPauseStopsBothSeats: the overlay's P key pauses the match for both
// seats at one frame, and resuming plays on.
func TestPauseStopsBothSeats(t *testing.T) {
	d, err := Local(LocalConfig{Latency: 30 * time.Millisecond, Seed: 4}, nil)
	require.NoError(t, err)
	defer d.Close()
	const render = time.Second / 120
	now := time.Duration(0)
	run := func(until time.Duration) {
		for ; now < until; now += render {
			require.NoError(t, d.Update(now, [2]fighter.Input{}))
		}
	}
	run(time.Second)
	require.NoError(t, d.Seats[0].Session.Pause(0))
	run(2 * time.Second)
	frames := [2]int32{d.Seats[0].Session.State().Frame, d.Seats[1].Session.State().Frame}
	require.Equal(t, frames[0], frames[1], "both seats paused at the same frame")
	for _, seat := range d.Seats {
		require.True(t, seat.Session.Stats().Paused)
	}
	run(3 * time.Second)
	require.Equal(t, frames[0], d.Seats[0].Session.State().Frame, "a paused match does not step")
	require.NoError(t, d.Seats[1].Session.Resume(1))
	run(4 * time.Second)
	require.Greater(t, d.Seats[0].Session.State().Frame, frames[0]+30, "resumed, the match plays on")
}
