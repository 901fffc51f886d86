package replay_test

import (
	"errors"
	"fmt"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/replay"
)

// score is a tiny game: each player's input is added to its score.
type score struct{ Points [2]int32 }

type scoreGame struct{}

func (scoreGame) Step(s *score, in []core.Input[int32], _ core.Effects) {
	for p, i := range in {
		s.Points[p] += i.Value
	}
}

// Record a match, open the replay, seek into it and verify it; then show
// that another build of the game is refused instead of diverging.
func Example() {
	build := core.GameVersion("score 1.0")
	rec, _ := replay.NewRecorder(replay.Config{Game: build, Players: 2, TickRate: 60, KeyframeInterval: 50},
		core.Game[score, int32](scoreGame{}), &score{})
	for f := range 120 {
		_ = rec.Add([]core.Input[int32]{
			{Value: int32(f % 3), Status: core.InputConfirmed},
			{Value: 1, Status: core.InputConfirmed},
		})
	}
	file := rec.Bytes() // or replay.WriteFile(name, rec.Bytes())

	rp, err := replay.Open[score, int32](file, build)
	if err != nil {
		fmt.Println(err)
		return
	}
	h := rp.Header()
	fmt.Println("frames", h.Frames, "players", h.Players, "length", h.Duration)

	pl := replay.NewPlayer(rp, scoreGame{})
	_ = pl.Seek(100) // from the keyframe at frame 100
	fmt.Println("at frame", pl.Frame(), "points", pl.State().Points)
	fmt.Println("verify:", replay.VerifyData(file, build, scoreGame{}))

	_, err = replay.Open[score, int32](file, core.GameVersion("score 1.1"))
	fmt.Println("other build refused:", errors.Is(err, replay.ErrMismatch))
	// Output:
	// frames 120 players 2 length 2s
	// at frame 100 points [99 100]
	// verify: <nil>
	// other build refused: true
}
