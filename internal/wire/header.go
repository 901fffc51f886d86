package wire

import (
	"encoding/binary"
	"strconv"

	"github.com/rollstep/rollstep/transport"
)

// MaxDatagram is the largest datagram the encoders produce and the decoders
// accept; it is transport.MaxDatagram.
const MaxDatagram = transport.MaxDatagram

// Version is the version of the packet format this package writes and the
// only one it reads: the top two bits of every packet's first byte.
const Version = 2

// Header lengths: the first byte, then the sequence number, 2 bytes (its
// low 16 bits) or, in Hello, HelloReply and Match, 8 (all of it).
const (
	shortHeader = 1 + 2
	longHeader  = 1 + 8
	// inputExtAt is the offset of an Input packet's extension flags byte.
	inputExtAt = shortHeader
)

// Type is a packet's message type. The zero value, TypeUnknown, is never
// sent.
type Type uint8

// The message types. Their numbers are part of the format.
const (
	// TypeUnknown is the zero Type; no packet has it.
	TypeUnknown Type = iota
	// TypeHello opens a session (Hello).
	TypeHello
	// TypeHelloReply answers a Hello (HelloReply).
	TypeHelloReply
	// TypeInput carries a core.Message: inputs, acknowledgements,
	// checksums and time stamps.
	TypeInput
	// TypeKeepAlive keeps an idle session open and measures the round trip
	// (KeepAlive).
	TypeKeepAlive
	// TypeLeave says the sender leaves the match (Leave).
	TypeLeave
	// TypeTransfer carries one message of a state transfer to or from a
	// returning peer (AppendTransfer).
	TypeTransfer
	// TypeMatch negotiates the match configuration before a session
	// exists (Match).
	TypeMatch
	numTypes
)

// String returns the type's name, such as "input".
func (t Type) String() string {
	switch t {
	case TypeHello:
		return "hello"
	case TypeHelloReply:
		return "hello-reply"
	case TypeInput:
		return "input"
	case TypeKeepAlive:
		return "keep-alive"
	case TypeLeave:
		return "leave"
	case TypeTransfer:
		return "transfer"
	case TypeMatch:
		return "match"
	}
	return "type(" + strconv.Itoa(int(t)) + ")"
}

// longSeq reports whether packets of type t carry the full 64-bit sequence
// number: Hello, HelloReply and Match, so that first contact, and the
// negotiation before it, need no window.
func (t Type) longSeq() bool { return t == TypeHello || t == TypeHelloReply || t == TypeMatch }

// Flag bits, the low three bits of a packet's first byte. Their meaning
// depends on the type; flags a type does not define must be zero.
const (
	flagEcho    = 0x1 // KeepAlive: Echo and EchoDelay follow
	flagLost    = 0x2 // KeepAlive: the sender lost the receiver (a probe)
	flagTiming  = 0x1 // Input: Stamp follows, then an optional echo
	flagExt     = 0x2 // Input: the extension flags byte follows the header
	flagAtHeld  = 0x4 // Input: every run ends at its player's Held entry; no starts
	flagReplier = 0x1 // HelloReply: the replier's restart nonce follows
)

// Extension flags of an Input packet: the byte after the header, present
// with flagExt. It is never zero, and undefined bits are zero.
const (
	extGone   = 0x01 // Gone follows
	extSums   = 0x02 // checksum reports follow
	extBlocks = 0x04 // the desync section follows
	extAck    = 0x08 // ChecksumAck follows
	extAll    = extGone | extSums | extBlocks | extAck
)

// allowedFlags[t] are the flag bits type t may carry.
var allowedFlags = [numTypes]byte{
	TypeInput:      flagTiming | flagExt | flagAtHeld,
	TypeKeepAlive:  flagEcho | flagLost,
	TypeHelloReply: flagReplier,
}

