package engine

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// fuzzReader turns fuzz bytes into message fields; past the end it yields
// zeros.
type fuzzReader struct{ b []byte }

func (r *fuzzReader) u8() uint8 {
	if len(r.b) == 0 {
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

// sparse returns two bytes ANDed: each bit is set with probability 1/4,
// for masks that should usually have few bits set.
func (r *fuzzReader) sparse() uint8 {
	a := r.u8()
	return a & r.u8()
}

func (r *fuzzReader) u32() uint32 {
	var x [4]byte
	for i := range x {
		x[i] = r.u8()
	}
	return binary.LittleEndian.Uint32(x[:])
}

// frame returns a frame that is usually small and sometimes negative or
// far in the future.
func (r *fuzzReader) frame() core.Frame {
	switch k := r.u8(); k % 8 {
	case 0:
		return core.Frame(int32(r.u32()))
	case 1:
		return -core.Frame(r.u8())
	default:
		return core.Frame(r.u8())
	}
}

// slot returns a slot of a small input; one byte in eight of 0xe0 and up
// also gives it a control word from the byte's low bits: a command (4 to
// 7 are not commands), a speed argument (0 and 600 are out of range) and
// sometimes the fill flag, as a forged or broken peer might send.
func (r *fuzzReader) slot() Slot[testInput] {
	b := r.u8()
	s := Slot[testInput]{Value: testInput(b % 3)}
	if b >= 0xe0 {
		s.Control = Control{flags: b >> 4 & flagFilled, command: b & 7, arg: put16(uint16(b&0x18) * 25)}
	}
	return s
}

func (r *fuzzReader) message(players int) (core.PeerID, *Message[Slot[testInput]]) {
	from := core.PeerID(int(r.u8()%4) - 1) // -1..2: includes an unknown peer
	m := &Message[Slot[testInput]]{Frame: r.frame(), Gone: uint16(r.sparse())}
	for p := range core.MaxPlayers {
		if r.u8()%4 == 0 || p < players {
			m.Held[p] = r.frame()
		}
	}
	for k := int(r.u8() % 4); k > 0; k-- {
		run := InputRun[Slot[testInput]]{Player: core.PlayerHandle(int(r.u8()%5) - 1), Start: r.frame()}
		for n := int(r.u8() % 20); n > 0; n-- {
			run.Values = append(run.Values, r.slot())
		}
		m.Inputs = append(m.Inputs, run)
	}
	for k := int(r.u8() % 4); k > 0; k-- {
		m.Checksums = append(m.Checksums, ChecksumReport{Frame: r.frame(), Sum: uint64(r.u8())})
	}
	m.ChecksumAck = r.frame()
	if r.u8()%8 == 0 {
		// Usually a well-formed range of the world (1 KiB of game state), sometimes not.
		n := int(r.u8())*4 + int(r.u8()%8) - 2
		if r.u8()%4 == 0 {
			n = sizeOf[world[testState]]() // the first query of a search: the whole world
		}
		m.Blocks = BlockReport{Frame: r.frame(), Offset: int(r.u8()) * 3, Length: n, BlockSize: blockSizeFor(n), Hashes: make([]uint64, r.u8()%70)}
		if r.u8()%4 != 0 && n > 0 {
			m.Blocks.Hashes = make([]uint64, blockCount(n))
		}
		for i := range m.Blocks.Hashes {
			m.Blocks.Hashes[i] = uint64(r.u8())
		}
		if r.u8()%8 == 0 {
			m.Blocks.BlockSize = int(r.u8())
		}
	}
	for i := range m.Answers {
		if r.u8()%8 == 0 {
			m.Answers[i] = BlockAnswer{Frame: r.frame(), Offset: int(r.u8()) * 3, Length: int(r.u8())*4 + int(r.u8()%8) - 2, Differ: uint64(r.u32()) << (r.u8() % 40), Unavailable: r.u8()%4 == 0}
		}
	}
	m.Stamp = time.Duration(r.u32())
	m.HasEcho = r.u8()%2 == 0
	m.Echo = time.Duration(r.u32())
	return from, m
}

// answerPending puts answers to the engine's pending desync queries in m:
// usually valid, with random masks, sometimes Unavailable.
func answerPending(r *fuzzReader, h *hunt, m *Message[Slot[testInput]]) {
	for k := range min(h.npend, MaxAnswers) {
		p := &h.pend[(k+int(r.u8()))%h.npend]
		a := BlockAnswer{Frame: h.frame, Offset: p.off, Length: p.n, Differ: uint64(r.u32())<<32 | uint64(r.u32())}
		if n := blockCount(p.n); n < 64 && r.u8()%8 != 0 {
			a.Differ &= 1<<n - 1
		}
		if r.u8()%16 == 0 {
			a.Differ, a.Unavailable = 0, true
		}
		m.Answers[k] = a
	}
}

// desyncMessage returns a well-formed message of peer id's desync search:
// answers to our pending queries, and a query of the whole state of an
// early frame or of a range our replay of the peer's search expects, with
// hashes of our current state, some changed.
func desyncMessage(r *fuzzReader, e *Engine[testState, testInput], id core.PeerID) *Message[Slot[testInput]] {
	m := &Message[Slot[testInput]]{Frame: e.frame}
	answerPending(r, &e.peers[id].hunt, m)
	f, rg := core.Frame(r.u8()%4)*core.Frame(e.cfg.ChecksumInterval), span{0, sizeOf[world[testState]]()}
	if mr := &e.peers[id].hunt.theirs; mr.on && len(mr.stack) > 0 && r.u8()%4 != 0 {
		f, rg = mr.frame, mr.stack[int(r.u8())%len(mr.stack)]
	}
	hs := hashBlocks(rawOf(&e.cur, nil), rg, nil)
	for i := range hs {
		if r.u8()%4 == 0 {
			hs[i]++
		}
	}
	m.Blocks = BlockReport{Frame: f, Offset: rg.off, Length: rg.n, BlockSize: blockSizeFor(rg.n), Hashes: hs}
	return m
}

// FuzzReceive feeds random message sequences (contradictory, duplicate,
// far-future and negative frames, foreign players, bad checksums) into an
// engine that keeps advancing: it must never panic, must return only the
// documented errors, and must never lose a correction.
func FuzzReceive(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 2, 0, 0, 5, 5, 5, 1, 1, 2, 0, 3, 1, 1, 1, 2, 2, 2, 2, 2})
	f.Add([]byte{2, 0, 0, 0, 0, 0, 0, 1, 2, 2, 1, 10, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2})
	f.Add([]byte{0, 1, 255, 255, 255, 127, 1, 200, 3, 1, 1, 1, 1})
	// A message fuzzReader reads whole (the seeds above end inside their
	// first one, which Receive rejects), from peer 0 with small frames and
	// one run of player 1's inputs: Receive accepts it, so the fuzzer
	// starts from the paths that take inputs and checksums in.
	f.Add([]byte{1, 2, 0, 0, 0, 2, 2, 0, 2, 2, 0, 2, 2, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 0, 3, 1, 1, 1,
		0, 2, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 3, 7, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Config{Players: 3, Local: []core.PlayerHandle{0}, Peers: [][]core.PlayerHandle{{1}, {2}},
			InputDelay: 1, Prediction: 4, MaxPrediction: 8, LogRetention: 16}
		g := &testGame{effects: true}
		e, err := NewEngine[testState, testInput](c, g, &testState{})
		if err != nil {
			t.Fatal(err)
		}
		r := &fuzzReader{b: data}
		now := time.Duration(0)
		for i := 0; len(r.b) > 0 && i < 200; i++ {
			from, m := r.message(3)
			if from >= 0 && int(from) < len(e.peers) {
				switch r.u8() % 8 {
				case 0:
					answerPending(r, &e.peers[from].hunt, m)
				case 1, 2:
					m = desyncMessage(r, e, from)
				}
			}
			err := e.Receive(now, from, m)
			if err != nil && !errors.Is(err, ErrBadMessage) && !errors.Is(err, ErrUnknownPeer) && !errors.Is(err, ErrPeerGone) {
				t.Fatalf("undocumented error: %v", err)
			}
			switch op := r.u8() % 8; op {
			case 0:
				_ = e.DisconnectPeer(core.PeerID(r.u8() % 2))
			case 1:
				_ = e.SetInputDelay(0, int(r.u8()%10))
			case 2:
				_ = e.SetPrediction(int(r.u8() % 10))
			case 3:
				// A desync search of an early frame, so that answerPending
				// has queries to answer.
				if id := core.PeerID(r.u8() % 2); !e.peers[id].gone && !e.peers[id].hunt.active {
					st := e.cur
					e.startHunt(id, core.Frame(r.u8()%4)*core.Frame(e.cfg.ChecksumInterval), &st)
				}
			}
			now += time.Millisecond
			before := e.Frame()
			_ = e.AddLocalInput(0, testInput(r.u8()%3))
			rd := e.Advance(now)
			if e.Frame() < before || (rd.Stepped && e.Frame() != before+1) {
				t.Fatalf("frame went from %d to %d", before, e.Frame())
			}
		}
		if st := e.Stats(); st.LostCorrections != 0 {
			t.Fatalf("lost %d corrections", st.LostCorrections)
		}
		if g.sawUnknown {
			t.Fatal("Step saw the zero InputStatus")
		}
	})
}

