package wire

import (
	"encoding/binary"
	"strconv"
)

// MaxMatchParams is the most bytes of opaque game parameters a MatchOffer
// carries. The largest offer, 1067 bytes, fits one datagram.
const MaxMatchParams = 1024

// MatchReplySize is the exact length of every MatchAccepted and MatchRefused
// datagram. It is smaller than the smallest offer (42 bytes), so one reply
// never amplifies the offer it answers; a sender that repeats its reply
// for redundancy keeps the total within the offer's length
// (see TestMatchSizes).
const MatchReplySize = longHeader + 1 + MatchDigestSize + TagSize

// MatchDigestSize is the length of the digest that identifies an offered
// match configuration in MatchAccepted and MatchRefused.
const MatchDigestSize = 16

// MatchKind says what a Match packet is. The zero value, MatchUnknown, has
// no encoding.
type MatchKind uint8

// The match negotiation messages. Their numbers are part of the format.
const (
	// MatchUnknown is the zero MatchKind; it is never sent.
	MatchUnknown MatchKind = iota
	// MatchOffered offers a match configuration (Match.Offer).
	MatchOffered
	// MatchAccepted accepts the offer whose digest it carries
	// (Match.Digest).
	MatchAccepted
	// MatchRefused refuses the offer whose digest it carries.
	MatchRefused
	numMatchKinds
)

// String returns the kind's name, such as "offered".
func (k MatchKind) String() string {
	switch k {
	case MatchOffered:
		return "offered"
	case MatchAccepted:
		return "accepted"
	case MatchRefused:
		return "refused"
	}
	return "match-kind(" + strconv.Itoa(int(k)) + ")"
}

// MatchOffer is a match configuration as it travels in an offer: the
// fields of the root package's MatchConfig, unchecked beyond their widths
// and the bound on Params (the receiver validates the values).
type MatchOffer struct {
	// Players is the number of players in the match.
	Players uint8
	// TickRate is the simulation rate in frames (or turns) per second.
	TickRate uint16
	// Seed is the match's random seed.
	Seed uint64
	// Game identifies the game build.
	Game [16]byte
	// Params are opaque game parameters, at most MaxMatchParams bytes.
	// DecodeMatch copies them into the backing array of the Params of the
	// Match it decodes into (see DecodeMatch); they never alias the
	// datagram.
	Params []byte
}

// Match is a message of the match negotiation, which agrees on a match
// configuration before any session exists: the authority sends an offer,
// and every follower accepts or refuses it, naming the offer by its digest
// (computed by the layer above; this package treats it as 16 opaque
// bytes). Like Hello it carries the full 64-bit sequence number, so
// it is decoded without a ReplayWindow; the negotiation tolerates
// duplicates (a repeated offer is answered again).
type Match struct {
	// Kind says which message this is.
	Kind MatchKind
	// Digest names the offer answered; sent only with MatchAccepted
	// and MatchRefused, otherwise it decodes as zero.
	Digest [MatchDigestSize]byte
	// Offer is the offered configuration; sent only with MatchOffered,
	// otherwise it decodes as zero (with Params empty but keeping its
	// array).
	Offer MatchOffer
}

// AppendMatch appends m with the full sequence number seq, authenticated
// with key. It fails with an *EncodeError for an unknown Kind or, in an
// offer, Params longer than MaxMatchParams; dst is then unchanged.
func AppendMatch(dst []byte, key Key, seq uint64, m *Match) ([]byte, error) {
	if m.Kind == MatchUnknown || m.Kind >= numMatchKinds {
		return dst, &EncodeError{Field: "Kind", Reason: "unknown kind " + strconv.Itoa(int(m.Kind))}
	}
	if m.Kind == MatchOffered && len(m.Offer.Params) > MaxMatchParams {
		return dst, &EncodeError{Field: "Offer.Params", Reason: strconv.Itoa(len(m.Offer.Params)) +
			" bytes, more than " + strconv.Itoa(MaxMatchParams)}
	}
	start := len(dst)
	dst = appendHeader(dst, TypeMatch, 0, seq)
	dst = append(dst, byte(m.Kind))
	if m.Kind != MatchOffered {
		dst = append(dst, m.Digest[:]...)
		return appendTag(dst, key, seq, start), nil
	}
	o := &m.Offer
	dst = append(dst, o.Players)
	dst = binary.LittleEndian.AppendUint16(dst, o.TickRate)
	dst = appendU64(dst, o.Seed)
	dst = append(dst, o.Game[:]...)
	dst = binary.AppendUvarint(dst, uint64(len(o.Params)))
	dst = append(dst, o.Params...)
	return appendTag(dst, key, seq, start), nil
}

// DecodeMatch decodes datagram p, which must be a Match authenticated with
// key, into *m. It carries its full sequence number, so window (which may
// be nil) is not needed; it is taken for symmetry and never modified. It
// accepts exactly the encodings AppendMatch produces, never panics, and
// allocates nothing when it rejects a packet for its header or tag.
//
// Ownership: *m belongs to the caller, who may reuse it for every packet.
// The decoder copies an offer's Params into the backing array of
// m.Offer.Params, growing it when it is too small, so that after warm-up it
// allocates nothing; the Params it leaves are valid until the next decode
// into *m, and never alias p. On error *m, and the contents of its Params
// array, are unchanged.
func DecodeMatch(p []byte, key Key, window *ReplayWindow, m *Match) (Header, error) {
	r := reader{b: p}
	hd, ok := r.expect(TypeMatch, key, window)
	if !ok {
		return Header{}, r.err
	}
	at := r.off
	kind := MatchKind(r.byte1("kind"))
	if r.ok() && (kind == MatchUnknown || kind >= numMatchKinds) {
		r.fail(at, "unknown kind", ErrMalformed)
	}
	v := Match{Kind: kind}
	var params []byte
	if kind == MatchOffered {
		v.Offer.Players = r.byte1("players")
		v.Offer.TickRate = r.u16("tick rate")
		v.Offer.Seed = r.u64("seed")
		if s := r.bytes(len(v.Offer.Game), "game"); s != nil {
			v.Offer.Game = [16]byte(s)
		}
		params = r.bytes(r.count(MaxMatchParams, "params length"), "params")
	} else if s := r.bytes(MatchDigestSize, "digest"); s != nil {
		v.Digest = [MatchDigestSize]byte(s)
	}
	r.end()
	if r.err != nil {
		return Header{}, r.err
	}
	v.Offer.Params = append(m.Offer.Params[:0], params...)
	*m = v
	return hd, nil
}