// Header is the part every packet starts with, and what its tag proved.
type Header struct {
	// Type is the message type.
	Type Type
	// Flags are the type's flag bits (the low three bits of byte 0), for
	// diagnostics; encoders compute them from the message.
	Flags uint8
	// Seq is the sender's full 64-bit packet sequence number for this
	// direction, expanded from the 16 bits on the wire (or read whole from
	// a Hello, HelloReply or Match) and confirmed by the tag; feed it to
	// the ReplayWindow the decoder was given.
	Seq uint64
	// Len is the header's length in bytes: the body starts at Len and ends
	// TagSize bytes before the end of the datagram.
	Len int
}

// appendHeader appends the header of a packet of type t with the given
// flags and sequence number: its low 16 bits, or all 64 for Hello,
// HelloReply and Match.
func appendHeader(dst []byte, t Type, flags byte, seq uint64) []byte {
	dst = append(dst, Version<<6|byte(t)<<3|flags)
	if t.longSeq() {
		return binary.LittleEndian.AppendUint64(dst, seq)
	}
	return binary.LittleEndian.AppendUint16(dst, uint16(seq))
}

// ParseHeader decodes and checks the header of datagram p: its length (at
// most MaxDatagram), version, type and flags; it expands the sequence
// number with window (see ReplayWindow.Expand; nil is an empty window) and
// verifies the tag under key. It returns a *DecodeError wrapping
// ErrTooLarge, ErrTruncated, ErrBadVersion, ErrUnknownType, ErrMalformed or
// ErrWrongToken. It does not check or update window: Check the returned
// Seq before decoding the body and Accept it after. It never allocates.
//
// The tag is compared with ==, which is not constant-time, and need not
// be: a packet with a wrong tag is dropped without a reply, so there is no
// timing signal to observe, and a 32-bit == has no early exit per byte.
func ParseHeader(p []byte, key Key, window *ReplayWindow) (Header, error) {
	r := reader{b: p}
	h, _ := r.header(key, window)
	if r.err != nil {
		return Header{}, r.err
	}
	return h, nil
}

// header reads and checks the header, verifies the tag and returns the
// header with ok. On success it leaves r.b without the tag and r.off at the
// body. Every failure is a preallocated error.
func (r *reader) header(key Key, w *ReplayWindow) (Header, bool) {
	p := r.b
	if len(p) > MaxDatagram {
		r.stop(errDatagramTooLarge)
		return Header{}, false
	}
	if len(p) == 0 {
		r.stop(errShortHeader)
		return Header{}, false
	}
	b := p[0]
	if b>>6 != Version {
		r.stop(errVersion)
		return Header{}, false
	}
	t, fl := Type(b>>3&7), b&7
	if t == TypeUnknown || t >= numTypes {
		r.stop(errType)
		return Header{}, false
	}
	if fl&^allowedFlags[t] != 0 {
		r.stop(errFlags)
		return Header{}, false
	}
	n := shortHeader
	if t.longSeq() {
		n = longHeader
	}
	if len(p) < n+TagSize {
		r.stop(errShortHeader)
		return Header{}, false
	}
	var seq uint64
	if t.longSeq() {
		seq = binary.LittleEndian.Uint64(p[1:])
	} else {
		seq = w.Expand(binary.LittleEndian.Uint16(p[1:]))
	}
	end := len(p) - TagSize
	if tag(key, seq, p[:end]) != binary.LittleEndian.Uint32(p[end:]) {
		r.stop(errTag)
		return Header{}, false
	}
	r.b, r.off = p[:end], n
	return Header{Type: t, Flags: fl, Seq: seq, Len: n}, true
}

// expect reads the header and checks that it has type t.
func (r *reader) expect(t Type, key Key, w *ReplayWindow) (Header, bool) {
	h, ok := r.header(key, w)
	if ok && h.Type != t {
		r.stop(errWrongType)
		return Header{}, false
	}
	return h, ok
}

// end fails with ErrMalformed if bytes are left after the body.
func (r *reader) end() {
	if r.err == nil && r.off != len(r.b) {
		r.fail(r.off, strconv.Itoa(len(r.b)-r.off)+" trailing bytes", ErrMalformed)
	}
}
