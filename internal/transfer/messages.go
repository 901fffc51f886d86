package transfer

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Encoded sizes. Every message starts with a one-byte kind, so that a
// chunk is never decoded as an ack or the other way round; the integers
// that follow are little-endian.
const (
	// OfferSize is the length of an encoded Offer: kind, ID, Size,
	// RawSize (uint32 each) and ChunkSize (uint16).
	OfferSize = 15
	// ChunkHeaderSize is the length of a Chunk message before its data:
	// kind, ID and Index (uint32 each).
	ChunkHeaderSize = 9
	// AckSize is the length of an encoded Ack: kind, ID and Next (uint32
	// each) and Mask (uint64).
	AckSize = 17
)

// The kind bytes that start the messages, so a carrier that multiplexes
// them with messages of its own can tell them apart by the first byte.
const (
	KindOffer byte = 0x01 // an Offer
	KindChunk byte = 0x02 // a Chunk
	KindAck   byte = 0x03 // an Ack
)

// Chunk carries the data of one chunk of a transfer, from the sender to
// the receiver.
type Chunk struct {
	ID    uint32 // the Offer's ID
	Index uint32 // which chunk: its data starts at Index·ChunkSize in the blob
	Data  []byte // the chunk's bytes
}

// Ack reports, from the receiver to the sender, which chunks arrived. It
// is cumulative: a newer ack says everything an older one said, so a lost
// or reordered ack costs nothing but time.
type Ack struct {
	ID   uint32 // the Offer's ID
	Next uint32 // every chunk below Next was received, chunk Next was not (unless Next is the chunk count)
	Mask uint64 // bit i set: chunk Next+1+i was received
}

// AppendOffer appends the encoding of o, which must be valid (see
// Offer.Validate), to dst and returns the extended slice.
func AppendOffer(dst []byte, o Offer) []byte {
	dst = append(dst, KindOffer)
	dst = binary.LittleEndian.AppendUint32(dst, o.ID)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(o.Size))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(o.RawSize))
	return binary.LittleEndian.AppendUint16(dst, uint16(o.ChunkSize))
}

// DecodeOffer decodes an Offer from exactly OfferSize bytes. It checks the
// encoding only; the receiver checks the values with Validate (NewReceiver
// does).
func DecodeOffer(b []byte) (Offer, error) {
	if len(b) != OfferSize {
		return Offer{}, fmt.Errorf("%w: offer of %d bytes, want %d", ErrMalformed, len(b), OfferSize)
	}
	if b[0] != KindOffer {
		return Offer{}, fmt.Errorf("%w: kind %#02x is not an offer", ErrMalformed, b[0])
	}
	size := binary.LittleEndian.Uint32(b[5:])
	rawSize := binary.LittleEndian.Uint32(b[9:])
	if size > math.MaxInt32 || rawSize > math.MaxInt32 {
		// Not representable as an int on 32-bit targets, and far over
		// MaxSize anyway.
		return Offer{}, fmt.Errorf("%w: offer sizes %d and %d, at most %d", ErrMalformed, size, rawSize, math.MaxInt32)
	}
	return Offer{
		ID:        binary.LittleEndian.Uint32(b[1:]),
		Size:      int(size),
		RawSize:   int(rawSize),
		ChunkSize: int(binary.LittleEndian.Uint16(b[13:])),
	}, nil
}

// AppendChunk appends the encoding of c, ChunkHeaderSize+len(c.Data)
// bytes, to dst and returns the extended slice. It does not allocate when
// dst has room.
func AppendChunk(dst []byte, c Chunk) []byte {
	dst = append(dst, KindChunk)
	dst = binary.LittleEndian.AppendUint32(dst, c.ID)
	dst = binary.LittleEndian.AppendUint32(dst, c.Index)
	return append(dst, c.Data...)
}

// DecodeChunk decodes a Chunk message: the header and 1 to MaxChunkSize
// bytes of data. The returned Data aliases b (its capacity ends where b's
// length does): it is valid while b is, and Receiver.OnChunk copies it.
func DecodeChunk(b []byte) (Chunk, error) {
	if len(b) <= ChunkHeaderSize {
		return Chunk{}, fmt.Errorf("%w: chunk of %d bytes, want more than the %d-byte header", ErrMalformed, len(b), ChunkHeaderSize)
	}
	if b[0] != KindChunk {
		return Chunk{}, fmt.Errorf("%w: kind %#02x is not a chunk", ErrMalformed, b[0])
	}
	if n := len(b) - ChunkHeaderSize; n > MaxChunkSize {
		return Chunk{}, fmt.Errorf("%w: chunk of %d data bytes, at most %d", ErrMalformed, n, MaxChunkSize)
	}
	return Chunk{
		ID:    binary.LittleEndian.Uint32(b[1:]),
		Index: binary.LittleEndian.Uint32(b[5:]),
		Data:  b[ChunkHeaderSize:len(b):len(b)],
	}, nil
}

// AppendAck appends the encoding of a, AckSize bytes, to dst and returns
// the extended slice. It does not allocate when dst has room.
func AppendAck(dst []byte, a Ack) []byte {
	dst = append(dst, KindAck)
	dst = binary.LittleEndian.AppendUint32(dst, a.ID)
	dst = binary.LittleEndian.AppendUint32(dst, a.Next)
	return binary.LittleEndian.AppendUint64(dst, a.Mask)
}

// DecodeAck decodes an Ack from exactly AckSize bytes. Sender.OnAck checks
// the values.
func DecodeAck(b []byte) (Ack, error) {
	if len(b) != AckSize {
		return Ack{}, fmt.Errorf("%w: ack of %d bytes, want %d", ErrMalformed, len(b), AckSize)
	}
	if b[0] != KindAck {
		return Ack{}, fmt.Errorf("%w: kind %#02x is not an ack", ErrMalformed, b[0])
	}
	return Ack{
		ID:   binary.LittleEndian.Uint32(b[1:]),
		Next: binary.LittleEndian.Uint32(b[5:]),
		Mask: binary.LittleEndian.Uint64(b[9:]),
	}, nil
}
