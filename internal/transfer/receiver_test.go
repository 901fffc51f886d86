package transfer

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func chunkOf(o Offer, blob []byte, i int) Chunk {
	start, end := o.span(i)
	return Chunk{ID: o.ID, Index: uint32(i), Data: blob[start:end]}
}

// TestReceiverRefuses checks the typed errors of OnChunk.
func TestReceiverRefuses(t *testing.T) {
	blob := randomBytes(1000, 1)
	o := Offer{ID: 77, Size: 1000, RawSize: 1000, ChunkSize: 300} // 300, 300, 300, 100
	r, err := NewReceiver(o, 0)
	require.NoError(t, err)
	bad := []struct {
		c   Chunk
		err error
	}{
		{Chunk{ID: 76, Index: 0, Data: blob[:300]}, ErrWrongTransfer},
		{Chunk{ID: 77, Index: 4, Data: blob[:100]}, ErrBadIndex},
		{Chunk{ID: 77, Index: 1 << 31, Data: blob[:300]}, ErrBadIndex},
		{Chunk{ID: 77, Index: 0, Data: blob[:299]}, ErrBadLength},
		{Chunk{ID: 77, Index: 0, Data: blob[:301]}, ErrBadLength},
		{Chunk{ID: 77, Index: 3, Data: blob[:300]}, ErrBadLength},
		{Chunk{ID: 77, Index: 3, Data: blob[:99]}, ErrBadLength},
		{Chunk{ID: 77, Index: 2, Data: nil}, ErrBadLength},
	}
	for _, b := range bad {
		fresh, err := r.OnChunk(b.c)
		require.ErrorIs(t, err, b.err)
		require.False(t, fresh)
		t.Log(err)
	}
	require.Equal(t, Ack{ID: 77}, r.Ack())

	for _, i := range []int{3, 1, 1, 0} {
		_, err := r.OnChunk(chunkOf(o, blob, i))
		require.NoError(t, err)
		require.False(t, r.Complete())
		require.Nil(t, r.Blob())
	}
	require.Equal(t, Ack{ID: 77, Next: 2, Mask: 1}, r.Ack())
	fresh, err := r.OnChunk(chunkOf(o, blob, 2))
	require.NoError(t, err)
	require.True(t, fresh)
	require.True(t, r.Complete())
	require.Equal(t, blob, r.Blob())
	require.Equal(t, Ack{ID: 77, Next: 4}, r.Ack())

	// A duplicate with other bytes does not overwrite.
	fresh, err = r.OnChunk(Chunk{ID: 77, Index: 0, Data: make([]byte, 300)})
	require.NoError(t, err)
	require.False(t, fresh)
	require.Equal(t, blob, r.Blob())
}

// TestReceiverAckMask checks the mask at word boundaries and its end.
func TestReceiverAckMask(t *testing.T) {
	const n = 300
	o := Offer{ID: 1, Size: n * 64, RawSize: n * 64, ChunkSize: 64}
	blob := make([]byte, o.Size)
	rng := rand.New(rand.NewPCG(4, 4))
	r, err := NewReceiver(o, 0)
	require.NoError(t, err)
	got := make([]bool, n)
	for range 2 * n {
		i := rng.IntN(n)
		if rng.IntN(3) == 0 && i < n-1 {
			continue
		}
		_, err := r.OnChunk(chunkOf(o, blob, i))
		require.NoError(t, err)
		got[i] = true
		a := r.Ack()
		next := 0
		for next < n && got[next] {
			next++
		}
		require.Equal(t, uint32(next), a.Next)
		for b := range 64 {
			j := next + 1 + b
			want := j < n && got[j]
			require.Equal(t, want, a.Mask&(1<<b) != 0, "next %d bit %d", next, b)
		}
	}
}

// TestNewReceiverLimits checks that maxSize bounds the offer.
func TestNewReceiverLimits(t *testing.T) {
	o := Offer{ID: 1, Size: 5000, RawSize: 20_000, ChunkSize: 1000}
	_, err := NewReceiver(o, 20_000)
	require.NoError(t, err)
	_, err = NewReceiver(o, 19_999)
	require.ErrorIs(t, err, ErrInvalidOffer)
	_, err = NewReceiver(Offer{ID: 1, Size: MaxSize, RawSize: MaxSize + 1, ChunkSize: 1000}, 0)
	require.ErrorIs(t, err, ErrInvalidOffer)
}

// TestReceiverHostile mixes a valid transfer, delivered in random order
// with duplicates, with chunks of other transfers, out-of-range indexes,
// wrong lengths and random bytes through DecodeChunk. The receiver must
// neither panic nor complete with other data.
func TestReceiverHostile(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 99))
		size := 1 + rng.IntN(20_000)
		chunkSize := MinChunkSize + rng.IntN(MaxChunkSize-MinChunkSize+1)
		blob := randomBytes(size, seed)
		o := Offer{ID: rng.Uint32(), Size: size, RawSize: size, ChunkSize: chunkSize}
		r, err := NewReceiver(o, 0)
		require.NoError(t, err)
		n := o.Chunks()
		refused := 0
		for step := 0; !r.Complete(); step++ {
			require.Less(t, step, 100*n+1000, "never completes")
			var msg []byte
			i := rng.IntN(n)
			c := chunkOf(o, blob, i)
			switch rng.IntN(6) {
			case 0: // valid
			case 1: // another transfer, other bytes
				c.ID ^= 1 + rng.Uint32N(1<<31)
				c.Data = randomBytes(len(c.Data), rng.Uint64())
			case 2: // out of range
				c.Index = uint32(n) + rng.Uint32N(1<<31)
			case 3: // wrong length, other bytes
				c.Data = randomBytes(1+rng.IntN(MaxChunkSize), rng.Uint64())
				if start, end := o.span(i); len(c.Data) == end-start {
					c.Data = c.Data[1:]
				}
			case 4: // random bytes
				msg = randomBytes(rng.IntN(2*ChunkHeaderSize+MaxChunkSize), rng.Uint64())
				if rng.IntN(2) == 0 && len(msg) > 0 {
					msg[0] = KindChunk
				}
			case 5: // truncated or extended valid message
				msg = AppendChunk(nil, c)
				if rng.IntN(2) == 0 {
					msg = msg[:rng.IntN(len(msg))]
				} else {
					msg = append(msg, byte(rng.Uint32()))
				}
			}
			if msg == nil {
				msg = AppendChunk(nil, c)
			}
			dc, err := DecodeChunk(msg)
			if err != nil {
				require.ErrorIs(t, err, ErrMalformed)
				refused++
				continue
			}
			if dc.ID == o.ID && uint64(dc.Index) < uint64(n) {
				want := chunkOf(o, blob, int(dc.Index)).Data
				if len(dc.Data) == len(want) && !bytes.Equal(dc.Data, want) {
					// Random bytes of the right shape with other data: a
					// forgery only the carrier's authentication catches.
					continue
				}
			}
			if _, err := r.OnChunk(dc); err != nil {
				refused++
			}
		}
		require.Equal(t, blob, r.Blob(), "seed %d", seed)
		require.Positive(t, refused)
	}
}
