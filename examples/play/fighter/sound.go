package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"

	"github.com/hajimehoshi/ebiten/v2/audio"
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/examples/play/internal/duel"
)

// sampleRate is the audio output's rate.
const sampleRate = 44100

// newSounds returns the function that starts an effect's sound, or nil
// (silence) with -mute or on a Linux machine without a sound device,
// where the audio library would end the game with an error instead.
func newSounds(mute bool, stdout io.Writer) (duel.Voices, error) {
	if mute {
		return nil, nil
	}
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/dev/snd"); err != nil {
			fmt.Fprintln(stdout, "no sound device (/dev/snd): playing without sound")
			return nil, nil
		}
	}
	ctx := audio.NewContext(sampleRate)
	clips := map[uint32][]byte{
		fighter.EffectHit: synth(0.14, func(t float64, n float64) float64 {
			return 0.7*n*math.Exp(-t*30) + 0.5*math.Sin(2*math.Pi*90*t)*math.Exp(-t*20)
		}),
		fighter.EffectBlock: synth(0.06, func(t float64, n float64) float64 { return 0.4 * math.Sin(2*math.Pi*1800*t) * math.Exp(-t*60) }),
		fighter.EffectKO:    synth(0.8, func(t float64, _ float64) float64 { return 0.5 * math.Sin(2*math.Pi*(330-250*t)*t) * (1 - t/0.8) }),
	}
	return func(e core.Effect) duel.Voice {
		clip, ok := clips[e.Kind]
		if !ok {
			return nil
		}
		p := ctx.NewPlayerFromBytes(clip)
		p.Play()
		return sound{p}
	}, nil
}

// sound is a playing clip; Stop silences it (a rollback cancelled its
// effect).
type sound struct{ p *audio.Player }

func (s sound) Stop() {
	s.p.Pause()
	_ = s.p.Close()
}

// synth renders seconds of a mono signal f(t, noise) as the 16-bit
// little-endian stereo PCM the audio context plays. The noise is a fixed
// xorshift sequence, so every run sounds the same.
func synth(seconds float64, f func(t, noise float64) float64) []byte {
	n := int(seconds * sampleRate)
	out := make([]byte, 4*n)
	x := uint32(2463534242)
	for i := range n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		noise := float64(int32(x)) / math.MaxInt32
		v := max(-1, min(1, f(float64(i)/sampleRate, noise)))
		s := uint16(int16(v * math.MaxInt16))
		binary.LittleEndian.PutUint16(out[4*i:], s)
		binary.LittleEndian.PutUint16(out[4*i+2:], s)
	}
	return out
}
