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
// only one it reads. It is the low nibble of every packet's first byte.
const Version = 1

// magic is the high nibble of every packet's first byte.
const magic = 0xA

// minHeader and maxHeader bound the header length: magic/version, type and
// flags, the 8-byte token and a 1- to 10-byte sequence varint.
const (
	minHeader = 2 + 8 + 1
	maxHeader = 2 + 8 + binary.MaxVarintLen64
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
	// TypeQuality reports the sender's view of the link (Quality).
	TypeQuality
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
	case TypeQuality:
		return "quality"
	}
	return "type(" + strconv.Itoa(int(t)) + ")"
}

// Flag bits, the high nibble of a packet's second byte. Their meaning
// depends on the type; flags a type does not define must be zero.
const (
	flagEcho   = 0x10 // KeepAlive: Echo and EchoDelay follow
	flagTiming = 0x10 // Input: Stamp follows, then an optional echo
	flagGone   = 0x20 // Input: Gone follows
	flagSums   = 0x40 // Input: checksum reports follow
	flagBlocks = 0x80 // Input: the desync section follows
)

// allowedFlags[t] are the flag bits type t may carry.
var allowedFlags = [numTypes]byte{
	TypeInput:     flagTiming | flagGone | flagSums | flagBlocks,
	TypeKeepAlive: flagEcho,
}

// Header is the part every packet starts with.
type Header struct {
	// Type is the message type.
	Type Type
	// Flags are the type's flag bits (the high nibble of byte 1), for
	// diagnostics; encoders compute them from the message.
	Flags uint8
	// Token is the per-match session token.
	Token uint64
	// Seq is the sender's packet sequence number for this direction; feed
	// it to a ReplayWindow.
	Seq uint64
	// Len is the header's length in bytes: the body starts at Len.
	Len int
}

// appendHeader appends a header with the given type and flags.
func appendHeader(dst []byte, t Type, flags byte, token, seq uint64) []byte {
	dst = append(dst, magic<<4|Version, byte(t)|flags)
	dst = binary.LittleEndian.AppendUint64(dst, token)
	return binary.AppendUvarint(dst, seq)
}

// ParseHeader decodes and checks the header of datagram p: its length
// (at most MaxDatagram), magic, version, type, flags and token, which must
// equal token. It returns a *DecodeError wrapping ErrTooLarge, ErrTruncated,
// ErrBadMagic, ErrBadVersion, ErrUnknownType, ErrMalformed or ErrWrongToken.
// It does not allocate unless it fails.
//
// Comparing the token with == is not constant-time, and need not be: in
// plaintext mode the token travels in clear in every packet, so anyone who
// could learn it from timing can read it off the wire, and a packet with a
// wrong token is dropped without a reply, so there is no timing signal to
// observe. A 64-bit == is a single comparison anyway, with no early exit
// per byte.
func ParseHeader(p []byte, token uint64) (Header, error) {
	r := reader{b: p}
	h, _ := r.header(token)
	if r.err != nil {
		return Header{}, r.err
	}
	return h, nil
}

// header reads and checks the header and returns it with ok.
func (r *reader) header(token uint64) (Header, bool) {
	if len(r.b) > MaxDatagram {
		r.fail(MaxDatagram, "datagram of "+strconv.Itoa(len(r.b))+" bytes", ErrTooLarge)
		return Header{}, false
	}
	v := r.byte1("magic and version")
	if r.err != nil {
		return Header{}, false
	}
	if v>>4 != magic {
		r.fail(0, "first byte "+strconv.Itoa(int(v)), ErrBadMagic)
		return Header{}, false
	}
	if v&15 != Version {
		r.fail(0, "version "+strconv.Itoa(int(v&15))+", want "+strconv.Itoa(Version), ErrBadVersion)
		return Header{}, false
	}
	tf := r.byte1("type and flags")
	if r.err != nil {
		return Header{}, false
	}
	t, fl := Type(tf&15), tf&0xf0
	if t == TypeUnknown || t >= numTypes {
		r.fail(1, "type "+strconv.Itoa(int(t)), ErrUnknownType)
		return Header{}, false
	}
	if fl&^allowedFlags[t] != 0 {
		r.fail(1, "flags not defined for "+t.String(), ErrMalformed)
		return Header{}, false
	}
	tok := r.u64("token")
	if r.err != nil {
		return Header{}, false
	}
	if tok != token {
		r.fail(2, "token", ErrWrongToken)
		return Header{}, false
	}
	seq := r.uvarint("sequence")
	if r.err != nil {
		return Header{}, false
	}
	return Header{Type: t, Flags: fl, Token: tok, Seq: seq, Len: r.off}, true
}

// expect reads the header and checks that it has type t.
func (r *reader) expect(t Type, token uint64) (Header, bool) {
	h, ok := r.header(token)
	if ok && h.Type != t {
		r.fail(1, "got "+h.Type.String()+", want "+t.String(), ErrWrongType)
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
