package transfer

import (
	"fmt"
	"math"
	"math/bits"
	"time"
)

// Defaults and limits of a SenderConfig.
const (
	// DefaultRate is the Rate of a SenderConfig that leaves it 0: 256 KiB
	// per second, a few percent of a home uplink, so a transfer does not
	// starve the match's own packets.
	DefaultRate = 256 << 10
	// MaxRate bounds SenderConfig.Rate and MaxBurst SenderConfig.Burst.
	MaxRate  = 1 << 30
	MaxBurst = 1 << 30
	// DefaultBurstChunks is how many full chunk messages the Burst of a
	// SenderConfig that leaves it 0 allows.
	DefaultBurstChunks = 4
	// DefaultRTO is the RTO of a SenderConfig that leaves it 0, used until
	// SetRTT gives a measurement.
	DefaultRTO = 200 * time.Millisecond
	// MinRTO is the smallest retransmission timeout.
	MinRTO = 20 * time.Millisecond
	// DefaultTimeout is the Timeout of a SenderConfig that leaves it 0.
	DefaultTimeout = 5 * time.Second
)

// ackSpan is how many chunks one Ack can describe from its Next on: Next
// itself and the 64 bits of Mask.
const ackSpan = 65

// never is what Wake returns when Next will not return anything again.
const never = time.Duration(math.MaxInt64)

// SenderConfig tunes a Sender. The zero value is usable.
type SenderConfig struct {
	// Rate is the pacing rate in bytes per second of Chunk messages (as
	// Next returns them, without the carrier's overhead); 0 means
	// DefaultRate.
	Rate int
	// Burst is how many bytes may go out back to back after an idle
	// period; 0 means DefaultBurstChunks full chunk messages. It must hold
	// at least one full chunk message (ChunkHeaderSize+ChunkSize).
	Burst int
	// RTO is the initial retransmission timeout: a chunk still unacked
	// that long after it was sent is sent again. 0 means DefaultRTO; at
	// least MinRTO. SetRTT replaces it.
	RTO time.Duration
	// Timeout ends the transfer with ErrTimeout when no ack acknowledged
	// a new chunk for that long (counted from the first Next until the
	// first such ack). 0 means DefaultTimeout.
	Timeout time.Duration
}

// SenderStats counts what a Sender did.
type SenderStats struct {
	ChunksSent   int   // chunk messages Next returned, retransmissions included
	Retransmits  int   // of those, chunks sent again
	BytesSent    int64 // bytes of those messages, headers included
	AcksReceived int   // acks OnAck accepted
	AcksRefused  int   // acks OnAck refused with an error
}

// Sender sends one blob: it cuts it in chunks, paces them with a token
// bucket and sends again what the receiver's acks do not acknowledge. It
// is sans-IO (time is the now argument, it reads no clock and starts no
// goroutine) and not safe for concurrent use.
type Sender struct {
	offer   Offer
	blob    []byte
	count   int
	rto     time.Duration
	timeout time.Duration
	pace    bucket

	started    bool
	progressAt time.Duration // the first Next, then the last ack that acknowledged a new chunk
	err        error

	nextNew    int             // chunks below nextNew were sent at least once
	base       int             // the lowest unacknowledged chunk
	ackedCount int             // chunks acknowledged
	acked      bitset          // which chunks
	resent     bitset          // chunks sent more than once
	sentAt     []time.Duration // when each chunk below nextNew was last sent
	delivered  time.Duration   // the latest sentAt among chunks acknowledged and sent once
	stats      SenderStats
}

