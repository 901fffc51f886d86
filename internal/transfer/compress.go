package transfer

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
)

// Compress returns raw compressed with DEFLATE (compress/flate at the
// default level). The result is what a Sender moves; the receiving side
// gets raw back with Decompress and the raw length, which travels in the
// Offer.
func Compress(raw []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(raw)/2 + 64)
	// NewWriter fails only for a bad level, and writes to a bytes.Buffer
	// do not fail.
	w, _ := flate.NewWriter(&b, flate.DefaultCompression)
	_, _ = w.Write(raw)
	_ = w.Close()
	return b.Bytes()
}

// Decompress inflates blob, which must inflate to exactly rawSize bytes.
// It refuses a rawSize over maxSize with ErrTooLarge before allocating
// anything (a maxSize of 0 or less, or above MaxSize, means MaxSize). It
// allocates rawSize+1 bytes of output and never inflates more than that,
// so a small blob that would inflate to gigabytes (a decompression bomb)
// costs no more than an honest one. A stream that is not valid DEFLATE, is
// truncated, or inflates to a length other than rawSize is refused with
// ErrCorrupt.
func Decompress(blob []byte, rawSize, maxSize int) ([]byte, error) {
	limit := sizeLimit(maxSize)
	if rawSize < 0 {
		return nil, fmt.Errorf("%w: raw size %d is negative", ErrCorrupt, rawSize)
	}
	if rawSize > limit {
		return nil, fmt.Errorf("%w: raw size %d is over the limit of %d bytes", ErrTooLarge, rawSize, limit)
	}
	out := make([]byte, rawSize+1)
	inflater := flate.NewReader(bytes.NewReader(blob))
	defer inflater.Close()
	src := io.LimitReader(inflater, int64(rawSize)+1)
	n := 0
	for n < len(out) {
		m, err := src.Read(out[n:])
		n += m
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: after %d of %d bytes: %v", ErrCorrupt, n, rawSize, err)
		}
	}
	if n > rawSize {
		return nil, fmt.Errorf("%w: inflates past the announced %d bytes", ErrCorrupt, rawSize)
	}
	if n < rawSize {
		return nil, fmt.Errorf("%w: inflates to %d bytes, %d announced", ErrCorrupt, n, rawSize)
	}
	return out[:rawSize:rawSize], nil
}
