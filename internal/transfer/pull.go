package transfer

// Pull is the receiving side of one transfer as a carrier drives it, the
// counterpart of Push: it takes an Offer the carrier accepts, then the
// chunks of that transfer, and gives the Ack to send back after each. It
// keeps answering repeats once Complete, because the sender may not have
// had the last Ack. The zero Pull waits for an offer.
type Pull struct {
	rcv   *Receiver
	offer Offer
	ack   []byte
	// Bytes counts the bytes of the chunk messages taken, headers
	// included, Chunks the new chunks and Duplicates the repeats.
	Bytes              int64
	Chunks, Duplicates int
}

// On takes payload, a message from the sender. An Offer of the transfer
// under way, or one accept takes while none is under way, gives that
// transfer's Ack; accept, nil to take any, sees only offers
// Validate(maxSize) passes. A
// Chunk of the transfer under way is stored and gives the Ack. Anything
// else (another transfer, a malformed or misshapen message, an ack)
// gives nil and changes nothing. The Ack is the Pull's buffer, valid
// until the next call.
func (p *Pull) On(payload []byte, maxSize int, accept func(Offer) bool) []byte {
	if len(payload) == 0 {
		return nil
	}
	switch payload[0] {
	case KindOffer:
		o, err := DecodeOffer(payload)
		if err != nil {
			return nil
		}
		if p.rcv == nil || o.ID != p.offer.ID {
			if p.rcv != nil || o.Validate(maxSize) != nil || (accept != nil && !accept(o)) {
				return nil
			}
			p.rcv, _ = NewReceiver(o, maxSize) // valid
			p.offer = o
		}
	case KindChunk:
		c, err := DecodeChunk(payload)
		if err != nil || p.rcv == nil {
			return nil
		}
		fresh, err := p.rcv.OnChunk(c)
		switch {
		case err != nil:
			return nil
		case fresh:
			p.Chunks++
		default:
			p.Duplicates++
		}
		p.Bytes += int64(len(payload))
	default:
		return nil
	}
	p.ack = AppendAck(p.ack[:0], p.rcv.Ack())
	return p.ack
}

// Started reports whether an offer was taken; Offer returns it.
func (p *Pull) Started() bool { return p.rcv != nil }

// Offer returns the offer taken, the zero Offer before.
func (p *Pull) Offer() Offer { return p.offer }

// Complete reports whether every chunk of the transfer arrived.
func (p *Pull) Complete() bool { return p.rcv != nil && p.rcv.Complete() }

// Raw returns the transfer's blob, decompressed to the offer's RawSize,
// once Complete: Decompress's error for a blob that does not decompress
// to exactly that within maxRaw bytes, ErrIncomplete before.
func (p *Pull) Raw(maxRaw int) ([]byte, error) {
	if !p.Complete() {
		return nil, ErrIncomplete
	}
	return Decompress(p.rcv.Blob(), p.offer.RawSize, maxRaw)
}
