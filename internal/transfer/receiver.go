package transfer

import "fmt"

// Receiver reassembles one blob from its chunks, in any order, and
// reports what it has in Acks. It trusts nothing in a chunk but checks
// only its shape (ID, index, length): that the bytes are the sender's is
// the carrier's job. It is not safe for concurrent use.
type Receiver struct {
	offer    Offer
	count    int
	blob     []byte
	got      bitset
	next     int // every chunk below next was received
	received int
}

// NewReceiver returns a Receiver of the blob offer describes, refusing
// (ErrInvalidOffer) an offer that Validate(maxSize) refuses: the Receiver
// allocates offer.Size bytes, so maxSize bounds what a peer can make it
// allocate. A maxSize of 0 or less, or above MaxSize, means MaxSize.
func NewReceiver(offer Offer, maxSize int) (*Receiver, error) {
	if err := offer.Validate(maxSize); err != nil {
		return nil, err
	}
	count := offer.Chunks()
	return &Receiver{
		offer: offer,
		count: count,
		blob:  make([]byte, offer.Size),
		got:   newBitset(count),
	}, nil
}

// OnChunk stores c's data, reporting whether the chunk was new. It
// refuses a chunk of another transfer (ErrWrongTransfer), an index past
// the last chunk (ErrBadIndex) and data of the wrong length, which is
// ChunkSize but for the last chunk (ErrBadLength). A duplicate is not an
// error: fresh is false and the first copy stays. The caller sends an
// Ack after every chunk OnChunk accepted, fresh or not (a duplicate means
// the sender missed an ack), or after a few of them at most an RTT/4
// later. OnChunk does not allocate unless it returns an error.
func (r *Receiver) OnChunk(c Chunk) (fresh bool, err error) {
	if c.ID != r.offer.ID {
		return false, fmt.Errorf("%w: chunk of transfer %d, receiving %d", ErrWrongTransfer, c.ID, r.offer.ID)
	}
	if uint64(c.Index) >= uint64(r.count) {
		return false, fmt.Errorf("%w: chunk %d of %d", ErrBadIndex, c.Index, r.count)
	}
	i := int(c.Index)
	start, end := r.offer.span(i)
	if len(c.Data) != end-start {
		return false, fmt.Errorf("%w: chunk %d of %d bytes, want %d", ErrBadLength, i, len(c.Data), end-start)
	}
	if r.got.has(i) {
		return false, nil
	}
	copy(r.blob[start:end], c.Data)
	r.got.set(i)
	r.received++
	for r.next < r.count && r.got.has(r.next) {
		r.next++
	}
	return true, nil
}

// Ack returns the ack of everything received so far.
func (r *Receiver) Ack() Ack {
	return Ack{ID: r.offer.ID, Next: uint32(r.next), Mask: r.got.window(r.next + 1)}
}

// Complete reports whether every chunk arrived.
func (r *Receiver) Complete() bool { return r.next == r.count }

// Blob returns the blob once Complete, nil before. It is the Receiver's
// buffer, not a copy; pass it to Decompress with the offer's RawSize.
func (r *Receiver) Blob() []byte {
	if !r.Complete() {
		return nil
	}
	return r.blob
}
