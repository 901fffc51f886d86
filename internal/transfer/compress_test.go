package transfer

import (
	"bytes"
	"compress/flate"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCompressRoundTrip(t *testing.T) {
	for _, raw := range [][]byte{
		{}, {0}, []byte("x"), pseudoState(160, 1), pseudoState(100_000, 2), randomBytes(70_000, 3),
	} {
		blob := Compress(raw)
		got, err := Decompress(blob, len(raw), len(raw))
		require.NoError(t, err)
		require.True(t, bytes.Equal(raw, got))
		require.Equal(t, len(raw), cap(got))
		t.Logf("%d → %d bytes", len(raw), len(blob))
	}
}

// TestCompressedBound checks that an honest offer of incompressible data
// passes Validate at many sizes.
func TestCompressedBound(t *testing.T) {
	for _, n := range []int{1, 2, 63, 64, 100, 1000, 16383, 16384, 16385, 65535, 65536, 65537, 200_000, 1_000_000} {
		blob := Compress(randomBytes(n, uint64(n)))
		require.LessOrEqual(t, len(blob), compressedBound(n), "%d bytes", n)
		require.NoError(t, Offer{Size: len(blob), RawSize: n, ChunkSize: 1024}.Validate(0))
	}
}

func TestDecompressRefuses(t *testing.T) {
	raw := pseudoState(4_000, 5)
	blob := Compress(raw)
	cases := []struct {
		name    string
		blob    []byte
		rawSize int
		max     int
		err     error
	}{
		{"raw size over max", blob, len(raw), len(raw) - 1, ErrTooLarge},
		{"raw size over MaxSize", blob, MaxSize + 1, 0, ErrTooLarge},
		{"negative raw size", blob, -1, 0, ErrCorrupt},
		{"longer than announced", blob, len(raw) - 1, 0, ErrCorrupt},
		{"shorter than announced", blob, len(raw) + 1, 0, ErrCorrupt},
		{"truncated", blob[:len(blob)/2], len(raw), 0, ErrCorrupt},
		{"truncated by one", blob[:len(blob)-1], len(raw), 0, ErrCorrupt},
		{"empty", nil, len(raw), 0, ErrCorrupt},
		{"garbage", randomBytes(500, 1), len(raw), 0, ErrCorrupt},
		{"bad block type", []byte{0x07, 0, 0}, 10, 0, ErrCorrupt},
	}
	for _, tc := range cases {
		_, err := Decompress(tc.blob, tc.rawSize, tc.max)
		require.ErrorIs(t, err, tc.err, tc.name)
		t.Logf("%s: %v", tc.name, err)
	}
	flipped := bytes.Clone(blob)
	flips := 0
	for i := range flipped {
		flipped[i] ^= 0x5a
		if _, err := Decompress(flipped, len(raw), 0); err != nil {
			require.ErrorIs(t, err, ErrCorrupt)
			flips++
		}
		flipped[i] ^= 0x5a
	}
	t.Logf("%d of %d single-byte corruptions refused (the rest inflate to other bytes of the right length: the state's checksum catches those)", flips, len(blob))
	require.Positive(t, flips)
}

// TestDecompressBomb inflates a 16 MiB stream of zeros announced as 1000
// bytes: refused, with well under a megabyte allocated.
func TestDecompressBomb(t *testing.T) {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	require.NoError(t, err)
	zeros := make([]byte, 1<<20)
	for range 16 {
		_, err := w.Write(zeros)
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	bomb := b.Bytes()
	t.Logf("bomb: %d bytes inflating to 16 MiB", len(bomb))

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Decompress(bomb, 1000, 0)
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, ErrCorrupt)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("refused: %v; %d bytes allocated", err, allocated)
	require.Less(t, allocated, uint64(256<<10))

	_, err = Decompress(bomb, 16<<20, 1<<20)
	require.ErrorIs(t, err, ErrTooLarge)
}
