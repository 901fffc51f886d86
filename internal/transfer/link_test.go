package transfer

import (
	"container/heap"
	"math/rand/v2"
	"time"
)

// linkConfig describes one direction of a simulated datagram channel.
type linkConfig struct {
	Latency time.Duration // one-way delay of every datagram
	Jitter  time.Duration // plus a uniform extra delay in [0, Jitter)
	Loss    float64       // probability a datagram is dropped
	Dup     float64       // probability a datagram is delivered twice
	Reorder float64       // probability a datagram is held back 3·Jitter more
}

// lossyLink carries datagrams one way in virtual time, seeded.
type lossyLink struct {
	cfg     linkConfig
	rng     *rand.Rand
	seq     uint64
	queue   datagramQueue
	sent    int
	dropped int
}

type datagram struct {
	at   time.Duration
	seq  uint64
	data []byte
}

func newLossyLink(cfg linkConfig, seed uint64) *lossyLink {
	return &lossyLink{cfg: cfg, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// send copies b and schedules its delivery (or drops it).
func (l *lossyLink) send(now time.Duration, b []byte) {
	l.sent++
	if l.rng.Float64() < l.cfg.Loss {
		l.dropped++
		return
	}
	copies := 1
	if l.rng.Float64() < l.cfg.Dup {
		copies = 2
	}
	for range copies {
		at := now + l.cfg.Latency
		if l.cfg.Jitter > 0 {
			at += time.Duration(l.rng.Int64N(int64(l.cfg.Jitter)))
			if l.rng.Float64() < l.cfg.Reorder {
				at += 3 * l.cfg.Jitter
			}
		}
		l.seq++
		heap.Push(&l.queue, datagram{at: at, seq: l.seq, data: append([]byte(nil), b...)})
	}
}

// recv returns the next datagram due at now.
func (l *lossyLink) recv(now time.Duration) ([]byte, bool) {
	if len(l.queue) == 0 || l.queue[0].at > now {
		return nil, false
	}
	return heap.Pop(&l.queue).(datagram).data, true
}

// wake returns when the next datagram is due, or never.
func (l *lossyLink) wake() time.Duration {
	if len(l.queue) == 0 {
		return never
	}
	return l.queue[0].at
}

type datagramQueue []datagram

func (q datagramQueue) Len() int { return len(q) }
func (q datagramQueue) Less(i, j int) bool {
	return q[i].at < q[j].at || q[i].at == q[j].at && q[i].seq < q[j].seq
}
func (q datagramQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *datagramQueue) Push(x any)   { *q = append(*q, x.(datagram)) }
func (q *datagramQueue) Pop() any {
	old := *q
	d := old[len(old)-1]
	*q = old[:len(old)-1]
	return d
}
