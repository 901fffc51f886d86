package transfer

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOfferChunks(t *testing.T) {
	for _, tc := range []struct{ size, chunk, want int }{
		{1, 64, 1}, {64, 64, 1}, {65, 64, 2}, {1100, 1100, 1}, {1101, 1100, 2},
		{745_000, 1024, 728}, {0, 64, 0}, {-1, 64, 0}, {100, 0, 0},
	} {
		require.Equal(t, tc.want, Offer{Size: tc.size, ChunkSize: tc.chunk}.Chunks(), "%+v", tc)
	}
	o := Offer{Size: 1025, ChunkSize: 1024}
	start, end := o.span(1)
	require.Equal(t, [2]int{1024, 1025}, [2]int{start, end})
}

func TestOfferValidate(t *testing.T) {
	good := Offer{ID: 1, Size: 500, RawSize: 2000, ChunkSize: 1024}
	require.NoError(t, good.Validate(2000))
	require.NoError(t, good.Validate(0))
	require.NoError(t, Offer{Size: 1, RawSize: 1, ChunkSize: MinChunkSize}.Validate(1))
	require.NoError(t, Offer{Size: 1, RawSize: MaxSize, ChunkSize: MaxChunkSize}.Validate(0))
	require.NoError(t, Offer{Size: compressedBound(100), RawSize: 100, ChunkSize: 64}.Validate(0))
	for _, tc := range []struct {
		o   Offer
		max int
	}{
		{Offer{Size: 500, RawSize: 2000, ChunkSize: 63}, 0},
		{Offer{Size: 500, RawSize: 2000, ChunkSize: 1101}, 0},
		{Offer{Size: 500, RawSize: 2000, ChunkSize: 0}, 0},
		{Offer{Size: 0, RawSize: 2000, ChunkSize: 100}, 0},
		{Offer{Size: -1, RawSize: 2000, ChunkSize: 100}, 0},
		{Offer{Size: 500, RawSize: 0, ChunkSize: 100}, 0},
		{Offer{Size: 500, RawSize: -5, ChunkSize: 100}, 0},
		{Offer{Size: 500, RawSize: 2000, ChunkSize: 100}, 1999},
		{Offer{Size: 500, RawSize: MaxSize + 1, ChunkSize: 100}, 0},
		{Offer{Size: 500, RawSize: MaxSize + 1, ChunkSize: 100}, MaxSize + 10},
		{Offer{Size: compressedBound(100) + 1, RawSize: 100, ChunkSize: 100}, 0},
		{Offer{Size: math.MaxInt, RawSize: 100, ChunkSize: 100}, 0},
	} {
		err := tc.o.Validate(tc.max)
		require.ErrorIs(t, err, ErrInvalidOffer, "%+v", tc)
		t.Log(err)
	}
}