// TestReceiveRejects pins the typed errors for bad peer messages.
func TestReceiveRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		from core.PeerID
		m    Message[Slot[testInput]]
		want error
	}{
		{"unknown-peer", 5, Message[Slot[testInput]]{}, ErrUnknownPeer},
		{"negative-run", 0, Message[Slot[testInput]]{Inputs: []InputRun[Slot[testInput]]{{Player: 1, Start: -1, Values: slots(1)}}}, ErrNegativeFrame},
		{"far-future-run", 0, Message[Slot[testInput]]{Inputs: []InputRun[Slot[testInput]]{{Player: 1, Start: 1 << 20, Values: slots(1)}}}, ErrFarFuture},
		{"negative-frame", 0, Message[Slot[testInput]]{Frame: -3}, ErrNegativeFrame},
		{"far-future-checksum", 0, Message[Slot[testInput]]{Checksums: []ChecksumReport{{Frame: 1 << 30}}}, ErrFarFuture},
		{"foreign-player", 0, Message[Slot[testInput]]{Inputs: []InputRun[Slot[testInput]]{{Player: 0, Values: slots(1)}}}, ErrBadMessage},
		// Acknowledging local inputs that do not exist (the peer holds
		// forged ones) is not a reason to drop the message: see Receive.
		{"over-acknowledged", 0, Message[Slot[testInput]]{Held: [core.MaxPlayers]core.Frame{0: 50}}, nil},
		{"bad-gone-mask", 0, Message[Slot[testInput]]{Gone: 1 << 7}, ErrBadMessage},
		// The engine's state is its world: the control state, then the
		// 1 KiB game state.
		{"query-past-state", 0, Message[Slot[testInput]]{Blocks: BlockReport{Offset: sizeOf[world[testState]]() - 24, Length: 25, BlockSize: 1, Hashes: make([]uint64, 25)}}, ErrBadMessage},
		{"query-block-size", 0, Message[Slot[testInput]]{Blocks: BlockReport{Length: 1024, BlockSize: 8, Hashes: make([]uint64, 128)}}, ErrBadMessage},
		{"query-negative-frame", 0, Message[Slot[testInput]]{Blocks: BlockReport{Frame: -1, Length: 8, BlockSize: 1, Hashes: make([]uint64, 8)}}, ErrNegativeFrame},
		{"answer-mask", 0, Message[Slot[testInput]]{Answers: [MaxAnswers]BlockAnswer{{Length: 8, Differ: 1 << 8}}}, ErrBadMessage},
		{"answer-unavailable-mask", 0, Message[Slot[testInput]]{Answers: [MaxAnswers]BlockAnswer{{Length: 8, Differ: 1, Unavailable: true}}}, ErrBadMessage},
		{"answer-negative-length", 0, Message[Slot[testInput]]{Answers: [MaxAnswers]BlockAnswer{{Length: -1}}}, ErrBadMessage},
		{"answer-far-future", 0, Message[Slot[testInput]]{Answers: [MaxAnswers]BlockAnswer{{Frame: 1 << 20, Length: 1}}}, ErrFarFuture},
		{"last-answer-past-state", 0, Message[Slot[testInput]]{Answers: [MaxAnswers]BlockAnswer{{Length: 1}, {Length: 1}, {Length: 1}, {Offset: 1 << 20, Length: 1}}}, ErrBadMessage},
		// The list ends at the first empty entry: what follows is ignored.
		{"answer-after-empty-ignored", 0, Message[Slot[testInput]]{Answers: [MaxAnswers]BlockAnswer{{Length: 1}, {}, {Offset: 1 << 20, Length: 1}}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := twoPlayerEngine(t)
			err := e.Receive(0, tc.from, &tc.m)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Receive: %v, want %v", err, tc.want)
			}
			if !errors.Is(tc.want, ErrBadMessage) && tc.want != ErrNegativeFrame && tc.want != ErrFarFuture {
				return
			}
			// A rejection allocates nothing: a peer that sends nothing but
			// bad messages costs no garbage.
			if allocs := testing.AllocsPerRun(100, func() { _ = e.Receive(0, tc.from, &tc.m) }); allocs != 0 {
				t.Errorf("a rejected message: %.1f allocations, want 0", allocs)
			}
		})
	}
	t.Run("message", func(t *testing.T) {
		e := twoPlayerEngine(t)
		err := e.Receive(0, 0, &Message[Slot[testInput]]{Gone: 1 << 7})
		var me *MessageError
		if !errors.As(err, &me) || me.Field != "Gone" || me.Reason() != "mask 0x80 names players past 1" ||
			err.Error() != "core: bad message from peer 0: Gone: mask 0x80 names players past 1" {
			t.Fatalf("Receive: %v (%#v), want Gone: mask 0x80 names players past 1", err, me)
		}
		err = e.Receive(0, 0, &Message[Slot[testInput]]{Frame: 1 << 20})
		if want := "core: bad message from peer 0: Frame: frame 1048576 is more than "; !errors.Is(err, ErrFarFuture) || !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("Receive: %v, want %q...", err, want)
		}
	})
	t.Run("equivocation", func(t *testing.T) {
		e := twoPlayerEngine(t)
		m1 := Message[Slot[testInput]]{Inputs: []InputRun[Slot[testInput]]{{Player: 1, Values: slots(1, 2, 3)}}}
		m2 := Message[Slot[testInput]]{Inputs: []InputRun[Slot[testInput]]{{Player: 1, Start: 1, Values: slots(2, 9)}}}
		if err := e.Receive(0, 0, &m1); err != nil {
			t.Fatal(err)
		}
		if err := e.Receive(0, 0, &m1); err != nil { // duplicate: fine
			t.Fatal(err)
		}
		if err := e.Receive(0, 0, &m2); err != nil {
			t.Fatal(err)
		}
		_ = e.AddLocalInput(0, 0)
		r := e.Advance(0)
		var got []core.EquivocationEvent
		for _, ev := range r.Events {
			if q, ok := ev.(core.EquivocationEvent); ok {
				got = append(got, q)
			}
		}
		if len(got) != 1 || got[0] != (core.EquivocationEvent{Peer: 0, Player: 1, Frame: 2}) {
			t.Fatalf("events %+v, want one equivocation at frame 2", got)
		}
		if v := e.vals[e.idx(1, 2)].Value; v != 3 {
			t.Fatalf("frame 2 holds %d, want the first value 3", v)
		}
	})
}

