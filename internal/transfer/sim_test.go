package transfer

import (
	"testing"
	"time"
)

// simConfig describes one simulated transfer.
type simConfig struct {
	link     linkConfig    // both directions
	sender   SenderConfig  //
	ackEvery int           // the receiver acks every ackEvery fresh chunks (duplicates at once); 0 means 1
	ackDelay time.Duration // and at most ackDelay after a fresh chunk it did not ack
	seed     uint64
	limit    time.Duration // fail the test past this virtual time; 0 means 60 s
	// onSend, if set, sees every chunk message the sender emits.
	onSend func(now time.Duration, msg []byte)
}

// simResult is what a simulated transfer measured.
type simResult struct {
	complete time.Duration // when the receiver had every chunk
	done     time.Duration // when the sender had every ack
	stats    SenderStats
	acksSent int
	blob     []byte // the receiver's blob
}

// simulate moves blob, which offer describes, over a pair of lossy links
// in virtual time from 0, and fails the test if it does not arrive.
func simulate(t testing.TB, cfg simConfig, offer Offer, blob []byte) simResult {
	t.Helper()
	snd, err := NewSender(cfg.sender, offer, blob)
	if err != nil {
		t.Fatal(err)
	}
	rcv, err := NewReceiver(offer, 0)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.link.Latency > 0 {
		snd.SetRTT(2*cfg.link.Latency + cfg.link.Jitter)
	}
	ackEvery := max(cfg.ackEvery, 1)
	limit := cfg.limit
	if limit == 0 {
		limit = 60 * time.Second
	}
	down := newLossyLink(cfg.link, cfg.seed)
	up := newLossyLink(cfg.link, cfg.seed+1)
	var res simResult
	buf := make([]byte, 0, ChunkHeaderSize+MaxChunkSize)
	ackBuf := make([]byte, 0, AckSize)
	pending, ackAt := 0, never
	sendAck := func(now time.Duration) {
		up.send(now, AppendAck(ackBuf[:0], rcv.Ack()))
		res.acksSent++
		pending, ackAt = 0, never
	}
	var now time.Duration
	for !snd.Done() {
		if err := snd.Err(); err != nil {
			t.Fatalf("at %v: %v (%+v)", now, err, snd.Stats())
		}
		if now > limit {
			t.Fatalf("not done by %v: %+v", limit, snd.Stats())
		}
		busy := false
		for {
			msg, ok := snd.Next(now, buf[:0])
			if !ok {
				break
			}
			busy = true
			if cfg.onSend != nil {
				cfg.onSend(now, msg)
			}
			down.send(now, msg)
		}
		for {
			b, ok := down.recv(now)
			if !ok {
				break
			}
			busy = true
			c, err := DecodeChunk(b)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := rcv.OnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			if fresh && rcv.Complete() {
				res.complete = now
			}
			if !fresh || rcv.Complete() {
				sendAck(now)
				continue
			}
			pending++
			if pending >= ackEvery {
				sendAck(now)
			} else if pending == 1 {
				ackAt = now + cfg.ackDelay
			}
		}
		if pending > 0 && now >= ackAt {
			busy = true
			sendAck(now)
		}
		for {
			b, ok := up.recv(now)
			if !ok {
				break
			}
			busy = true
			a, err := DecodeAck(b)
			if err != nil {
				t.Fatal(err)
			}
			if err := snd.OnAck(now, a); err != nil {
				t.Fatal(err)
			}
		}
		if snd.Done() {
			break
		}
		next := min(snd.Wake(now), down.wake(), up.wake(), ackAt)
		if next <= now && !busy && !snd.Done() && snd.Err() == nil {
			t.Fatalf("at %v: Wake says now but Next sends nothing (%+v)", now, snd.Stats())
		}
		now = max(now, next)
	}
	res.done = now
	res.stats = snd.Stats()
	res.blob = rcv.Blob()
	if res.blob == nil {
		t.Fatal("sender done, receiver incomplete")
	}
	return res
}
