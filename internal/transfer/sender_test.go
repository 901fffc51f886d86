package transfer

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func newTestSender(t testing.TB, cfg SenderConfig, size, chunkSize int) (*Sender, Offer) {
	t.Helper()
	blob := randomBytes(size, uint64(size))
	offer := Offer{ID: 5, Size: size, RawSize: size, ChunkSize: chunkSize}
	s, err := NewSender(cfg, offer, blob)
	require.NoError(t, err)
	return s, offer
}

// TestPacingUnderLoss checks, over a lossy transfer, that the bytes sent
// by any time t never exceed Rate·t + Burst, and that the sender keeps up
// with the rate.
func TestPacingUnderLoss(t *testing.T) {
	const rate, burst = 100_000, 3_000
	raw := randomBytes(150_000, 9)
	offer := Offer{ID: 1, Size: len(raw), RawSize: len(raw), ChunkSize: 900}
	var sent int64
	var first, last time.Duration = -1, 0
	check := func(now time.Duration, msg []byte) {
		if first < 0 {
			first = now
		}
		last = now
		sent += int64(len(msg))
		allowed := rate*int64(now-first)/int64(time.Second) + burst
		if sent > allowed {
			t.Fatalf("at %v: %d bytes sent, %d allowed", now-first, sent, allowed)
		}
	}
	cfg := simConfig{link: link25(0.1), sender: SenderConfig{Rate: rate, Burst: burst}, seed: 3, onSend: check}
	res := simulate(t, cfg, offer, raw)
	require.Equal(t, raw, res.blob)
	// Busy until the last send, the sender emits within one message of
	// the rate.
	floor := rate*int64(last-first)/int64(time.Second) - int64(ChunkHeaderSize+offer.ChunkSize)
	require.GreaterOrEqual(t, sent, floor)
	t.Logf("%d bytes in %v at %d B/s + %d: floor %d", sent, last-first, rate, burst, floor)
}

// TestPacingIrregularPolls calls Next at random times, with long idle
// gaps, and checks the token bucket's bound at every send.
func TestPacingIrregularPolls(t *testing.T) {
	const rate, burst = 50_000, 5_000
	s, _ := newTestSender(t, SenderConfig{Rate: rate, Burst: burst, Timeout: time.Hour}, 1_000_000, 1000)
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 0, ChunkHeaderSize+MaxChunkSize)
	var sent int64
	now := time.Duration(rng.Int64N(int64(time.Second))) // not 0: the bucket starts at the first Next
	start := now
	for range 20_000 {
		for {
			msg, ok := s.Next(now, buf[:0])
			if !ok {
				break
			}
			sent += int64(len(msg))
			if allowed := rate*int64(now-start)/int64(time.Second) + burst; sent > allowed {
				t.Fatalf("at %v: %d bytes sent, %d allowed", now-start, sent, allowed)
			}
		}
		switch rng.IntN(10) {
		case 0:
			now += time.Duration(rng.Int64N(int64(500 * time.Millisecond))) // idle: the bucket refills to Burst only
		default:
			now += time.Duration(rng.Int64N(int64(5 * time.Millisecond)))
		}
	}
	require.Positive(t, sent)
}

// TestWakeIsExact polls only at Wake and checks that Next then sends.
func TestWakeIsExact(t *testing.T) {
	s, offer := newTestSender(t, SenderConfig{Rate: 12_345, Timeout: time.Hour}, 40_000, 700)
	buf := make([]byte, 0, ChunkHeaderSize+MaxChunkSize)
	var now time.Duration
	for range 3 * offer.Chunks() {
		_, ok := s.Next(now, buf[:0])
		require.True(t, ok, "at %v", now)
		for ok {
			_, ok = s.Next(now, buf[:0]) // the burst
		}
		wake := s.Wake(now)
		require.Greater(t, wake, now)
		_, ok = s.Next(wake-1, buf[:0])
		require.False(t, ok, "Wake %v is late", wake)
		now = wake
	}
	// Every chunk was sent, then retransmitted by RTO.
	require.Positive(t, s.Stats().Retransmits)
}

