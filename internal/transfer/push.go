package transfer

import (
	"fmt"
	"time"
)

// OfferResend is how often a Push repeats its Offer until the receiver
// acknowledges it.
const OfferResend = 100 * time.Millisecond

// Push is the sending side of one transfer as a carrier drives it: it
// sends the Offer every OfferResend until the first Ack of its ID comes
// back, then the Sender's chunks, and takes the receiver's acks. It ends
// with ErrTimeout when the offer is not acknowledged within the
// SenderConfig's Timeout, as the Sender does when acks stop.
type Push struct {
	snd     *Sender
	offer   Offer
	timeout time.Duration
	offered bool // an ack of the offer arrived
	begun   bool
	firstAt time.Duration // when the offer was first sent
	offerAt time.Duration // when it was last sent
	buf     []byte
}

// NewPush returns the Push of transfer id: blob is Compress's result of
// rawSize bytes, which the Push keeps and reads until Done.
func NewPush(cfg SenderConfig, id uint32, blob []byte, rawSize int) (*Push, error) {
	o := Offer{ID: id, Size: len(blob), RawSize: rawSize, ChunkSize: MaxChunkSize}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	snd, err := NewSender(cfg, o, blob)
	if err != nil {
		return nil, err
	}
	return &Push{snd: snd, offer: o, timeout: cfg.Timeout}, nil
}

// Offer returns the transfer's offer.
func (p *Push) Offer() Offer { return p.offer }

// SetRTT passes the carrier's round-trip time to the Sender.
func (p *Push) SetRTT(rtt time.Duration) { p.snd.SetRTT(rtt) }

// Stats returns the Sender's counters.
func (p *Push) Stats() SenderStats { return p.snd.Stats() }

// Pump hands send every message the transfer may send at now: the offer
// while it is not acknowledged, then the chunks the pacing allows. It
// reports whether every chunk is acknowledged, and returns the Sender's
// error, ErrTimeout for an offer nobody acknowledged, or send's first
// error. The slice send gets is valid only during the call.
func (p *Push) Pump(now time.Duration, send func([]byte) error) (done bool, err error) {
	if p.snd.Done() {
		return true, nil
	}
	if err := p.snd.Err(); err != nil {
		return false, err
	}
	if !p.offered {
		if !p.begun {
			p.begun, p.firstAt, p.offerAt = true, now, now-OfferResend
		}
		if now-p.firstAt > p.timeout {
			return false, fmt.Errorf("%w: offer %d not acknowledged in %v", ErrTimeout, p.offer.ID, p.timeout)
		}
		if now-p.offerAt < OfferResend {
			return false, nil
		}
		p.offerAt = now
		p.buf = AppendOffer(p.buf[:0], p.offer)
		return false, send(p.buf)
	}
	for {
		msg, ok := p.snd.Next(now, p.buf[:0])
		if !ok {
			return false, nil
		}
		p.buf = msg
		if err := send(msg); err != nil {
			return false, err
		}
	}
}

// OnAck takes payload, a message from the receiver: an Ack of this
// transfer acknowledges the offer and moves the Sender on; anything else
// changes nothing.
func (p *Push) OnAck(now time.Duration, payload []byte) {
	a, err := DecodeAck(payload)
	if err != nil || a.ID != p.offer.ID {
		return
	}
	p.offered = true
	_ = p.snd.OnAck(now, a) // a bad ack is counted by the Sender and changes nothing
}
