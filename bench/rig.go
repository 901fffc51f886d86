package bench

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// rig drives two real engines through a rollback of a fixed depth on every
// frame. Engine a is measured: it owns player 0. Engine b owns every other
// player and is the remote peer. Messages from a reach b at once; messages
// from b reach a lag frames late, and a's predictor always guesses wrong,
// so every frame the input that arrives for frame f−lag contradicts the
// prediction: a loads the state before f−lag, re-simulates lag frames and
// steps frame f (lag+1 steps, lag saves, one load).
//
// With lag 0, b runs first in each frame and a holds every input before it
// needs it: a never predicts and never rolls back.
//
// Invariants: queue has lag+1 slots and slot g%(lag+1) holds b's message of
// frame g until a receives it at frame g+lag; wrong[p][f%len] and
// right[p][f%len] hold player p's predicted and real input of frame f for
// frames f−2·lag−2 … f+1, filled outside the timed section by fill.
type rig[S any, I comparable] struct {
	a, b   *engine.Engine[S, I]
	inputs func(core.PlayerHandle, core.Frame) I
	n      int // players
	lag    int
	frame  core.Frame // the frame a simulates next
	now    time.Duration
	tick   time.Duration
	queue  []engine.Message[engine.Slot[I]]
	queued []bool
	right  [][]I // right[p][f%len(right[p])]: the real input of p at f
	wrong  [][]I // a value different from right, when one was found
	differ bool  // every wrong value filled so far differs from right
}

// newRig builds the two engines. w is a's prediction window; lag is how
// many frames late b's inputs reach a (0 ≤ lag ≤ w).
func newRig[S any, I comparable](game core.Game[S, I], initial *S, inputs func(core.PlayerHandle, core.Frame) I,
	players, w, lag, tickRate, checksumInterval int, disableChecksums bool) (*rig[S, I], error) {
	r := &rig[S, I]{inputs: inputs, n: players, lag: lag, tick: time.Second / time.Duration(tickRate), differ: true}
	remote := make([]core.PlayerHandle, 0, players-1)
	for p := 1; p < players; p++ {
		remote = append(remote, core.PlayerHandle(p))
	}
	ca := engine.Config{Players: players, Local: []core.PlayerHandle{0}, Peers: [][]core.PlayerHandle{remote},
		Prediction: w, MaxPrediction: w, ChecksumInterval: checksumInterval, DisableChecksums: disableChecksums}
	cb := engine.Config{Players: players, Local: remote, Peers: [][]core.PlayerHandle{{0}},
		Prediction: w, MaxPrediction: w, ChecksumInterval: checksumInterval, DisableChecksums: disableChecksums}
	var err error
	if r.a, err = engine.NewEngine(ca, game, initial); err != nil {
		return nil, err
	}
	if r.b, err = engine.NewEngine(cb, game, initial); err != nil {
		return nil, err
	}
	size := 2*lag + 8
	r.right, r.wrong = make([][]I, players), make([][]I, players)
	for p := range players {
		r.right[p], r.wrong[p] = make([]I, size), make([]I, size)
	}
	for f := core.Frame(0); f < 2; f++ {
		r.fill(f)
	}
	r.queue, r.queued = make([]engine.Message[engine.Slot[I]], lag+1), make([]bool, lag+1)
	if lag > 0 {
		r.a.SetPredictor(r.predict)
	}
	return r, nil
}

// fill computes the real and the wrong input of every player for frame f.
// The wrong input is the zero value or, if that is the real one, the
// real input of a later frame that differs.
func (r *rig[S, I]) fill(f core.Frame) {
	var zero I
	for p := range r.n {
		i := int(f) % len(r.right[p])
		v := r.inputs(core.PlayerHandle(p), f)
		r.right[p][i] = v
		w := zero
		for k := core.Frame(1); w == v && k <= 16; k++ {
			w = r.inputs(core.PlayerHandle(p), f+k)
		}
		if w == v {
			r.differ = false
		}
		r.wrong[p][i] = w
	}
}

// predict is a's Predictor: always the wrong input, so every input that
// arrives late forces a rollback. It is a pure function of its arguments
// for as long as the frame's entry is held.
func (r *rig[S, I]) predict(p core.PlayerHandle, f core.Frame, _ I, _ core.Frame, _ bool) I {
	s := r.wrong[p]
	return s[int(f)%len(s)]
}

// step runs one frame of both engines and returns how long engine a's
// share (Receive, AddLocalInput, Advance) took.
func (r *rig[S, I]) step() time.Duration {
	f := r.frame
	r.fill(f + 2)
	r.now += r.tick
	if r.lag == 0 {
		r.stepB(f)
	}
	local := r.right[0][int(f)%len(r.right[0])]
	slot := int(f) % len(r.queue)
	t0 := time.Now()
	if r.queued[slot] {
		_ = r.a.Receive(r.now, 0, &r.queue[slot])
	}
	_ = r.a.AddLocalInput(0, local)
	ready := r.a.Advance(r.now)
	d := time.Since(t0)
	r.queued[slot] = false
	for _, o := range ready.Messages {
		_ = r.b.Receive(r.now, 0, o.Message)
	}
	if r.lag > 0 {
		r.stepB(f)
	}
	r.frame++
	return d
}

// stepB runs engine b for frame f and queues its message for a.
func (r *rig[S, I]) stepB(f core.Frame) {
	for p := 1; p < r.n; p++ {
		_ = r.b.AddLocalInput(core.PlayerHandle(p), r.right[p][int(f)%len(r.right[p])])
	}
	ready := r.b.Advance(r.now)
	slot := (int(f) + r.lag) % len(r.queue)
	for _, o := range ready.Messages {
		copyMessage(&r.queue[slot], o.Message)
		r.queued[slot] = true
	}
}

// copyMessage copies src into dst, reusing dst's slices so that a warm
// queue allocates nothing.
func copyMessage[I comparable](dst, src *engine.Message[I]) {
	runs := dst.Inputs[:0]
	for _, in := range src.Inputs {
		i := len(runs)
		if i < cap(runs) {
			runs = runs[:i+1]
		} else {
			runs = append(runs, engine.InputRun[I]{})
		}
		runs[i].Player, runs[i].Start = in.Player, in.Start
		runs[i].Values = append(runs[i].Values[:0], in.Values...)
	}
	sums := append(dst.Checksums[:0], src.Checksums...)
	hashes := append(dst.Blocks.Hashes[:0], src.Blocks.Hashes...)
	*dst = *src
	dst.Inputs, dst.Checksums, dst.Blocks.Hashes = runs, sums, hashes
}