// TestTimeout checks that a sender whose receiver never acks fails with
// ErrTimeout exactly Timeout after its first Next and stops sending.
func TestTimeout(t *testing.T) {
	const timeout = 2 * time.Second
	s, _ := newTestSender(t, SenderConfig{Timeout: timeout}, 30_000, 1000)
	buf := make([]byte, 0, ChunkHeaderSize+MaxChunkSize)
	start := 3 * time.Second
	now := start
	sends := 0
	for s.Err() == nil {
		for {
			if _, ok := s.Next(now, buf[:0]); !ok {
				break
			}
			sends++
		}
		if s.Err() != nil {
			break
		}
		now = s.Wake(now)
		require.LessOrEqual(t, now, start+timeout)
	}
	require.ErrorIs(t, s.Err(), ErrTimeout)
	require.Equal(t, start+timeout, now)
	require.False(t, s.Done())
	st := s.Stats()
	require.Equal(t, sends, st.ChunksSent)
	require.Positive(t, st.Retransmits)
	t.Logf("%v; %d chunks sent, %d retransmitted", s.Err(), st.ChunksSent, st.Retransmits)

	_, ok := s.Next(now+time.Hour, buf[:0])
	require.False(t, ok)
	require.Equal(t, time.Duration(math.MaxInt64), s.Wake(now))
	require.NoError(t, s.OnAck(now, Ack{ID: 5, Next: 1})) // ignored
	require.False(t, s.Done())
	require.Equal(t, sends, s.Stats().ChunksSent)
}

// TestTimeoutProgress checks that an ack acknowledging a new chunk moves
// the deadline and one that does not, does not.
func TestTimeoutProgress(t *testing.T) {
	s, _ := newTestSender(t, SenderConfig{Timeout: time.Second}, 5000, 1000)
	buf := make([]byte, 0, 2000)
	for {
		if _, ok := s.Next(0, buf[:0]); !ok {
			break
		}
	}
	require.NoError(t, s.OnAck(800*time.Millisecond, Ack{ID: 5, Next: 1}))
	require.NoError(t, s.OnAck(1500*time.Millisecond, Ack{ID: 5, Next: 1})) // no progress
	s.Next(1799*time.Millisecond, buf[:0])
	require.NoError(t, s.Err())
	s.Next(1800*time.Millisecond, buf[:0])
	require.ErrorIs(t, s.Err(), ErrTimeout)
}

// TestOnAckRefuses checks acks of another transfer and of unsent chunks.
func TestOnAckRefuses(t *testing.T) {
	s, offer := newTestSender(t, SenderConfig{}, 100*1000, 1000)
	buf := make([]byte, 0, 2000)
	for range 10 {
		_, ok := s.Next(0, buf[:0])
		if !ok {
			break
		}
	}
	sent := s.Stats().ChunksSent
	require.Equal(t, DefaultBurstChunks, sent)
	bad := []struct {
		ack Ack
		err error
	}{
		{Ack{ID: 6, Next: 1}, ErrWrongTransfer},
		{Ack{ID: 5, Next: uint32(sent + 1)}, ErrBadAck},
		{Ack{ID: 5, Next: math.MaxUint32}, ErrBadAck},
		{Ack{ID: 5, Next: uint32(offer.Chunks())}, ErrBadAck},
		{Ack{ID: 5, Next: 0, Mask: 1 << (sent - 1)}, ErrBadAck}, // chunk sent
		{Ack{ID: 5, Next: 0, Mask: 1 << 63}, ErrBadAck},
		{Ack{ID: 5, Next: uint32(sent), Mask: 1}, ErrBadAck},
	}
	for _, b := range bad {
		err := s.OnAck(time.Millisecond, b.ack)
		require.ErrorIs(t, err, b.err, "%+v", b.ack)
		t.Log(err)
	}
	require.Equal(t, len(bad), s.Stats().AcksRefused)
	require.Zero(t, s.Stats().AcksReceived)
	require.Zero(t, s.ackedCount)

	require.NoError(t, s.OnAck(time.Millisecond, Ack{ID: 5, Next: 0, Mask: 1<<(sent-2) | 1}))
	require.Equal(t, 2, s.ackedCount)
	require.Equal(t, 0, s.base)
	require.NoError(t, s.OnAck(time.Millisecond, Ack{ID: 5, Next: uint32(sent)}))
	require.NoError(t, s.OnAck(time.Millisecond, Ack{ID: 5, Next: 1})) // old: harmless
	require.Equal(t, sent, s.ackedCount)
	require.Equal(t, sent, s.base)
}

