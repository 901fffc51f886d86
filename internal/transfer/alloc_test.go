package transfer

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestSteadyPathsDoNotAllocate checks the zero-allocation promises.
func TestSteadyPathsDoNotAllocate(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters may allocate")
	}
	const size, chunkSize = 2_000_000, 1000
	blob := randomBytes(size, 1)
	offer := Offer{ID: 1, Size: size, RawSize: size, ChunkSize: chunkSize}
	s, err := NewSender(SenderConfig{Rate: MaxRate, Timeout: time.Hour}, offer, blob)
	require.NoError(t, err)
	r, err := NewReceiver(offer, 0)
	require.NoError(t, err)
	buf := make([]byte, 0, ChunkHeaderSize+MaxChunkSize)
	ackBuf := make([]byte, 0, AckSize)
	var now time.Duration
	sent := 0

	allocs := testing.AllocsPerRun(500, func() {
		now += time.Millisecond
		msg, ok := s.Next(now, buf[:0])
		if !ok {
			t.Fatal("Next sent nothing")
		}
		sent++
		c, err := DecodeChunk(msg)
		if err != nil {
			t.Fatal(err)
		}
		if sent%3 == 0 {
			return // lost: the receiver's mask has holes
		}
		if _, err := r.OnChunk(c); err != nil {
			t.Fatal(err)
		}
		a, err := DecodeAck(AppendAck(ackBuf[:0], r.Ack()))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.OnAck(now, a); err != nil {
			t.Fatal(err)
		}
		_ = s.Wake(now)
		_, _ = DecodeOffer(AppendOffer(ackBuf[:0], offer))
	})
	require.Zero(t, allocs)
	require.Positive(t, s.Stats().Retransmits, "retransmissions were exercised")
	require.Positive(t, r.Ack().Mask, "the mask was exercised")
}
