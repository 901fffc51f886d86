package transfer

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestChunkRoundTrip(t *testing.T) {
	c := Chunk{ID: 0x01020304, Index: 0xa0b0c0d0, Data: []byte{9, 8, 7}}
	b := AppendChunk([]byte{0xff}, c)
	require.Equal(t, []byte{0xff, KindChunk, 4, 3, 2, 1, 0xd0, 0xc0, 0xb0, 0xa0, 9, 8, 7}, b)
	got, err := DecodeChunk(b[1:])
	require.NoError(t, err)
	require.Equal(t, c, got)
	require.Equal(t, len(got.Data), cap(got.Data), "Data's capacity ends with b")

	full := AppendChunk(nil, Chunk{Data: make([]byte, MaxChunkSize)})
	_, err = DecodeChunk(full)
	require.NoError(t, err)
	for _, bad := range [][]byte{
		nil,
		{KindChunk},
		AppendChunk(nil, Chunk{ID: 1, Index: 2}), // no data
		append(full, 0),                          // too much data
		AppendAck(nil, Ack{}),
		append([]byte{KindAck}, make([]byte, 20)...),
	} {
		_, err := DecodeChunk(bad)
		require.ErrorIs(t, err, ErrMalformed, "% x", bad)
		t.Log(err)
	}
}

func TestAckRoundTrip(t *testing.T) {
	a := Ack{ID: 7, Next: 0x10000, Mask: 0x8000_0000_0000_0001}
	b := AppendAck(nil, a)
	require.Len(t, b, AckSize)
	got, err := DecodeAck(b)
	require.NoError(t, err)
	require.Equal(t, a, got)
	for _, bad := range [][]byte{nil, b[:AckSize-1], append(b, 0), AppendChunk(nil, Chunk{Data: make([]byte, 8)})} {
		_, err := DecodeAck(bad)
		require.ErrorIs(t, err, ErrMalformed)
		t.Log(err)
	}
}

func TestOfferRoundTrip(t *testing.T) {
	o := Offer{ID: 0xdeadbeef, Size: 274_410, RawSize: 745_000, ChunkSize: 1024}
	b := AppendOffer(nil, o)
	require.Len(t, b, OfferSize)
	got, err := DecodeOffer(b)
	require.NoError(t, err)
	require.Equal(t, o, got)
	big := AppendOffer(nil, Offer{Size: math.MaxInt32, RawSize: 1})
	_, err = DecodeOffer(big)
	require.NoError(t, err)
	big[8] = 0x80 // Size ≥ 2^31
	for _, bad := range [][]byte{nil, b[:OfferSize-1], append(b, 0), big, AppendAck(nil, Ack{})[:OfferSize]} {
		_, err := DecodeOffer(bad)
		require.ErrorIs(t, err, ErrMalformed)
		t.Log(err)
	}
}
