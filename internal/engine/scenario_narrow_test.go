package engine

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/testenv"
)

// bigState is a 360 KiB state of arrays of structs, for the desync search.
type bigState struct {
	Frame int32
	Acc   uint32
	Units [16384]bigUnit
	Cells [8192]uint32
}

type bigUnit struct {
	Pos, Vel bigVec
	HP       int32
}

type bigVec struct{ X, Y int32 }

// bigGame moves one unit per frame and applies nudge at frame nudgeAt.
// Step reads none of the fields the tests nudge, so a nudge changes
// exactly the nudged fields.
type bigGame struct {
	nudgeAt core.Frame
	nudge   func(s *bigState)
}

func (g *bigGame) Step(s *bigState, inputs []core.Input[testInput], _ core.Effects) {
	f := core.Frame(s.Frame)
	s.Frame++
	for p, in := range inputs {
		s.Acc = s.Acc*2654435761 + uint32(in.Value) + uint32(p) + 1
	}
	u := &s.Units[int(f)%512]
	u.Vel.X += int32(s.Acc % 5)
	u.Pos.X += u.Vel.X
	s.Cells[int(f)%64] ^= s.Acc
	if g.nudge != nil && f == g.nudgeAt {
		g.nudge(s)
	}
}

// bigNode is one engine of a bigNet.
type bigNode struct {
	eng    *Engine[bigState, testInput]
	events []core.Event
}

type bigPacket struct {
	at       time.Duration
	seq      uint64
	from, to int
	msg      *Message[Slot[testInput]]
}

// bigNet connects two bigState engines over a seeded lossy network that
// reorders (jitter) and duplicates messages, on virtual time.
type bigNet struct {
	t        *testing.T
	rng      *rand.Rand
	now      time.Duration
	nodes    [2]*bigNode
	inflight []bigPacket
	seq      uint64
	end      core.Frame
	latency  time.Duration
	extra    [2]time.Duration // more latency on messages from node i
	jitter   time.Duration
	loss     int // per mille
	dup      int // per mille
}

func newBigNet(t *testing.T, seed uint64, end core.Frame, cfg func(i int, c *Config), nudgeAt core.Frame, nudge func(*bigState)) *bigNet {
	n := &bigNet{t: t, rng: rand.New(rand.NewPCG(seed, seed^0xb16)), end: end,
		latency: 30 * time.Millisecond, jitter: 40 * time.Millisecond, loss: 100, dup: 50}
	for i := range n.nodes {
		c := DefaultConfig()
		c.Local = []core.PlayerHandle{core.PlayerHandle(i)}
		c.Peers = [][]core.PlayerHandle{{core.PlayerHandle(1 - i)}}
		c.SnapshotRetention = 16
		cfg(i, &c)
		g := &bigGame{}
		if i == 0 {
			g.nudgeAt, g.nudge = nudgeAt, nudge
		}
		e, err := NewEngine[bigState, testInput](c, g, new(bigState))
		if err != nil {
			t.Fatalf("NewEngine(node %d): %v", i, err)
		}
		n.nodes[i] = &bigNode{eng: e}
	}
	return n
}

// searching reports whether a node's desync search is still running.
func (n *bigNet) searching() bool {
	for _, nd := range n.nodes {
		if nd.eng.peers[0].hunt.active || nd.eng.peers[0].answering() {
			return true
		}
	}
	return false
}

// answering reports whether an answer to the peer is due in the next
// message.
func (q *peer[I]) answering() bool {
	for k := range q.answers {
		if q.answers[k].send > 0 {
			return true
		}
	}
	return false
}

// run ticks every 16 ms until both engines reached the end frame and no
// search is running, failing after maxTicks.
func (n *bigNet) run(maxTicks int) {
	n.t.Helper()
	for k := 0; k < maxTicks; k++ {
		if n.nodes[0].eng.Frame() >= n.end && n.nodes[1].eng.Frame() >= n.end && !n.searching() {
			return
		}
		n.step()
	}
	n.t.Fatalf("not done after %d ticks: frames %d, %d", maxTicks, n.nodes[0].eng.Frame(), n.nodes[1].eng.Frame())
}

