package wire

import "errors"

// Errors returned by ReplayWindow.
var (
	// ErrReplayed is returned by ReplayWindow for a sequence number it has
	// already accepted, and matched by ErrTooOld.
	ErrReplayed = errors.New("wire: replayed packet")
	// ErrTooOld is returned by ReplayWindow for a sequence number more than
	// ReplayWindowSize below the newest accepted one: it can no longer tell
	// whether it was seen. It matches ErrReplayed too.
	ErrTooOld error = tooOldError{}
)

// tooOldError is the type of ErrTooOld, so that it also matches ErrReplayed
// without allocating.
type tooOldError struct{}

func (tooOldError) Error() string        { return "wire: packet older than the replay window" }
func (tooOldError) Is(target error) bool { return target == ErrReplayed }

// ReplayWindowSize is the number of sequence numbers, counting back from
// the newest accepted one, that a ReplayWindow remembers.
const ReplayWindowSize = 64

// ReplayWindow accepts each packet sequence number of one direction at most
// once, in any order, within a sliding window of ReplayWindowSize numbers
// (the scheme of RFC 6347 §4.1.2.6). It rejects numbers it has accepted
// (ErrReplayed) and numbers too far below the newest to tell (ErrTooOld). A
// number far ahead of the newest is accepted and slides the window, because
// a legitimate sender may have sent many packets that were all lost; in
// plaintext mode only a holder of the session token can make such a jump,
// and it could do worse.
//
// The zero value is an empty window that accepts any first number. A
// ReplayWindow is a value of 24 bytes; it does not allocate and is not safe
// for concurrent use.
type ReplayWindow struct {
	newest  uint64 // the largest accepted number, valid when started
	seen    uint64 // bit i set: newest-i was accepted; bit 0 set when started
	started bool
}

// Check reports whether seq would be accepted, without recording it: nil,
// ErrReplayed or ErrTooOld. Use it before decoding the body, and Accept
// after the body decoded, so a packet that fails to decode does not use up
// its number.
func (w *ReplayWindow) Check(seq uint64) error {
	if !w.started || seq > w.newest {
		return nil
	}
	d := w.newest - seq
	if d >= ReplayWindowSize {
		return ErrTooOld
	}
	if w.seen>>d&1 != 0 {
		return ErrReplayed
	}
	return nil
}

// Accept records seq if Check accepts it, and returns Check's error
// otherwise.
func (w *ReplayWindow) Accept(seq uint64) error {
	if err := w.Check(seq); err != nil {
		return err
	}
	switch {
	case !w.started:
		w.started, w.newest, w.seen = true, seq, 1
	case seq > w.newest:
		if d := seq - w.newest; d >= ReplayWindowSize {
			w.seen = 1
		} else {
			w.seen = w.seen<<d | 1
		}
		w.newest = seq
	default:
		w.seen |= 1 << (w.newest - seq)
	}
	return nil
}

// Expand returns the 64-bit sequence number whose low 16 bits are low and
// that is closest to the newest number the window accepted: within
// newest-32767 .. newest+32768, moved into 0 .. 2^64-1 at the ends of the
// range. With nothing accepted (or a nil window) it returns low itself.
// Non-Hello packets carry only the low 16 bits of their sequence number;
// the tag covers all 64, so a wrong expansion fails the tag rather than
// being accepted. A sender whose packets to this window were all lost for
// more than 32767 numbers in a row can no longer be expanded correctly and
// fails the tag for good; an endpoint declares such a peer disconnected
// long before (2.5 s is 150 packets at 60 a second).
func (w *ReplayWindow) Expand(low uint16) uint64 {
	if w == nil || !w.started {
		return uint64(low)
	}
	d := int64(int16(low - uint16(w.newest))) // -32768 .. 32767
	if d == -32768 {
		d = 32768
	}
	s := w.newest + uint64(d)
	switch {
	case d < 0 && s > w.newest: // below 0: take the candidate above
		s += 1 << 16
	case d > 0 && s < w.newest: // past 2^64-1: take the candidate below
		s -= 1 << 16
	}
	return s
}

// Newest returns the largest accepted sequence number; ok is false while
// nothing has been accepted.
func (w *ReplayWindow) Newest() (seq uint64, ok bool) { return w.newest, w.started }
