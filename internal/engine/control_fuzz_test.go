package engine

import (
	"testing"

	"github.com/rollstep/rollstep/core"
)

// FuzzControl runs frames of arbitrary control words from up to four
// players, as remote peers could send them, through the engine's step
// (run): 6 bytes per player per frame (command, argument, step report,
// flags and a status). The control state must stay in range (speed 1 to
// 1000 percent as SetSpeed allows, Paused 0 or 1, By a player, Since a
// frame already run, Played at most the frames run), and the game must
// be stepped exactly StepsPerFrame times when not paused, never when
// paused.
func FuzzControl(f *testing.F) {
	// players is one less than the number of players (mod 4).
	f.Add([]byte{commandPause, 0, 0, 0, 0, 1, commandResume, 0, 0, 0, 0, 1}, uint8(0), uint8(1))
	f.Add([]byte{commandSpeed, 0xff, 0xff, 0, 0, 1}, uint8(0), uint8(3))
	f.Add([]byte{commandSpeed, 0xe8, 0x03, 0xff, 1, 2, commandSpeed, 0, 0, 0, 0xff, 1}, uint8(1), uint8(0))
	f.Add([]byte{9, 1, 2, 3, 4, 5, commandPause, 1, 0, 0, 0, 0}, uint8(2), uint8(2))
	f.Fuzz(func(t *testing.T, b []byte, players, ticks uint8) {
		n := int(players%4) + 1
		k := int(ticks%4) + 1
		steps := 0
		e := &Engine[int32, uint8]{
			game: core.GameFunc[int32, uint8](func(_ *int32, in []core.Input[uint8], _ core.Effects) {
				if len(in) != n {
					t.Fatalf("Step got %d inputs for %d players", len(in), n)
				}
				steps++
			}),
			cfg:  Config{StepsPerFrame: k},
			idle: make([]core.Input[uint8], n),
		}
		var w world[int32]
		in := make([]core.Input[uint8], n)
		cmds := make([]Control, n)
		for f := core.Frame(0); len(b) >= 6*n; f++ {
			for p := range in {
				r := b[:6]
				b = b[6:]
				cmds[p] = Control{command: r[0], arg: [2]uint8{r[1], r[2]}, step: [2]uint8{r[3], 0}, flags: r[4]}
				in[p] = core.Input[uint8]{Status: core.InputStatus(r[5]%4 + 1), Value: r[3]}
			}
			before := steps
			ran := e.run(&w, f, in, cmds, NewEffectList(0))
			c := controlOf(&w.Match)
			switch {
			case c.Speed < MinSpeed || c.Speed > MaxSpeed:
				t.Fatalf("frame %d: speed %d%%", f, c.Speed)
			case w.Match.Paused > 1 || int(c.By) >= n || c.Since > f:
				t.Fatalf("frame %d: Paused %d, By %d of %d players, Since %d", f, w.Match.Paused, c.By, n, c.Since)
			case c.Played > f+1:
				t.Fatalf("frame %d: played %d frames", f, c.Played)
			case ran == c.Paused:
				t.Fatalf("frame %d: ran %v while paused %v", f, ran, c.Paused)
			case ran && steps-before != k, !ran && steps != before:
				t.Fatalf("frame %d: %d Steps, ran %v, StepsPerFrame %d", f, steps-before, ran, k)
			}
		}
	})
}