func (n *bigNet) step() {
	n.now += 16 * time.Millisecond
	slices.SortFunc(n.inflight, func(a, b bigPacket) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.seq, b.seq))
	})
	k := 0
	for k < len(n.inflight) && n.inflight[k].at <= n.now {
		p := n.inflight[k]
		if err := n.nodes[p.to].eng.Receive(n.now, 0, p.msg); err != nil {
			n.t.Fatalf("node %d receive: %v", p.to, err)
		}
		k++
	}
	n.inflight = append(n.inflight[:0], n.inflight[k:]...)
	for i, nd := range n.nodes {
		e := nd.eng
		d, _ := e.InputDelay(core.PlayerHandle(i))
		if f := e.Frame() + core.Frame(d); f < n.end {
			_ = e.AddLocalInput(core.PlayerHandle(i), genInput(7, i, f))
		}
		r := e.Advance(n.now)
		nd.events = append(nd.events, r.Events...)
		for _, o := range r.Messages {
			for copies := 1 + min(1, n.rng.IntN(1000)/(1000-n.dup)); copies > 0; copies-- {
				if n.rng.IntN(1000) < n.loss {
					continue
				}
				n.seq++
				lat := n.latency + n.extra[i] + time.Duration(n.rng.Int64N(int64(n.jitter)))
				n.inflight = append(n.inflight, bigPacket{at: n.now + lat, seq: n.seq, from: i, to: 1 - i, msg: cloneMessage(o.Message)})
			}
		}
	}
}

// desyncs returns a node's desync and field events.
func (nd *bigNode) desyncs() ([]core.DesyncEvent[bigState], []core.DesyncFieldsEvent) {
	var ds []core.DesyncEvent[bigState]
	var fs []core.DesyncFieldsEvent
	for _, ev := range nd.events {
		switch ev := ev.(type) {
		case core.DesyncEvent[bigState]:
			ds = append(ds, ev)
		case core.DesyncFieldsEvent:
			fs = append(fs, ev)
		}
	}
	return ds, fs
}

// A nudge of fields deep inside a large state is narrowed down to exactly
// those fields on both peers, with N = 1 and 10, W = 0 and 8, under loss,
// reordering and duplication; the naive oracle is state.Diff of the two
// peers' snapshots.
func TestScenarioNarrowLargeState(t *testing.T) {
	if sizeOf[bigState]() < 256<<10 {
		t.Fatalf("bigState is %d bytes, want at least 256 KiB", sizeOf[bigState]())
	}
	many := func(s *bigState) {
		for i := range 20 {
			s.Units[1000+i*300].HP++
		}
	}
	var manyPaths []string
	for i := range 16 {
		manyPaths = append(manyPaths, fmt.Sprintf("Units[%d].HP", 1000+i*300))
	}
	cases := []struct {
		name       string
		nudge      func(s *bigState)
		want       []string
		incomplete bool
	}{
		{"one", func(s *bigState) { s.Units[4711].Pos.X++ }, []string{"Units[4711].Pos.X"}, false},
		{"two-blocks", func(s *bigState) { s.Cells[7000] ^= 1 << 31; s.Units[4711].Pos.X-- }, []string{"Units[4711].Pos.X", "Cells[7000]"}, false},
		{"neighbours", func(s *bigState) { s.Units[9000].Vel.Y += 256; s.Units[9000].HP++ }, []string{"Units[9000].Vel.Y", "Units[9000].HP"}, false},
		{"many", many, manyPaths, true},
		{"none", nil, nil, false},
	}
	type interval struct {
		n     int        // the checksum interval
		frame core.Frame // the frame the desync is detected at
	}
	// Every frame, and (in the soak run) every 10th.
	intervals := testenv.Pick([]interval{{1, 61}}, []interval{{1, 61}, {10, 70}})
	for _, tc := range cases {
		for _, ck := range intervals {
			for _, w := range []int{0, 8} {
				t.Run(fmt.Sprintf("%s/N%d/W%d", tc.name, ck.n, w), func(t *testing.T) {
					net := newBigNet(t, uint64(ck.n*100+w), 150, func(i int, c *Config) {
						c.ChecksumInterval, c.Prediction, c.MaxPrediction = ck.n, w, w
					}, 61, tc.nudge)
					net.run(5000)
					var snaps [2]*bigState
					for i, nd := range net.nodes {
						ds, fs := nd.desyncs()
						if tc.nudge == nil {
							if len(ds)+len(fs) != 0 {
								t.Fatalf("node %d: false desync: %+v %+v", i, ds, fs)
							}
							continue
						}
						if len(ds) != 1 || ds[0].Frame != ck.frame || ds[0].Snapshot == nil {
							t.Fatalf("node %d: desync events %d (want 1 at frame %d with a snapshot)", i, len(ds), ck.frame)
						}
						snaps[i] = ds[0].Snapshot
						if len(fs) != 1 {
							t.Fatalf("node %d: %d field events, want 1", i, len(fs))
						}
						got := fs[0]
						if got.Frame != ck.frame || !slices.Equal(got.Paths, tc.want) || got.Incomplete != tc.incomplete {
							t.Fatalf("node %d: fields %+v, want frame %d paths %q incomplete %v", i, got, ck.frame, tc.want, tc.incomplete)
						}
					}
					if tc.nudge != nil {
						if oracle := diffPathsOf(snaps[0], snaps[1], maxPaths); !slices.Equal(oracle, tc.want) {
							t.Fatalf("oracle diff %q, want %q", oracle, tc.want)
						}
					}
				})
			}
		}
	}
}