// TestOnAckBeforeNext accepts only the empty ack before anything was sent.
func TestOnAckBeforeNext(t *testing.T) {
	s, _ := newTestSender(t, SenderConfig{}, 1000, 100)
	require.NoError(t, s.OnAck(0, Ack{ID: 5}))
	require.ErrorIs(t, s.OnAck(0, Ack{ID: 5, Next: 1}), ErrBadAck)
	require.Equal(t, time.Duration(7), s.Wake(7))
}

// TestFastRetransmit checks that a hole is repaired before its RTO once a
// chunk sent RTO/4 after it was acknowledged, lowest index first, and
// before new chunks.
func TestFastRetransmit(t *testing.T) {
	s, _ := newTestSender(t, SenderConfig{Rate: 100_000, RTO: time.Second, Timeout: time.Hour}, 50*1000, 1000)
	buf := make([]byte, 0, 2000)
	sentAt := map[uint32]time.Duration{}
	var now time.Duration
	for now < 300*time.Millisecond {
		msg, ok := s.Next(now, buf[:0])
		if ok {
			c, err := DecodeChunk(msg)
			require.NoError(t, err)
			sentAt[c.Index] = now
			continue
		}
		now = s.Wake(now)
	}
	// Chunks 1 and 3 lost; 0, 2 and everything up to 12 arrived. Chunk 12
	// was sent more than RTO/4 = 250 ms after chunk 1?
	require.Less(t, sentAt[1]+250*time.Millisecond, sentAt[28])
	var mask uint64
	for i := 2; i <= 28; i++ {
		if i != 3 {
			mask |= 1 << (i - 2)
		}
	}
	require.NoError(t, s.OnAck(now, Ack{ID: 5, Next: 1, Mask: mask}))
	s.pace.fill(now) // room for two chunks now
	var got []uint32
	for range 3 {
		msg, ok := s.Next(now, buf[:0])
		require.True(t, ok)
		c, err := DecodeChunk(msg)
		require.NoError(t, err)
		got = append(got, c.Index)
	}
	// Chunk 3 was sent after chunk 28 minus 250 ms too, so it is lost.
	require.Equal(t, []uint32{1, 3, uint32(len(sentAt))}, got)
	require.Equal(t, 2, s.Stats().Retransmits)
}

// TestSetRTT checks the RTO floor.
func TestSetRTT(t *testing.T) {
	s, _ := newTestSender(t, SenderConfig{}, 1000, 100)
	require.Equal(t, DefaultRTO, s.rto)
	s.SetRTT(50 * time.Millisecond)
	require.Equal(t, 100*time.Millisecond, s.rto)
	s.SetRTT(time.Millisecond)
	require.Equal(t, MinRTO, s.rto)
	s.SetRTT(-time.Second)
	require.Equal(t, MinRTO, s.rto)
}

// TestNewSenderRefuses checks configs and offers NewSender refuses.
func TestNewSenderRefuses(t *testing.T) {
	blob := make([]byte, 1000)
	good := Offer{ID: 1, Size: 1000, RawSize: 1000, ChunkSize: 100}
	_, err := NewSender(SenderConfig{}, good, blob)
	require.NoError(t, err)
	for _, cfg := range []SenderConfig{
		{Rate: -1},
		{Rate: MaxRate + 1},
		{Burst: ChunkHeaderSize + 99},
		{Burst: MaxBurst + 1},
		{Burst: -5},
		{RTO: MinRTO - 1},
		{RTO: -time.Second},
		{Timeout: -1},
	} {
		_, err := NewSender(cfg, good, blob)
		require.ErrorIs(t, err, ErrInvalidConfig, "%+v", cfg)
		t.Log(err)
	}
	_, err = NewSender(SenderConfig{}, good, blob[:999])
	require.ErrorIs(t, err, ErrInvalidOffer)
	bad := good
	bad.ChunkSize = 10
	_, err = NewSender(SenderConfig{}, bad, blob)
	require.ErrorIs(t, err, ErrInvalidOffer)
	require.False(t, errors.Is(err, ErrInvalidConfig))
}
