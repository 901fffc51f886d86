package wire

import (
	"encoding/binary"
	"math/bits"
)

// Key is the 128-bit SipHash-2-4 key that authenticates a match's packets.
// Derive it once from the session token with NewKey; every encoder and
// decoder takes it. The zero Key is a valid key but belongs to no token;
// use NewKey.
type Key struct {
	k0, k1 uint64
}

// keyMix is XORed into the second key word: the ASCII bytes "rollstep"
// read little-endian, so that NewKey(0) is not the zero Key.
const keyMix = 0x7065_7473_6c6c_6f72

// NewKey returns the key of session token: k0 is the token and k1 is
// token·0x9e3779b97f4a7c15 (the 64-bit golden ratio, modulo 2^64) XOR
// keyMix ("rollstep"). The key carries no more than the token's 64 bits of
// secret; the derivation only spreads them over both words so that the
// token never travels and every packet is authenticated with it.
func NewKey(token uint64) Key {
	return Key{k0: token, k1: token*0x9e3779b97f4a7c15 ^ keyMix}
}

// sip returns SipHash-2-4 under key k of the message (head as 8
// little-endian bytes, if hasHead) || p. A one-word prefix is what every
// packet tag needs (the full sequence number), and taking it as a word
// avoids copying the packet. The state lives in four locals and the
// rounds are written out (sipRound), so that it stays in registers: this
// runs twice per packet, once to send and once to receive.
func sip(k Key, head uint64, hasHead bool, p []byte) uint64 {
	v0 := k.k0 ^ 0x736f6d6570736575
	v1 := k.k1 ^ 0x646f72616e646f6d
	v2 := k.k0 ^ 0x6c7967656e657261
	v3 := k.k1 ^ 0x7465646279746573
	n := len(p)
	if hasHead {
		v3 ^= head
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
		v0 ^= head
		n += 8
	}
	all := p
	for len(p) >= 8 {
		m := binary.LittleEndian.Uint64(p)
		v3 ^= m
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
		v0 ^= m
		p = p[8:]
	}
	last := uint64(n) << 56
	if r := len(p); r > 0 && len(all) >= 8 {
		// The last r bytes are the top of the message's last word.
		last |= binary.LittleEndian.Uint64(all[len(all)-8:]) >> (64 - 8*r)
	} else {
		for i, c := range p {
			last |= uint64(c) << (8 * i)
		}
	}
	v3 ^= last
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0 ^= last
	v2 ^= 0xff
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	return v0 ^ v1 ^ v2 ^ v3
}

// sipRound is one SipRound of the state v0..v3.
func sipRound(v0, v1, v2, v3 uint64) (uint64, uint64, uint64, uint64) {
	v0 += v1
	v1 = bits.RotateLeft64(v1, 13) ^ v0
	v0 = bits.RotateLeft64(v0, 32)
	v2 += v3
	v3 = bits.RotateLeft64(v3, 16) ^ v2
	v0 += v3
	v3 = bits.RotateLeft64(v3, 21) ^ v0
	v2 += v1
	v1 = bits.RotateLeft64(v1, 17) ^ v2
	v2 = bits.RotateLeft64(v2, 32)
	return v0, v1, v2, v3
}

// TagSize is the length of the authentication tag that ends every packet.
const TagSize = 4

// tag returns the tag of a packet with full sequence number seq whose bytes
// before the tag are p: the low 32 bits of SipHash-2-4 of seq (8 bytes,
// little-endian) || p.
func tag(k Key, seq uint64, p []byte) uint32 { return uint32(sip(k, seq, true, p)) }

// appendTag appends the tag of the packet dst[start:] with sequence number
// seq.
func appendTag(dst []byte, k Key, seq uint64, start int) []byte {
	return binary.LittleEndian.AppendUint32(dst, tag(k, seq, dst[start:]))
}

// AppendTag appends to dst the tag of the packet dst[start:], whose full
// sequence number is seq, under key k: what every encoder ends a packet
// with. It is for tools that build packets byte by byte, such as fuzz
// targets that mutate a packet and sign it again so that the mutation
// reaches the decoders instead of dying at the tag.
func AppendTag(dst []byte, k Key, seq uint64, start int) []byte {
	return appendTag(dst, k, seq, start)
}
