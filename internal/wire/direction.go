package wire

import "encoding/binary"

// Labels that keep the two words of a direction key apart from each other
// and from every packet tag (a tag's first word is a sequence number,
// which never reaches these values in a match: 2^63 and more).
const (
	directionLabel0 = 0x8000_0000_6b65_7930 // "0yek", top bit set
	directionLabel1 = 0x8000_0000_6b65_7931 // "1yek", top bit set
)

// DirectionKey returns the key of the packets that the participant in
// seat from sends to the one in seat to, after a handshake in which from
// sent nonce fromNonce and to sent toNonce: two SipHash-2-4 values under
// the key of token over the seats and both nonces. Every packet but
// Hello, HelloReply and Match is tagged with it.
//
// A key per direction, per pair and per handshake means that a packet
// reflected back to its sender (the other direction), replayed to another
// peer of the match (another pair) or replayed from an earlier match
// under the same token (other nonces) fails its tag. Like the token key,
// it carries no more secret than the token: anyone who holds the token
// and saw both Hellos can derive it.
func DirectionKey(token uint64, from, to Seat, fromNonce, toNonce uint64) Key {
	var b [2 + 8 + 8]byte
	b[0], b[1] = byte(from), byte(to)
	binary.LittleEndian.PutUint64(b[2:], fromNonce)
	binary.LittleEndian.PutUint64(b[10:], toNonce)
	k := NewKey(token)
	return Key{k0: sip(k, directionLabel0, true, b[:]), k1: sip(k, directionLabel1, true, b[:])}
}

// PacketType returns the type that datagram p says it has, without
// checking anything else: TypeUnknown for an empty datagram, another
// version or an undefined type. The type is not authenticated until the
// tag is; it only tells a receiver which key to check the tag with.
func PacketType(p []byte) Type {
	if len(p) == 0 || p[0]>>6 != Version {
		return TypeUnknown
	}
	if t := Type(p[0] >> 3 & 7); t < numTypes {
		return t
	}
	return TypeUnknown
}

// Handshake reports whether packets of type t are tagged with the token's
// key (Hello, HelloReply and Match: they travel before both nonces are
// known) rather than a DirectionKey.
func (t Type) Handshake() bool { return t.longSeq() }
