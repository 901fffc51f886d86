package transfer

import "errors"

// Sentinel errors. Every error returned by this package wraps one of them
// (test with errors.Is) and adds the numbers that explain it.
var (
	// ErrInvalidOffer is returned for an Offer that Validate refuses.
	ErrInvalidOffer = errors.New("transfer: invalid offer")

	// ErrInvalidConfig is returned by NewSender for a SenderConfig it
	// cannot use.
	ErrInvalidConfig = errors.New("transfer: invalid sender config")

	// ErrMalformed is returned by the decoders for bytes that are not a
	// well-formed message of the kind asked for.
	ErrMalformed = errors.New("transfer: malformed message")

	// ErrWrongTransfer is returned for a Chunk or an Ack whose ID is not
	// the transfer's: typically a straggler of an older transfer.
	ErrWrongTransfer = errors.New("transfer: wrong transfer id")

	// ErrBadIndex is returned by Receiver.OnChunk for a chunk index at or
	// past the offer's chunk count.
	ErrBadIndex = errors.New("transfer: chunk index out of range")

	// ErrBadLength is returned by Receiver.OnChunk for chunk data whose
	// length is not the length of that chunk.
	ErrBadLength = errors.New("transfer: wrong chunk length")

	// ErrBadAck is returned by Sender.OnAck for an ack that acknowledges
	// chunks the sender never sent.
	ErrBadAck = errors.New("transfer: ack acknowledges unsent chunks")

	// ErrTooLarge is returned by Decompress for a raw size over the limit.
	ErrTooLarge = errors.New("transfer: blob too large")

	// ErrCorrupt is returned by Decompress for a stream that is not valid
	// DEFLATE or does not inflate to exactly the announced raw size.
	ErrCorrupt = errors.New("transfer: corrupt compressed blob")

	// ErrIncomplete is returned by Pull.Raw before every chunk arrived.
	ErrIncomplete = errors.New("transfer: transfer incomplete")

	// ErrTimeout is the Sender's Err after no ack made progress for
	// SenderConfig.Timeout.
	ErrTimeout = errors.New("transfer: timed out")
)
