package endpoint

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// sizeConn is a transport.Conn that records the size of every Input
// datagram sent through it, IP and UDP headers included, from a virtual
// time on.
type sizeConn struct {
	transport.Conn
	ep    *Endpoint[slotInput] // the sender, for its keys
	now   *time.Duration
	from  time.Duration
	sizes []int
	w     wire.ReplayWindow // expands the sequence numbers sent to the one peer
}

func (c *sizeConn) Send(to transport.Addr, p []byte) error {
	if h, err := wire.ParseHeader(p, keyOf(c.ep, 0, p), &c.w); err == nil {
		_ = c.w.Accept(h.Seq)
		if *c.now >= c.from && h.Type == wire.TypeInput {
			c.sizes = append(c.sizes, len(p)+transport.HeaderOverhead)
		}
	}
	return c.Conn.Send(to, p)
}

// sizeDist summarises datagram sizes.
type sizeDist struct {
	n                    int
	min, p50, p90, max   int
	mean                 float64
	over48               float64 // fraction above 48 bytes
	histogram            map[int]int
	histogramKeysInOrder []int
}

func distOf(sizes []int) sizeDist {
	s := slices.Clone(sizes)
	slices.Sort(s)
	d := sizeDist{n: len(s), histogram: map[int]int{}}
	if len(s) == 0 {
		return d
	}
	d.min, d.max = s[0], s[len(s)-1]
	d.p50, d.p90 = s[len(s)/2], s[len(s)*9/10]
	sum, over := 0, 0
	for _, v := range s {
		sum += v
		if v > 48 {
			over++
		}
		if d.histogram[v] == 0 {
			d.histogramKeysInOrder = append(d.histogramKeysInOrder, v)
		}
		d.histogram[v]++
	}
	d.mean = float64(sum) / float64(len(s))
	d.over48 = float64(over) / float64(len(s))
	return d
}

func (d sizeDist) String() string {
	s := fmt.Sprintf("%d datagrams: min %d, median %d, p90 %d, max %d, mean %.1f B; %.1f%% over 48 B; sizes:",
		d.n, d.min, d.p50, d.p90, d.max, d.mean, 100*d.over48)
	for _, k := range d.histogramKeysInOrder {
		s += fmt.Sprintf(" %d×%d", k, d.histogram[k])
	}
	return s
}

// steadyState plays a 2-player rollback match (D = 1, W = 8, 60 frames/s,
// 2-byte inputs) for warmup+length over links of 50 ± 10 ms one-way
// latency and 2 % loss, and returns the sizes of every Input datagram
// (IP+UDP included) node 0 sent after warmup.
func steadyState(t *testing.T, checksumInterval int, warmup, length time.Duration) sizeDist {
	t.Helper()
	link := sim.LinkConfig{Latency: sim.Latency{Base: 50 * time.Millisecond, Jitter: 10 * time.Millisecond}, Loss: 0.02}
	nw, err := sim.New(sim.Config{Seed: 7, Link: link})
	if err != nil {
		t.Fatalf("sim.New: %v", err)
	}
	var now time.Duration
	const n = 2
	nodes := make([]*peerNode, n)
	conns := make([]*sizeConn, n)
	for i := range nodes {
		conns[i] = &sizeConn{Conn: nw.NewEndpoint(), now: &now, from: warmup}
	}
	frames := core.Frame((warmup + length) / (time.Second / 60))
	for i := range nodes {
		ep, err := New[slotInput](testConfig(t, n, uint64(i)+1), conns[i], peerAddrs(n, i))
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		conns[i].ep = ep
		c := engine.DefaultConfig()
		c.Local, c.Peers = []core.PlayerHandle{core.PlayerHandle(i)}, [][]core.PlayerHandle{{core.PlayerHandle(1 - i)}}
		c.ChecksumInterval = checksumInterval
		e, err := engine.NewEngine[gameState, testInput](c, core.GameFunc[gameState, testInput](stepGame), &gameState{})
		if err != nil {
			t.Fatalf("NewEngine: %v", err)
		}
		nodes[i] = &peerNode{eng: e, ep: ep, player: core.PlayerHandle(i)}
	}
	tick := time.Second / 60
	for ; now < warmup+length; now += tick {
		nw.RunUntil(now)
		for i, nd := range nodes {
			nd.hostLoop(t, i, now, frames+10)
		}
	}
	for i, nd := range nodes {
		st := nd.eng.Stats()
		if st.Desyncs != 0 || st.BadMessages != 0 || nd.desync {
			t.Errorf("node %d: %d desyncs, %d bad messages", i, st.Desyncs, st.BadMessages)
		}
		f := nd.eng.Frame()
		if f < frames*9/10 {
			t.Errorf("node %d reached frame %d of %d", i, f, frames)
		}
		// Desync detection still compares every checksummed frame but the
		// last round trip's.
		if want := uint64(f)/uint64(checksumInterval) - 10; st.Checksums < want {
			t.Errorf("node %d: %d checksums compared by frame %d, want %d", i, st.Checksums, f, want)
		}
		ps, _ := nd.ep.Peer(0)
		if ps.RTTSamples == 0 || ps.RTT < 80*time.Millisecond || ps.RTT > 140*time.Millisecond {
			t.Errorf("node %d: RTT %v from %d samples, want about 100 ms", i, ps.RTT, ps.RTTSamples)
		}
		if ps.Truncated != 0 || ps.Rejected != 0 || ps.Malformed != 0 {
			t.Errorf("node %d: %d truncated, %d rejected, %d malformed", i, ps.Truncated, ps.Rejected, ps.Malformed)
		}
	}
	return distOf(conns[0].sizes)
}

// TestSteadyStatePacketSize measures the Input datagrams of a 60 s
// steady-state 2-player match (after 5 minutes, so frames and sequence
// numbers have their long-match sizes) at 60 frames/s with 2-byte inputs on
// a 50 ± 10 ms, 2 % loss link, IP+UDP headers included, with checksums of
// every frame (the default), of every 30th frame, and none.
func TestSteadyStatePacketSize(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 6 minutes of virtual time")
	}
	for _, tc := range []struct {
		name      string
		interval  int
		p50, mean float64 // regression bounds, bytes: measured + ~2
	}{
		// Measured before StampDue, the Frame relative to the sequence
		// number and the checksum resend cadence: median 130, mean 131.2
		// (N = 1) and median 68, mean 69.3 (N = 30). After: 74, 81.4 and
		// 55, 57.7. Wire format 2 (tag instead of token, 16-bit sequence,
		// one header byte, implied run starts, the ack only when it
		// moved): 68, 75.4 and 47, 50.2. The engines' inputs became
		// core.Slot values (an 8-byte control word before the input):
		// coded as a plain 10-byte type they cost 72, 79.8 and 51, 54.6;
		// the codec's slot literal, which spends nothing on an unchanged
		// control word, brings back 68, 75.4 and 47, 50.2.
		{"checksum every frame", 1, 70, 77},
		{"checksum every 30 frames", 30, 50, 52},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := steadyState(t, tc.interval, 5*time.Minute, time.Minute)
			t.Logf("%s: %v", tc.name, d)
			if float64(d.p50) > tc.p50 || d.mean > tc.mean {
				t.Errorf("median %d B, mean %.1f B: over %.0f and %.1f", d.p50, d.mean, tc.p50, tc.mean)
			}
		})
	}
}