// NewSender returns a Sender of blob, which offer describes: offer must
// be valid (Validate with MaxSize) and offer.Size must be len(blob). The
// Sender keeps blob and reads it until Done; do not modify it.
func NewSender(cfg SenderConfig, offer Offer, blob []byte) (*Sender, error) {
	if err := offer.Validate(MaxSize); err != nil {
		return nil, err
	}
	if len(blob) != offer.Size {
		return nil, fmt.Errorf("%w: size %d, blob of %d bytes", ErrInvalidOffer, offer.Size, len(blob))
	}
	if err := cfg.fill(ChunkHeaderSize + offer.ChunkSize); err != nil {
		return nil, err
	}
	count := offer.Chunks()
	return &Sender{
		offer:     offer,
		blob:      blob,
		count:     count,
		rto:       cfg.RTO,
		timeout:   cfg.Timeout,
		pace:      newBucket(cfg.Rate, cfg.Burst),
		acked:     newBitset(count),
		resent:    newBitset(count),
		sentAt:    make([]time.Duration, count),
		delivered: math.MinInt64,
	}, nil
}

// fill replaces the zero values of c by the defaults and checks the
// result; message is the length of a full chunk message.
func (c *SenderConfig) fill(message int) error {
	if c.Rate == 0 {
		c.Rate = DefaultRate
	}
	if c.Burst == 0 {
		c.Burst = DefaultBurstChunks * message
	}
	if c.RTO == 0 {
		c.RTO = DefaultRTO
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	switch {
	case c.Rate < 0 || c.Rate > MaxRate:
		return fmt.Errorf("%w: rate %d is outside [1, %d]", ErrInvalidConfig, c.Rate, MaxRate)
	case c.Burst < message || c.Burst > MaxBurst:
		return fmt.Errorf("%w: burst %d is outside [%d (one chunk message), %d]", ErrInvalidConfig, c.Burst, message, MaxBurst)
	case c.RTO < MinRTO:
		return fmt.Errorf("%w: RTO %v is under the minimum of %v", ErrInvalidConfig, c.RTO, MinRTO)
	case c.Timeout < 0:
		return fmt.Errorf("%w: timeout %v is negative", ErrInvalidConfig, c.Timeout)
	}
	return nil
}

// SetRTT sets the retransmission timeout from a round-trip time measured
// by the caller (the carrier's own RTT estimate): max(2·rtt, MinRTO).
func (s *Sender) SetRTT(rtt time.Duration) {
	s.rto = max(2*rtt, MinRTO)
}

// Next returns the next Chunk message to send at now, appended to dst, if
// there is one and pacing allows it; otherwise it returns dst and false.
// Lost chunks come first, lowest index first: a chunk is lost when its
// RTO expired, or when a chunk sent more than RTO/4 after it was
// acknowledged and it was not. Then come the chunks never sent, in order.
// Only chunks the next ack can describe (the lowest unacknowledged and
// the 64 after it) are sent again, so a hole does not make the sender
// resend chunks that arrived but could not be acknowledged yet. Next
// does not allocate when dst has room for ChunkHeaderSize+ChunkSize more
// bytes.
func (s *Sender) Next(now time.Duration, dst []byte) ([]byte, bool) {
	if s.Done() || s.err != nil {
		return dst, false
	}
	if !s.started {
		s.started = true
		s.progressAt = now
		s.pace.fill(now)
	}
	if s.expired(now) {
		return dst, false
	}
	s.pace.refill(now)
	i, again := s.pick(now)
	if i < 0 {
		return dst, false
	}
	start, end := s.offer.span(i)
	n := ChunkHeaderSize + end - start
	if !s.pace.take(n) {
		return dst, false
	}
	if again {
		s.stats.Retransmits++
		s.resent.set(i)
	} else {
		s.nextNew++
	}
	s.sentAt[i] = now
	s.stats.ChunksSent++
	s.stats.BytesSent += int64(n)
	return AppendChunk(dst, Chunk{ID: s.offer.ID, Index: uint32(i), Data: s.blob[start:end]}), true
}

// Wake returns the earliest time at or after now when Next may return a
// message, given the acks received so far: now when one is due, or when
// the next RTO expires or pacing allows the next chunk, or when the
// transfer times out (Next then sets Err). A caller sleeps until Wake or
// the next incoming ack. Wake returns math.MaxInt64 once Done or Err.
func (s *Sender) Wake(now time.Duration) time.Duration {
	if s.Done() || s.err != nil {
		return never
	}
	if !s.started {
		return now
	}
	at := now
	i, _ := s.pick(now)
	if i < 0 {
		// Nothing lost and nothing new: wait for the first RTO to expire.
		at = never
		for j, end := s.base, min(s.base+ackSpan, s.nextNew); j < end; j++ {
			if !s.acked.has(j) && s.sentAt[j]+s.rto < at {
				at, i = s.sentAt[j]+s.rto, j
			}
		}
	}
	if i >= 0 {
		start, end := s.offer.span(i)
		at = max(at, s.pace.readyAt(ChunkHeaderSize+end-start))
	}
	return max(now, min(at, s.progressAt+s.timeout))
}

// OnAck applies an ack received at now. It refuses, with an error and
// without any effect, an ack of another transfer (ErrWrongTransfer) and
// one that acknowledges chunks never sent (ErrBadAck). Old, duplicate and
// reordered acks are fine. OnAck does not allocate unless it returns an
// error.
func (s *Sender) OnAck(now time.Duration, a Ack) error {
	if a.ID != s.offer.ID {
		s.stats.AcksRefused++
		return fmt.Errorf("%w: ack of transfer %d, sending %d", ErrWrongTransfer, a.ID, s.offer.ID)
	}
	if uint64(a.Next) > uint64(s.nextNew) {
		s.stats.AcksRefused++
		return fmt.Errorf("%w: ack of every chunk below %d, %d sent", ErrBadAck, a.Next, s.nextNew)
	}
	next := int(a.Next)
	if a.Mask != 0 {
		if top := next + 64 - bits.LeadingZeros64(a.Mask); top >= s.nextNew {
			s.stats.AcksRefused++
			return fmt.Errorf("%w: ack of chunk %d, %d sent", ErrBadAck, top, s.nextNew)
		}
	}
	s.stats.AcksReceived++
	if s.err != nil || !s.started || s.expired(now) {
		return nil
	}
	fresh := s.ackedCount
	for i := s.base; i < next; i++ {
		s.ack(i)
	}
	for m := a.Mask; m != 0; m &= m - 1 {
		s.ack(next + 1 + bits.TrailingZeros64(m))
	}
	for s.base < s.count && s.acked.has(s.base) {
		s.base++
	}
	if s.ackedCount > fresh {
		s.progressAt = now
	}
	return nil
}

// Done reports whether every chunk was acknowledged.
func (s *Sender) Done() bool { return s.ackedCount == s.count }

// Err returns an error wrapping ErrTimeout once the transfer timed out,
// and nil before. After that, Next returns nothing and OnAck does nothing.
func (s *Sender) Err() error { return s.err }

// Stats returns the counters so far.
func (s *Sender) Stats() SenderStats { return s.stats }

// ack marks chunk i, which was sent, acknowledged. Which copy of a chunk
// sent more than once arrived is unknown, so only chunks sent once tell
// when the latest delivered chunk was sent (Karn's rule): taking a
// retransmission's time for an older copy's would declare every chunk
// sent in between lost.
func (s *Sender) ack(i int) {
	if s.acked.has(i) {
		return
	}
	s.acked.set(i)
	s.ackedCount++
	if !s.resent.has(i) {
		s.delivered = max(s.delivered, s.sentAt[i])
	}
}

// pick returns the chunk Next sends at now, whether it is a
// retransmission, or -1 when there is none.
func (s *Sender) pick(now time.Duration) (int, bool) {
	reorder := s.rto / 4
	for i, end := s.base, min(s.base+ackSpan, s.nextNew); i < end; i++ {
		if s.acked.has(i) {
			continue
		}
		if sent := s.sentAt[i]; now-sent >= s.rto || sent+reorder <= s.delivered {
			return i, true
		}
	}
	if s.nextNew < s.count {
		return s.nextNew, false
	}
	return -1, false
}

// expired sets Err when no ack made progress for Timeout before now.
func (s *Sender) expired(now time.Duration) bool {
	if now-s.progressAt < s.timeout {
		return false
	}
	s.err = fmt.Errorf("%w: no chunk acknowledged for %v, %d of %d acknowledged", ErrTimeout, now-s.progressAt, s.ackedCount, s.count)
	return true
}
