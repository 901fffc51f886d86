package transfer

import "fmt"

// Limits on an Offer.
const (
	// MinChunkSize and MaxChunkSize bound Offer.ChunkSize. MaxChunkSize
	// keeps a Chunk message (ChunkHeaderSize+MaxChunkSize bytes) and the
	// carrier's own header and authentication tag inside a 1200-byte
	// datagram.
	MinChunkSize = 64
	MaxChunkSize = 1100

	// MaxSize is the largest raw size this package handles at all. A
	// maxSize argument of 0 or less, or above MaxSize, means MaxSize.
	MaxSize = 32 << 20
)

// Offer describes one blob to move: the sender makes it, the carrier
// delivers it to the receiver (see AppendOffer) and both sides build on
// it. The blob is cut in Chunks() chunks of ChunkSize bytes, the last one
// shorter when Size is not a multiple of ChunkSize.
type Offer struct {
	// ID names the transfer. Chunks and acks carry it, so that
	// stragglers of an older transfer are refused. Use a new ID for every
	// transfer between the same peers.
	ID uint32
	// Size is the blob's length in bytes (compressed).
	Size int
	// RawSize is the blob's length once decompressed; Decompress checks
	// it.
	RawSize int
	// ChunkSize is the data length of every chunk but the last, in
	// [MinChunkSize, MaxChunkSize].
	ChunkSize int
}

// Chunks returns the number of chunks the blob is cut in, or 0 for an
// offer with a Size or ChunkSize of 0 or less.
func (o Offer) Chunks() int {
	if o.Size <= 0 || o.ChunkSize <= 0 {
		return 0
	}
	return 1 + (o.Size-1)/o.ChunkSize
}

// Validate returns an error wrapping ErrInvalidOffer unless ChunkSize is
// in [MinChunkSize, MaxChunkSize], RawSize is in [1, maxSize] and Size is
// in [1, the largest size Compress can produce for RawSize bytes]. A
// maxSize of 0 or less, or above MaxSize, means MaxSize.
func (o Offer) Validate(maxSize int) error {
	limit := sizeLimit(maxSize)
	switch {
	case o.ChunkSize < MinChunkSize || o.ChunkSize > MaxChunkSize:
		return fmt.Errorf("%w: chunk size %d is outside [%d, %d]", ErrInvalidOffer, o.ChunkSize, MinChunkSize, MaxChunkSize)
	case o.RawSize <= 0:
		return fmt.Errorf("%w: raw size %d is not positive", ErrInvalidOffer, o.RawSize)
	case o.RawSize > limit:
		return fmt.Errorf("%w: raw size %d is over the limit of %d bytes", ErrInvalidOffer, o.RawSize, limit)
	case o.Size <= 0:
		return fmt.Errorf("%w: size %d is not positive", ErrInvalidOffer, o.Size)
	case o.Size > compressedBound(o.RawSize):
		return fmt.Errorf("%w: size %d is over %d, the most %d raw bytes compress to", ErrInvalidOffer, o.Size, compressedBound(o.RawSize), o.RawSize)
	}
	return nil
}

// span returns where chunk i starts and ends in the blob; i must be in
// [0, Chunks()).
func (o Offer) span(i int) (start, end int) {
	start = i * o.ChunkSize
	return start, min(start+o.ChunkSize, o.Size)
}

// compressedBound is an upper bound of len(Compress(raw)) for
// len(raw) == rawSize: DEFLATE stores incompressible data in blocks of at
// least 16 KiB with a 5-byte header each, plus a few bytes to end the
// stream.
func compressedBound(rawSize int) int {
	return rawSize + rawSize/1024 + 64
}

// sizeLimit maps a caller's maxSize to the limit in force.
func sizeLimit(maxSize int) int {
	if maxSize <= 0 || maxSize > MaxSize {
		return MaxSize
	}
	return maxSize
}
