package transfer

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A Pull fed everything a Push sends over a lossy, duplicating link
// completes with the blob, and keeps acknowledging repeats afterwards, so
// the Push is done even when the ack of the last chunk was lost.
func TestPullReceivesAPush(t *testing.T) {
	raw := make([]byte, 150_000)
	r := rand.New(rand.NewPCG(5, 5))
	for i := range raw {
		raw[i] = byte(r.IntN(8))
	}
	p, err := NewPush(SenderConfig{Rate: 256 << 10}, 9, Compress(raw), len(raw))
	require.NoError(t, err)
	link := linkConfig{Latency: 15 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.15, Dup: 0.05, Reorder: 0.05}
	out, back := newLossyLink(link, 3), newLossyLink(link, 4)
	var pull Pull
	offers := 0
	accept := func(o Offer) bool { offers++; return o.RawSize == len(raw) }
	done := false
	for now := time.Duration(0); now < 10*time.Second && !done; now += time.Millisecond {
		for b, ok := out.recv(now); ok; b, ok = out.recv(now) {
			if ack := pull.On(b, len(raw), accept); ack != nil {
				back.send(now, bytes.Clone(ack))
			}
		}
		for b, ok := back.recv(now); ok; b, ok = back.recv(now) {
			p.OnAck(now, b)
		}
		done, err = p.Pump(now, func(b []byte) error { out.send(now, b); return nil })
		require.NoError(t, err)
	}
	require.True(t, done, "not delivered in 10 s")
	require.True(t, pull.Complete())
	require.Equal(t, 1, offers, "accept asked again for the offer under way")
	require.Equal(t, p.Offer(), pull.Offer())
	got, err := pull.Raw(len(raw))
	require.NoError(t, err)
	require.True(t, bytes.Equal(raw, got))
	require.Equal(t, p.Offer().Chunks(), pull.Chunks)
	require.Positive(t, pull.Duplicates, "5 %% duplication and lost acks gave no repeat")
	require.GreaterOrEqual(t, pull.Bytes, int64(p.Offer().Size))
}

// A Pull takes only what is meant for it: no chunk before an offer, no
// offer accept refuses or Validate refuses, no second transfer while one
// is under way, nothing malformed; the first offer it takes is kept.
func TestPullRefusesStrangers(t *testing.T) {
	yes := func(Offer) bool { return true }
	o := Offer{ID: 3, Size: 10, RawSize: 20, ChunkSize: MaxChunkSize}
	var pull Pull
	require.Nil(t, pull.On(nil, 0, yes))
	require.Nil(t, pull.On(AppendChunk(nil, Chunk{ID: 3, Data: make([]byte, 10)}), 0, yes), "a chunk before its offer")
	require.Nil(t, pull.On(AppendOffer(nil, o), 0, func(Offer) bool { return false }))
	require.Nil(t, pull.On(AppendOffer(nil, o), 15, yes), "an offer over maxSize")
	require.Nil(t, pull.On([]byte{KindOffer, 1, 2}, 0, yes), "a malformed offer")
	require.Nil(t, pull.On(AppendAck(nil, Ack{ID: 3}), 0, yes), "an ack")
	_, err := pull.Raw(0)
	require.ErrorIs(t, err, ErrIncomplete)
	require.False(t, pull.Started())

	require.NotNil(t, pull.On(AppendOffer(nil, o), 0, yes))
	require.True(t, pull.Started())
	other := o
	other.ID = 4
	require.Nil(t, pull.On(AppendOffer(nil, other), 0, yes), "a second transfer while one is under way")
	require.Nil(t, pull.On(AppendChunk(nil, Chunk{ID: 4, Data: make([]byte, 10)}), 0, yes), "a chunk of another transfer")
	require.Nil(t, pull.On(AppendChunk(nil, Chunk{ID: 3, Data: make([]byte, 9)}), 0, yes), "a chunk of the wrong length")
	require.Equal(t, o, pull.Offer())
	require.False(t, pull.Complete())
	var taker Pull
	require.NotNil(t, taker.On(AppendOffer(nil, other), 0, nil), "a nil accept takes any valid offer")
	require.Nil(t, (&Pull{}).On(AppendOffer(nil, o), 15, nil), "a nil accept still refuses an offer over maxSize")
	ack := pull.On(AppendChunk(nil, Chunk{ID: 3, Data: make([]byte, 10)}), 0, yes)
	require.NotNil(t, ack)
	a, err := DecodeAck(ack)
	require.NoError(t, err)
	require.Equal(t, Ack{ID: 3, Next: 1}, a)
	require.True(t, pull.Complete())
	_, err = pull.Raw(0)
	require.ErrorIs(t, err, ErrCorrupt, "ten zero bytes are no DEFLATE stream of 20 bytes")
}
