package skirmish

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/rts"
	"github.com/rollstep/rollstep/state"
)

// recorded returns a replay of a bots' match of turns turns, longer than
// a keyframe interval when turns is, and the checksum of the state after
// every frame, played straight through.
func recorded(t *testing.T, turns int) ([]byte, []uint64) {
	t.Helper()
	res, err := rts.PlaySim(rts.SimConfig{Players: 3, Units: 300, Turns: turns, Seed: 5, BotEvery: 2, Record: true})
	require.NoError(t, err)
	require.True(t, res.Agree())
	pb, err := OpenPlayback(res.Replay, 60)
	require.NoError(t, err)
	sums := []uint64{state.Checksum(pb.State())}
	for pb.Step() {
		sums = append(sums, state.Checksum(pb.State()))
	}
	require.Len(t, sums, int(pb.Frames())+1)
	require.Equal(t, state.Checksum(&res.Final), sums[turns], "the replay ends on the match's final state")
	return res.Replay, sums
}

// TestSeekLandsOnTheStraightState checks that a seek, backward or
// forward, across keyframes or within one, lands on the state playing
// straight through reaches: the same checksum.
func TestSeekLandsOnTheStraightState(t *testing.T) {
	turns := rts.ReplayKeyframes + 250
	data, sums := recorded(t, turns)
	pb, err := OpenPlayback(data, 60)
	require.NoError(t, err)
	for _, f := range []core.Frame{700, 10, 599, 600, 601, 850, 0, 3, 849, 200, 850} {
		require.NoError(t, pb.Seek(f))
		require.Equal(t, f, pb.Frame())
		require.Equal(t, sums[f], state.Checksum(pb.State()), "seek to %d", f)
	}
	require.NoError(t, pb.Seek(-5))
	require.EqualValues(t, 0, pb.Frame(), "clamped to the start")
	require.NoError(t, pb.Seek(1e6))
	require.Equal(t, core.Frame(turns), pb.Frame(), "clamped to the end")
}

// TestPlaybackKeys checks the playback controls: stepping, stepping
// back, jumps, the ends, pause and the progress bar, each landing on the
// straight-through state.
func TestPlaybackKeys(t *testing.T) {
	data, sums := recorded(t, 400)
	pb, err := OpenPlayback(data, 60)
	require.NoError(t, err)
	at := func(want core.Frame) {
		t.Helper()
		require.Equal(t, want, pb.Frame())
		require.Equal(t, sums[want], state.Checksum(pb.State()))
	}
	// At the default 10 frames a second and 60 updates, a frame every 6.
	for range 60 {
		_, err := pb.Handle(Input{}, -1)
		require.NoError(t, err)
	}
	at(10)
	step := func(in Input, bar core.Frame) {
		t.Helper()
		_, err := pb.Handle(in, bar)
		require.NoError(t, err)
	}
	step(Input{StepForward: true}, -1)
	at(11)
	require.True(t, pb.Paused())
	step(Input{StepBack: true}, -1)
	step(Input{StepBack: true}, -1)
	at(9)
	step(Input{JumpForward: true}, -1)
	at(9 + JumpSeconds*10)
	step(Input{JumpBack: true}, -1)
	step(Input{JumpBack: true}, -1)
	at(0)
	step(Input{End: true}, -1)
	at(400)
	step(Input{}, 123)
	at(123)
	step(Input{Home: true}, -1)
	at(0)
	step(Input{Faster: true}, -1)
	require.Equal(t, 200, pb.Speed())
	step(Input{Pause: true}, -1)
	require.False(t, pb.Paused())
	for range 30 {
		step(Input{}, -1)
	}
	at(10) // 30 updates at 20 frames a second
}

// TestPlaybackNotesDeaths checks that the units a playback sees die are
// those whose FlagAlive the frame cleared, and that they are all seen.
func TestPlaybackNotesDeaths(t *testing.T) {
	data, _ := recorded(t, 400)
	pb, err := OpenPlayback(data, 60)
	require.NoError(t, err)
	seen := 0
	for pb.Frame() < pb.Frames() {
		_, err := pb.Handle(Input{}, -1)
		require.NoError(t, err)
		for _, i := range pb.Died() {
			require.False(t, pb.State().Units[i].Alive())
		}
		seen += len(pb.Died())
	}
	require.EqualValues(t, pb.State().Deaths, seen)
}
