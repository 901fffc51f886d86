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

// Newest returns the largest accepted sequence number; ok is false while
// nothing has been accepted.
func (w *ReplayWindow) Newest() (seq uint64, ok bool) { return w.newest, w.started }
