package engine

import (
	"time"

	"github.com/rollstep/rollstep/core"
)

// copyInto copies src into dst reusing dst's buffers, so a benchmark can
// hold messages without allocating after warm-up.
func copyInto(dst, src *Message[Slot[testInput]]) {
	runs := dst.Inputs[:0]
	for _, r := range src.Inputs {
		i := len(runs)
		if i < cap(runs) {
			runs = runs[:i+1]
		} else {
			runs = append(runs, InputRun[Slot[testInput]]{})
		}
		runs[i].Player, runs[i].Start = r.Player, r.Start
		runs[i].Values = append(runs[i].Values[:0], r.Values...)
	}
	hashes := append(dst.Blocks.Hashes[:0], src.Blocks.Hashes...)
	sums := append(dst.Checksums[:0], src.Checksums...)
	*dst = *src
	dst.Inputs, dst.Checksums = runs, sums
	dst.Blocks.Hashes = hashes
}

// bench drives n engines (engine i owns player i) over an ideal network
// that delivers every message lag+1 frames after it was sent (with lag 0,
// in the same frame, after every engine advanced).
type bench struct {
	engs   []*Engine[testState, testInput]
	lag    int
	queue  [][]Message[Slot[testInput]] // [slot][from*n+to]
	frame  core.Frame
	now    time.Duration
	change core.Frame // inputs change every change frames (a power of two)
	shift  uint       // log2(change)
}

func newBench(n, d, w, lag int, change core.Frame, mutate func(*Config)) *bench {
	return newBenchGame(n, d, w, lag, change, mutate, 0)
}

// newBenchGame is newBench with a Step that mixes the whole state heavy
// times (testGame.heavy).
func newBenchGame(n, d, w, lag int, change core.Frame, mutate func(*Config), heavy int) *bench {
	b := &bench{lag: lag, change: change}
	for core.Frame(1)<<b.shift < change {
		b.shift++
	}
	for i := 0; i < n; i++ {
		c := Config{Players: n, Local: []core.PlayerHandle{core.PlayerHandle(i)}, InputDelay: d, Prediction: w, MaxPrediction: 8}
		for j := 0; j < n; j++ {
			if j != i {
				c.Peers = append(c.Peers, []core.PlayerHandle{core.PlayerHandle(j)})
			}
		}
		if mutate != nil {
			mutate(&c)
		}
		e, err := NewEngine[testState, testInput](c, &testGame{heavy: heavy}, &testState{})
		if err != nil {
			panic(err)
		}
		b.engs = append(b.engs, e)
	}
	b.queue = make([][]Message[Slot[testInput]], lag+1)
	for i := range b.queue {
		b.queue[i] = make([]Message[Slot[testInput]], n*n)
	}
	return b
}

// step runs one frame on every engine and delivers the messages due.
func (b *bench) step() {
	n := len(b.engs)
	b.now += 16 * time.Millisecond
	slot := int(b.frame) % len(b.queue)
	for i, e := range b.engs {
		// Deliver what was sent lag+1 frames ago (the slot about to be
		// reused); with lag 0 messages are delivered at the end instead.
		for j := 0; j < n && b.lag > 0; j++ {
			m := &b.queue[slot][j*n+i]
			if j != i && m.Stamp != 0 {
				_ = e.Receive(b.now, peerID(i, j), m)
			}
		}
	}
	for i, e := range b.engs {
		d := e.delay[i]
		f := e.Frame() + core.Frame(d)
		_ = e.AddLocalInput(core.PlayerHandle(i), testInput(uint32(f>>b.shift)*uint32(i+3)%7))
		r := e.Advance(b.now)
		if b.lag == 0 {
			continue // delivered below, straight from the engine's Ready
		}
		for _, o := range r.Messages {
			j := int(o.To)
			if j >= i {
				j++
			}
			copyInto(&b.queue[slot][i*n+j], o.Message)
		}
	}
	if b.lag == 0 {
		// Messages stay valid until their sender's next Advance, and
		// Receive copies what it keeps: hand them over directly.
		for i, e := range b.engs {
			for _, o := range e.ready.Messages {
				j := int(o.To)
				if j >= i {
					j++
				}
				_ = b.engs[j].Receive(b.now, peerID(j, i), o.Message)
			}
		}
	}
	b.frame++
}

// bareLoop is the baseline: the same Steps and state copies without the
// engine. Each of n players' states is saved and stepped once per frame,
// and with depth > 0 also loaded and re-stepped depth frames (saving each).
type bareLoop struct {
	n     int
	depth int
	save  bool
	cur   []testState
	ring  [][10]testState
	in    []core.Input[testInput]
	g     testGame
	fx    EffectList
	frame int
}

func newBareLoop(n, depth int, save bool) *bareLoop {
	return &bareLoop{n: n, depth: depth, save: save, cur: make([]testState, n), ring: make([][10]testState, n), in: make([]core.Input[testInput], n)}
}

func (l *bareLoop) step() {
	for i := range l.cur {
		s := &l.cur[i]
		if l.depth > 0 {
			s2 := &l.ring[i][(l.frame+10-l.depth)%10]
			*s = *s2
			for k := l.depth; k > 0; k-- {
				if k < l.depth {
					l.ring[i][(l.frame+10-k)%10] = *s
				}
				for p := range l.in {
					l.in[p] = core.Input[testInput]{Value: testInput(l.frame - k + p), Status: core.InputConfirmed}
				}
				l.g.Step(s, l.in, &l.fx)
			}
		}
		if l.save {
			l.ring[i][l.frame%10] = *s
		}
		for p := range l.in {
			l.in[p] = core.Input[testInput]{Value: testInput(l.frame + p), Status: core.InputConfirmed}
		}
		l.g.Step(s, l.in, &l.fx)
	}
	l.frame++
}
