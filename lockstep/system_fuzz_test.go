package lockstep

import (
	"testing"

	"github.com/rollstep/rollstep/core"
)

// FuzzSystemChannel steps the system channel with arbitrary envelopes from
// up to four players, as remote peers could send them, for as many turns
// as the input describes: 8 bytes per player per turn (Cmd, Seq, Arg,
// Step, Count, and a status). The system state must stay in range (speed
// 1 to 1000 percent as SetSpeed allows, Paused 0 or 1, By a player, one
// frame per Step, Played at most Frame), and the game must be stepped
// exactly when not paused.
func FuzzSystemChannel(f *testing.F) {
	// players is one less than the number of players (mod 4).
	f.Add([]byte{cmdPause, 1, 0, 0, 0, 0, 0, 0, cmdResume, 2, 0, 0, 0, 0, 0, 0}, uint8(0))
	f.Add([]byte{cmdSpeed, 1, 0xff, 0xff, 0, 0, 0, 0}, uint8(0))
	f.Add([]byte{cmdSpeed, 1, 0xe8, 0x03, 0xff, 0xff, 1, 2, cmdSpeed, 1, 0, 0, 0, 0, 0, 1}, uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, players uint8) {
		n := int(players%4) + 1
		steps := 0
		g := &wrapGame[tState, tInput]{
			user:  core.GameFunc[tState, tInput](func(*tState, []core.Input[tInput], *core.Effects) { steps++ }),
			ticks: 1,
			in:    make([]core.Input[tInput], n),
			idle:  make([]core.Input[tInput], n),
		}
		var w world[tState]
		in := make([]core.Input[envelope[tInput]], n)
		for turn := 0; len(b) >= 8*n; turn++ {
			for p := range in {
				r := b[:8]
				b = b[8:]
				in[p] = core.Input[envelope[tInput]]{Status: core.InputStatus(r[7] % 3), Value: envelope[tInput]{
					Cmd: r[0], Seq: [2]uint8{r[1], 0}, Arg: [2]uint8{r[2], r[3]}, Step: [2]uint8{r[4], r[5]}, Count: [2]uint8{r[6], 0}}}
			}
			paused := w.Sys.Paused
			before := steps
			g.Step(&w, in, &core.Effects{})
			sys := &w.Sys
			if s := sys.speed(); s < 1 || s > 1000 {
				t.Fatalf("turn %d: speed %d%%, outside 1..1000", turn, s)
			}
			if sys.Paused > 1 || int(sys.By) >= n {
				t.Fatalf("turn %d: Paused %d, By %d of %d players", turn, sys.Paused, sys.By, n)
			}
			if get32(sys.Frame) != uint32(turn+1) || get32(sys.Played) > get32(sys.Frame) {
				t.Fatalf("turn %d: Frame %d, Played %d", turn, get32(sys.Frame), get32(sys.Played))
			}
			if stepped := steps - before; (stepped == 1) != (sys.Paused == 0) {
				t.Fatalf("turn %d: the game stepped %d times, paused %d (was %d)", turn, stepped, sys.Paused, paused)
			}
		}
	})
}