// TestForgedEchoes: a peer's Echo and EchoDelay cannot wrap the round-trip
// estimate or push it past rtt.Max. Before they were checked, an EchoDelay
// of -1 h made a 1-hour RTT, and an Echo from our future a negative one.
func TestForgedEchoes(t *testing.T) {
	e := twoPlayerEngine(t)
	now := 10 * time.Second
	for _, m := range []Message[Slot[testInput]]{
		{Stamp: 1, HasEcho: true, Echo: 0, EchoDelay: -time.Hour},
		{Stamp: 2, HasEcho: true, Echo: now + time.Second},
		{Stamp: 3, HasEcho: true, Echo: -time.Hour},
		{Stamp: 4, HasEcho: true, Echo: 0, EchoDelay: 0}, // 10 s: at the limit, kept
	} {
		if err := e.Receive(now, 0, &m); err != nil {
			t.Fatalf("Receive(%+v): %v", m, err)
		}
	}
	p := e.Stats().Peers[0]
	if p.RTTSamples != 1 || p.RTT != 10*time.Second {
		t.Fatalf("RTT %v from %d samples, want 10s from the one plausible sample", p.RTT, p.RTTSamples)
	}
}

// TestOneAbsurdSample: one round-trip sample of seconds (forged, or a
// freak) barely moves a 50 ms estimate, and so cannot push the input delay
// far; a real step to 500 ms is followed as fast as the estimator's gain
// allows, but for its first sample.
func TestOneAbsurdSample(t *testing.T) {
	e := twoPlayerEngine(t)
	now := 20 * time.Second
	sample := func(r time.Duration) time.Duration {
		now += 20 * time.Millisecond
		m := Message[Slot[testInput]]{Stamp: now, HasEcho: true, Echo: now - r}
		if err := e.Receive(now, 0, &m); err != nil {
			t.Fatal(err)
		}
		return e.Stats().Peers[0].RTT
	}
	for range 20 {
		sample(50 * time.Millisecond)
	}
	if got := sample(9 * time.Second); got > 100*time.Millisecond {
		t.Errorf("after one 9 s sample: RTT %v, want at most 100ms", got)
	}
	var got time.Duration
	for range 30 { // half a second of messages at 60 a second
		got = sample(500 * time.Millisecond)
	}
	if got < 450*time.Millisecond {
		t.Errorf("after 30 samples of 500 ms: RTT %v, want at least 450ms", got)
	}
}

// twoPlayerEngine returns an engine of player 0 in a 2-player match with
// prediction, whose one peer (PeerID 0) owns player 1.
func twoPlayerEngine(t *testing.T) *Engine[testState, testInput] {
	t.Helper()
	c := Config{Players: 2, Local: []core.PlayerHandle{0}, Peers: [][]core.PlayerHandle{{1}}, Prediction: 8}
	e, err := NewEngine[testState, testInput](c, &testGame{}, &testState{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}
