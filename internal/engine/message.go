package engine

import (
	"time"

	"github.com/rollstep/rollstep/core"
)

// Message is everything one engine tells one peer, as a plain Go value;
// package transport encodes it. Every message is self-contained and
// idempotent: inputs the peer has not acknowledged are repeated in every
// message until acknowledged (redundancy instead of retransmission), so
// messages may be lost, duplicated or reordered.
//
// Messages in a Ready are owned by the engine and valid until the next call
// of Advance: encode or copy them before that. Receive copies what it keeps
// and never retains the message.
type Message[I comparable] struct {
	// Frame is the sender's current frame when it built the message.
	Frame core.Frame
	// Inputs holds at most one run per player: the sender's own players'
	// inputs, and inputs of disconnected players it relays so every peer
	// holds the same inputs up to the agreed disconnect frame.
	Inputs []InputRun[I]
	// Held[p] is the number of player p's inputs the sender holds without a
	// gap: it has frames 0..Held[p]-1. It acknowledges inputs, and for
	// disconnected players it is the sender's vote on the disconnect frame.
	// Entries at and past Config.Players are zero when sent and ignored
	// when received.
	Held [core.MaxPlayers]core.Frame
	// Gone has bit p set when the sender has declared player p
	// disconnected.
	Gone uint16
	// Checksums are some of the sender's checksums of confirmed frames
	// that the receiver has not acknowledged, oldest first: each new one
	// in the messages of the next two frames, and the unacknowledged ones
	// again in every eighth message until acknowledged.
	Checksums []ChecksumReport
	// ChecksumAck acknowledges the receiver's checksums: the sender holds
	// the receiver's checksum of every checksummed frame below ChecksumAck.
	// 0 acknowledges nothing, so a transport may send 0 in place of an
	// unchanged ack.
	ChecksumAck core.Frame
	// Blocks, when Blocks.Hashes is not empty, is one of the sender's
	// pending queries while it narrows a desync down to fields: the hashes
	// of the blocks of one byte range of its state after a frame whose
	// checksums disagreed. The sender keeps up to 16 queries pending and
	// puts one in each message, the one sent least recently, so each is
	// repeated every few messages until its answer arrives.
	Blocks BlockReport
	// Answers are the sender's answers to the receiver's queries (Blocks),
	// the most recently asked first. The list ends at the first entry with
	// Length 0: the engine fills the entries from the first, and Receive
	// ignores any entry after an empty one. Each answer is repeated in
	// several messages after each copy of its query.
	Answers [MaxAnswers]BlockAnswer
	// Stamp is the sender's now when it built the message, unless
	// NoStamp.
	Stamp time.Duration
	// Echo is the Stamp of the newest message the sender received from the
	// receiver, and EchoDelay how long the sender held it before this
	// message; valid when HasEcho. They give the receiver the round-trip
	// time. A message with NoStamp has no echo either.
	Echo      time.Duration
	EchoDelay time.Duration // how long the sender held the echoed message
	HasEcho   bool          // Echo and EchoDelay are valid
	// NoStamp reports that the message carries no round-trip timing:
	// receivers ignore Stamp, Echo and EchoDelay. The wire sends the timing
	// in only some packets to keep the others small (see internal/wire's
	// StampDue), and a message decoded from one without it has NoStamp set
	// and Stamp, Echo and EchoDelay zero. Engines never set it.
	NoStamp bool
}

// MaxAnswers is the number of answers to desync search queries one
// Message carries (Message.Answers).
const MaxAnswers = 4

// InputRun is a player's inputs for consecutive frames Start, Start+1, ...
type InputRun[I comparable] struct {
	Player core.PlayerHandle // whose inputs
	Start  core.Frame        // the frame of Values[0]
	Values []I               // inputs of frames Start, Start+1, ...
}

// ChecksumReport is the checksum of the state after a confirmed frame.
type ChecksumReport struct {
	Frame core.Frame // a confirmed frame, a multiple of the checksum interval
	Sum   uint64     // state.Checksum of the state after Frame
}

// BlockReport is a query of the desync search: the hashes of consecutive
// BlockSize-byte blocks of bytes Offset..Offset+Length-1 of the sender's
// state after Frame, in memory order (the last block may be shorter).
// BlockSize is the smallest size giving at most 64 blocks:
// ceil(Length/64). The receiver compares them with its own state after
// Frame and replies with a BlockAnswer.
type BlockReport struct {
	Frame     core.Frame // the desynced frame
	Offset    int        // the first byte of the range
	Length    int        // bytes in the range, at least 1
	BlockSize int        // bytes per block: ceil(Length/64)
	Hashes    []uint64   // one hash per block, ceil(Length/BlockSize) of them
}

// BlockAnswer replies to the BlockReport with the same Frame, Offset and
// Length: bit i of Differ is set when block i hashes differently in the
// sender's state after Frame. Unavailable reports that the sender no
// longer holds that state (Differ is then zero). The zero BlockAnswer
// (Length 0) is no answer.
type BlockAnswer struct {
	Frame       core.Frame // the queried frame
	Offset      int        // the queried range's first byte
	Length      int        // the queried range's length; 0: no answer
	Differ      uint64     // bit i: block i differs
	Unavailable bool       // the sender's state after Frame has expired
}

// Outgoing is a message to send to one peer.
type Outgoing[I comparable] struct {
	To      core.PeerID // the receiving peer
	Message *Message[I] // owned by the engine until the next Advance
}

// Ready is what one call of Advance did and what the host must do. Its
// slices and messages are owned by the engine and valid until the next
// call of Advance.
type Ready[I comparable] struct {
	// Messages must be sent, one per remote peer not disconnected, in any
	// order. They carry Slots: every input with its control word.
	Messages []Outgoing[Slot[I]]
	// Effects are the effects newly emitted by the frames simulated in this
	// call, in frame order then emission order; play them.
	Effects []core.FrameEffect
	// Cancelled are effects delivered in an earlier call that the
	// re-simulation in this call no longer emits; stop or undo them.
	Cancelled []core.FrameEffect
	// Events are advisory: desyncs, equivocations, disconnects, sync-test
	// failures, in the order they happened.
	Events []core.Event
	// Stepped reports whether a new frame was simulated; Frame is the
	// engine's current frame after the call (the next frame to simulate).
	Stepped bool
	Frame   core.Frame // the current frame after the call
	// Stalled reports that the engine could not step because remote inputs
	// were missing: the frame is W frames past the newest fully known one.
	// (A missing local input is not a stall: see NeedsInput.)
	Stalled bool
	// RolledBack reports that a correction made the engine load the state
	// before frame LoadedFrame and re-simulate Resimulated frames.
	RolledBack  bool
	LoadedFrame core.Frame // the first re-simulated frame, valid if RolledBack
	Resimulated int        // frames re-simulated, valid if RolledBack
}
