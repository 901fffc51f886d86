package endpoint

import (
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/testenv"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// ackTap is a Conn that decodes every Input datagram sent through it and
// records, for each that carries checksum reports, how far the oldest
// report lags the message's frame, and how many carry a ChecksumAck.
type ackTap struct {
	transport.Conn
	ep     *Endpoint[slotInput] // the sender, for its keys
	w      wire.ReplayWindow
	codec  *wire.Codec[slotInput]
	msg    engine.Message[slotInput]
	inputs int
	acks   int
	lags   []int
}

func (c *ackTap) Send(to transport.Addr, p []byte) error {
	key := keyOf(c.ep, 0, p)
	if h, err := wire.ParseHeader(p, key, &c.w); err == nil {
		_ = c.w.Accept(h.Seq)
		if h.Type == wire.TypeInput {
			if _, err := c.codec.DecodeInput(p, key, &c.w, &c.msg); err == nil {
				c.inputs++
				if c.msg.ChecksumAck != 0 {
					c.acks++
				}
				if len(c.msg.Checksums) > 0 {
					c.lags = append(c.lags, int(c.msg.Frame-c.msg.Checksums[0].Frame))
				}
			}
		}
	}
	return c.Conn.Send(to, p)
}

// ackRun is what one match of TestChecksumAckUnderLoss measured on each
// node's outgoing packets.
type ackRun struct {
	share     [2]float64 // input packets carrying the ack
	p99, max  [2]int     // lag of the oldest report, frames
	checksums [2]uint64  // checksums compared
	sizeMean  [2]float64 // datagram bytes, IP+UDP included
}

// playAcks plays a 2-player rollback match of length over links of 50 ± 10
// ms and loss, with checksums every interval frames; everyAck turns the ack
// policy off.
func playAcks(t *testing.T, interval int, loss float64, length time.Duration, everyAck bool) ackRun {
	t.Helper()
	link := sim.LinkConfig{Latency: sim.Latency{Base: 50 * time.Millisecond, Jitter: 10 * time.Millisecond}, Loss: loss}
	nw, err := sim.New(sim.Config{Seed: 11, Link: link})
	if err != nil {
		t.Fatal(err)
	}
	codec, _ := wire.NewCodec[slotInput]()
	const n = 2
	frames := core.Frame(length / (time.Second / 60))
	nodes := make([]*peerNode, n)
	taps := make([]*ackTap, n)
	for i := range nodes {
		taps[i] = &ackTap{Conn: nw.NewEndpoint(), codec: codec}
	}
	for i := range nodes {
		ep, err := New[slotInput](testConfig(t, n, uint64(i)+1), taps[i], peerAddrs(n, i))
		if err != nil {
			t.Fatal(err)
		}
		ep.everyAck = everyAck
		taps[i].ep = ep
		c := engine.DefaultConfig()
		c.Local, c.Peers = []core.PlayerHandle{core.PlayerHandle(i)}, [][]core.PlayerHandle{{core.PlayerHandle(1 - i)}}
		c.ChecksumInterval = interval
		e, err := engine.NewEngine[gameState, testInput](c, core.GameFunc[gameState, testInput](stepGame), &gameState{})
		if err != nil {
			t.Fatal(err)
		}
		nodes[i] = &peerNode{eng: e, ep: ep, player: core.PlayerHandle(i)}
	}
	tick := time.Second / 60
	for now := time.Duration(0); now < length; now += tick {
		nw.RunUntil(now)
		for i, nd := range nodes {
			nd.hostLoop(t, i, now, frames+10)
		}
	}
	var r ackRun
	for i, nd := range nodes {
		st := nd.eng.Stats()
		f := nd.eng.Frame()
		if st.Desyncs != 0 || nd.desync || f < frames*8/10 {
			t.Errorf("node %d: %d desyncs, frame %d of %d", i, st.Desyncs, f, frames)
		}
		if want := uint64(f)/uint64(interval) - 20; st.Checksums < want {
			t.Errorf("node %d: %d checksums compared by frame %d, want %d", i, st.Checksums, f, want)
		}
		tp := taps[i]
		lags := slices.Clone(tp.lags)
		slices.Sort(lags)
		if len(lags) == 0 {
			t.Fatalf("node %d sent no checksum report", i)
		}
		r.share[i] = float64(tp.acks) / float64(tp.inputs)
		r.p99[i], r.max[i] = lags[len(lags)*99/100], lags[len(lags)-1]
		r.checksums[i] = st.Checksums
		ps, _ := nd.ep.Peer(0)
		r.sizeMean[i] = float64(ps.WireBytesSent()) / float64(ps.PacketsSent)
	}
	return r
}

// TestChecksumAckUnderLoss plays a 2-player rollback match over links of
// 50 ± 10 ms and 25 % loss each way, once with the endpoint's ack policy
// (the real ChecksumAck in the 4 input packets after it changes and in 1
// packet in 8, zero otherwise) and once sending every ack, and checks that
// checksums are acknowledged as well with the policy as without: core
// resends every report the peer has not acknowledged in every eighth
// message, so a lost ack shows as the oldest report in a message lagging
// its frame further. The lag (p99 and max), the checksums compared and
// the match must match the baseline, and the policy must leave the ack
// out of most packets when checksums are sparse.
func TestChecksumAckUnderLoss(t *testing.T) {
	length := testenv.Pick(15*time.Second, time.Minute)
	for _, tc := range []struct {
		name     string
		interval int
		maxShare float64 // share of input packets carrying the ack
	}{
		{"checksum every frame", 1, 1},
		{"checksum every 30 frames", 30, 0.35},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := playAcks(t, tc.interval, 0.25, length, false)
			base := playAcks(t, tc.interval, 0.25, length, true)
			for i := range 2 {
				t.Logf("node %d: ack in %.0f%% of input packets (baseline 100%%); oldest report lags p99 %d, max %d frames (baseline %d, %d); %d checksums compared (baseline %d); mean %.1f B (baseline %.1f)",
					i, 100*got.share[i], got.p99[i], got.max[i], base.p99[i], base.max[i], got.checksums[i], base.checksums[i], got.sizeMean[i], base.sizeMean[i])
				if got.p99[i] > base.p99[i]+8 || got.max[i] > base.max[i]+16 {
					t.Errorf("node %d: reports lag p99 %d, max %d frames; without the policy %d, %d", i, got.p99[i], got.max[i], base.p99[i], base.max[i])
				}
				if got.checksums[i]+5 < base.checksums[i] {
					t.Errorf("node %d: %d checksums compared, without the policy %d", i, got.checksums[i], base.checksums[i])
				}
				if got.share[i] > tc.maxShare {
					t.Errorf("node %d: %.0f%% of input packets carry the ack, want at most %.0f%%", i, 100*got.share[i], 100*tc.maxShare)
				}
			}
		})
	}
}