// When the state of the desynced frame has expired, the event says so
// instead of guessing: on the engine that lost it, and on its peer, whose
// queries get an Unavailable answer.
func TestScenarioNarrowExpired(t *testing.T) {
	nudge := func(s *bigState) { s.Units[4711].Pos.X++ }
	t.Run("both", func(t *testing.T) {
		net := newBigNet(t, 3, 120, func(i int, c *Config) { c.SnapshotRetention = 1 }, 61, nudge)
		net.latency = 200 * time.Millisecond
		net.run(5000)
		for i, nd := range net.nodes {
			ds, fs := nd.desyncs()
			if len(ds) != 1 || ds[0].Snapshot != nil || len(fs) != 1 || !fs[0].Incomplete || len(fs[0].Paths) != 0 || fs[0].Reason != "the local state of the frame has expired" {
				t.Fatalf("node %d: events %+v %+v, want an expired snapshot", i, ds, fs)
			}
		}
	})
	t.Run("peer", func(t *testing.T) {
		net := newBigNet(t, 4, 120, func(i int, c *Config) {
			if i == 1 {
				c.SnapshotRetention = 1
			} else {
				c.SnapshotRetention = 64
			}
		}, 61, nudge)
		net.latency = 200 * time.Millisecond
		net.run(5000)
		_, fs := net.nodes[0].desyncs()
		if len(fs) != 1 || !fs[0].Incomplete || len(fs[0].Paths) != 0 || fs[0].Reason != "the peer's state of the frame has expired" {
			t.Fatalf("node 0: field events %+v, want the peer's state expired", fs)
		}
	})
}

// The peers detect the desync at very different times (one direction is
// 400 ms slower), and one disconnects mid-search.
func TestScenarioNarrowTiming(t *testing.T) {
	nudge := func(s *bigState) { s.Units[12345].Vel.X-- }
	want := []string{"Units[12345].Vel.X"}
	for _, slow := range []int{0, 1} {
		t.Run(fmt.Sprintf("asymmetric/slow%d", slow), func(t *testing.T) {
			net := newBigNet(t, 5, 150, func(i int, c *Config) { c.SnapshotRetention = 64 }, 61, nudge)
			net.extra[slow] = 400 * time.Millisecond
			net.run(5000)
			for i, nd := range net.nodes {
				_, fs := nd.desyncs()
				if len(fs) != 1 || !slices.Equal(fs[0].Paths, want) || fs[0].Incomplete {
					t.Fatalf("node %d: field events %+v, want %q", i, fs, want)
				}
			}
		})
	}
	t.Run("disconnect", func(t *testing.T) {
		net := newBigNet(t, 6, 150, func(i int, c *Config) {}, 61, nudge)
		for k := 0; k < 1000; k++ {
			if ds, _ := net.nodes[0].desyncs(); len(ds) > 0 {
				break
			}
			net.step()
		}
		if !net.nodes[0].eng.peers[0].hunt.active {
			t.Fatal("node 0 is not searching after its desync event")
		}
		if err := net.nodes[0].eng.DisconnectPeer(0); err != nil {
			t.Fatal(err)
		}
		r := net.nodes[0].eng.Advance(net.now + time.Millisecond)
		var fs []core.DesyncFieldsEvent
		for _, ev := range r.Events {
			if f, ok := ev.(core.DesyncFieldsEvent); ok {
				fs = append(fs, f)
			}
		}
		if len(fs) != 1 || !fs[0].Incomplete || fs[0].Reason != "the peer disconnected" {
			t.Fatalf("field events %+v, want one ended by the disconnect", fs)
		}
	})
}
