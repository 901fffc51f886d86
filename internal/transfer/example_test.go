package transfer_test

import (
	"bytes"
	"fmt"
	"math"
	"time"

	"github.com/rollstep/rollstep/internal/transfer"
)

// link is an in-memory datagram channel with a fixed latency that drops
// every dropEvery-th datagram.
type link struct {
	latency   time.Duration
	dropEvery int
	sent      int
	queue     []datagram
}

type datagram struct {
	at   time.Duration
	data []byte
}

func (l *link) send(now time.Duration, b []byte) {
	l.sent++
	if l.sent%l.dropEvery == 0 {
		return
	}
	l.queue = append(l.queue, datagram{now + l.latency, bytes.Clone(b)})
}

func (l *link) recv(now time.Duration) ([]byte, bool) {
	if len(l.queue) == 0 || l.queue[0].at > now {
		return nil, false
	}
	d := l.queue[0]
	l.queue = l.queue[1:]
	return d.data, true
}

func (l *link) wake() time.Duration {
	if len(l.queue) == 0 {
		return math.MaxInt64
	}
	return l.queue[0].at
}

// Example moves a compressed 64 KB state over a link that loses every
// fifth chunk and every seventh ack, in virtual time.
func Example() {
	state := make([]byte, 64<<10)
	x := uint64(1)
	for i := range state {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		state[i] = byte(x) & 0x0f // random nibbles: compress about 2:1
	}
	blob := transfer.Compress(state)
	offer := transfer.Offer{ID: 1, Size: len(blob), RawSize: len(state), ChunkSize: 1024}

	sender, err := transfer.NewSender(transfer.SenderConfig{}, offer, blob)
	if err != nil {
		panic(err)
	}
	sender.SetRTT(60 * time.Millisecond)
	// On the other side, offer came in an AppendOffer message.
	receiver, err := transfer.NewReceiver(offer, 1<<20)
	if err != nil {
		panic(err)
	}
	chunks := &link{latency: 30 * time.Millisecond, dropEvery: 5}
	acks := &link{latency: 30 * time.Millisecond, dropEvery: 7}

	buf := make([]byte, 0, transfer.ChunkHeaderSize+transfer.MaxChunkSize)
	var now time.Duration
	for !sender.Done() && sender.Err() == nil {
		for {
			msg, ok := sender.Next(now, buf[:0])
			if !ok {
				break
			}
			chunks.send(now, msg)
		}
		for {
			b, ok := chunks.recv(now)
			if !ok {
				break
			}
			c, err := transfer.DecodeChunk(b)
			if err != nil {
				continue
			}
			if _, err := receiver.OnChunk(c); err == nil {
				acks.send(now, transfer.AppendAck(nil, receiver.Ack()))
			}
		}
		for {
			b, ok := acks.recv(now)
			if !ok {
				break
			}
			if a, err := transfer.DecodeAck(b); err == nil {
				_ = sender.OnAck(now, a)
			}
		}
		now = min(sender.Wake(now), chunks.wake(), acks.wake())
	}

	got, err := transfer.Decompress(receiver.Blob(), offer.RawSize, 1<<20)
	fmt.Println("arrived:", err == nil && bytes.Equal(got, state))
	st := sender.Stats()
	fmt.Printf("%d chunks, %d retransmitted\n", offer.Chunks(), st.Retransmits)
	// Output:
	// arrived: true
	// 34 chunks, 8 retransmitted
}
