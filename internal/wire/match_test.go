package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randMatch returns a random Match of a random kind; an offer's Params
// are empty, short or up to MaxMatchParams bytes.
func randMatch(r *rand.Rand) Match {
	m := Match{Kind: MatchKind(1 + r.IntN(3))}
	if m.Kind != MatchOffered {
		for i := range m.Digest {
			m.Digest[i] = byte(r.Uint32())
		}
		return m
	}
	o := &m.Offer
	o.Players, o.TickRate, o.Seed = uint8(r.Uint32()), uint16(r.Uint32()), r.Uint64()>>r.IntN(64)
	for i := range o.Game {
		o.Game[i] = byte(r.Uint32())
	}
	switch r.IntN(4) {
	case 0: // no params
	case 3:
		o.Params = make([]byte, r.IntN(MaxMatchParams+1))
	default:
		o.Params = make([]byte, 1+r.IntN(200))
	}
	for i := range o.Params {
		o.Params[i] = byte(r.Uint32())
	}
	return m
}

// diffMatch returns "" if got and want are equal, treating nil and empty
// Params alike, else a description.
func diffMatch(got, want *Match) string {
	g, w := &got.Offer, &want.Offer
	if got.Kind == want.Kind && got.Digest == want.Digest && g.Players == w.Players && g.TickRate == w.TickRate &&
		g.Seed == w.Seed && g.Game == w.Game && bytes.Equal(g.Params, w.Params) {
		return ""
	}
	return fmt.Sprintf("got  %+v\nwant %+v", *got, *want)
}

// Match is not comparable (Params), so it has its own round trip.
var matchCase = controlCase{"match", TypeMatch,
	func(r *rand.Rand, seq uint64) ([]byte, bool, error) {
		v := randMatch(r)
		p, err := AppendMatch(nil, testKey, seq, &v)
		if err != nil {
			return nil, false, err
		}
		var got Match
		h, err := DecodeMatch(p, testKey, nil, &got)
		if err != nil {
			return p, false, err
		}
		return p, diffMatch(&got, &v) == "" && h.Seq == seq && h.Type == TypeMatch, nil
	},
	dc(DecodeMatch),
}

// fuzzMatch decodes p as given and re-tagged; what decodes must re-encode
// to p byte for byte, decode to the same value, and not alias p.
func fuzzMatch(t *testing.T, p []byte) {
	for _, p := range [][]byte{p, resign(p, testWindow())} {
		var m Match
		in := bytes.Clone(p)
		h, err := DecodeMatch(in, testKey, testWindow(), &m)
		if err != nil {
			continue
		}
		clear(in) // the decoded Params must not alias the datagram
		q, err := AppendMatch(nil, testKey, h.Seq, &m)
		if err != nil {
			t.Fatalf("re-encoding %+v: %v", m, err)
		}
		if !bytes.Equal(p, q) {
			t.Fatalf("not canonical:\n in  %x\n out %x", p, q)
		}
		var w Match
		if _, err := DecodeMatch(q, testKey, nil, &w); err != nil {
			t.Fatal(err)
		}
		if d := diffMatch(&w, &m); d != "" {
			t.Fatal(d)
		}
	}
}

func FuzzDecodeMatch(f *testing.F) {
	for _, p := range seeds(f, "match") {
		f.Add(p)
	}
	f.Fuzz(fuzzMatch)
}

// TestMatchSizes pins the sizes doc.go states, and checks that an
// unvalidated offer is never answered with more bytes than it has: one
// reply is smaller than the smallest offer, and no packet exceeds
// MaxDatagram.
func TestMatchSizes(t *testing.T) {
	size := func(m *Match, seq uint64) int {
		t.Helper()
		p, err := AppendMatch(nil, NewKey(math.MaxUint64), seq, m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeMatch(p, NewKey(math.MaxUint64), nil, &Match{}); err != nil {
			t.Fatal(err)
		}
		return len(p)
	}
	offer := func(params int) *Match {
		return &Match{Kind: MatchOffered, Offer: MatchOffer{Players: 255, TickRate: 0xffff, Seed: math.MaxUint64, Params: make([]byte, params)}}
	}
	for _, seq := range []uint64{0, 1 << 40, math.MaxUint64} {
		for _, k := range []MatchKind{MatchAccepted, MatchRefused} {
			if n := size(&Match{Kind: k, Digest: [16]byte{0: 0xff}}, seq); n != MatchReplySize {
				t.Errorf("%v: %d bytes, want MatchReplySize %d", k, n, MatchReplySize)
			}
		}
		for _, tc := range []struct{ params, want int }{{0, 42}, {20, 62}, {127, 169}, {128, 171}, {MaxMatchParams, 1067}} {
			if n := size(offer(tc.params), seq); n != tc.want {
				t.Errorf("offer with %d bytes of params: %d bytes, want %d (update doc.go)", tc.params, n, tc.want)
			}
		}
	}
	if smallest := size(offer(0), 0); MatchReplySize >= smallest {
		t.Errorf("a reply (%d bytes) is not smaller than the smallest offer (%d)", MatchReplySize, smallest)
	}
	if largest := size(offer(MaxMatchParams), math.MaxUint64); largest > MaxDatagram {
		t.Errorf("the largest offer is %d bytes, more than MaxDatagram %d", largest, MaxDatagram)
	}
}

func TestMatchEncodeRejectsInvalid(t *testing.T) {
	for name, m := range map[string]*Match{
		"Kind 0":       {},
		"Kind 4":       {Kind: numMatchKinds},
		"Offer.Params": {Kind: MatchOffered, Offer: MatchOffer{Params: make([]byte, MaxMatchParams+1)}},
	} {
		out, err := AppendMatch([]byte{7}, testKey, 1, m)
		var ee *EncodeError
		if !errors.Is(err, ErrInvalidMessage) || !errors.As(err, &ee) || len(out) != 1 {
			t.Errorf("%s: got %v (%d bytes), want an *EncodeError and dst unchanged", name, err, len(out))
		}
	}
	// Params beyond the bound do not matter when they are not sent.
	if _, err := AppendMatch(nil, testKey, 1, &Match{Kind: MatchAccepted, Offer: MatchOffer{Params: make([]byte, MaxMatchParams+1)}}); err != nil {
		t.Errorf("accept with long unsent params: %v", err)
	}
}

// TestMatchDecodeErrors checks the documented error for each kind of
// damage; damaged bodies are re-tagged so that they reach the body
// decoder.
func TestMatchDecodeErrors(t *testing.T) {
	const seq = 77
	offer, _ := AppendMatch(nil, testKey, seq, &Match{Kind: MatchOffered, Offer: MatchOffer{Players: 2, TickRate: 60, Params: []byte("map")}})
	ack, _ := AppendMatch(nil, testKey, seq, &Match{Kind: MatchAccepted, Digest: [16]byte{1, 2}})
	// body builds a packet of type t with flags fl, the given body and a tag.
	body := func(t Type, fl byte, b ...byte) []byte { return seal(append(appendHeader(nil, t, fl, seq), b...), seq) }
	fixed := make([]byte, 1+2+8+16) // Players, TickRate, Seed, Game
	params := func(n []byte, b ...byte) []byte {
		return body(TypeMatch, 0, append(append(append([]byte{byte(MatchOffered)}, fixed...), n...), b...)...)
	}
	digest := make([]byte, MatchDigestSize)
	tests := []struct {
		name string
		p    []byte
		want error
	}{
		{"kind 0", body(TypeMatch, 0, append([]byte{0}, digest...)...), ErrMalformed},
		{"kind 4", body(TypeMatch, 0, append([]byte{4}, digest...)...), ErrMalformed},
		{"no kind", body(TypeMatch, 0), ErrTruncated},
		{"flag set", body(TypeMatch, 1, append([]byte{byte(MatchAccepted)}, digest...)...), ErrMalformed},
		{"ack with a trailing byte", resign(append(append([]byte(nil), ack...), 0), nil), ErrMalformed},
		{"ack with offer fields", resign(append(ack[:len(ack)-TagSize:len(ack)-TagSize], append(fixed, 0, 0, 0, 0, 0)...), nil), ErrMalformed},
		{"offer with a trailing byte", resign(append(append([]byte(nil), offer...), 0), nil), ErrMalformed},
		{"params length over the bound", params(binary.AppendUvarint(nil, MaxMatchParams+1), make([]byte, MaxMatchParams+1)...), ErrTooLarge},
		{"params length not minimal", params([]byte{0x83, 0x00}, 'm', 'a', 'p'), ErrMalformed},
		{"params shorter than their length", params([]byte{4}, 'm', 'a', 'p'), ErrTruncated},
		{"wrong type", body(TypeLeave, 0, 1, 0), ErrWrongType},
		{"wrong key", offer, ErrWrongToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := testKey
			if tt.name == "wrong key" {
				key = NewKey(testToken + 1)
			}
			var m Match
			_, err := DecodeMatch(tt.p, key, nil, &m)
			var de *DecodeError
			if !errors.Is(err, tt.want) || !errors.As(err, &de) || de.Error() == "" {
				t.Fatalf("got %v, want a *DecodeError matching %v", err, tt.want)
			}
		})
	}
	if _, err := DecodeMatch(params([]byte{3}, 'm', 'a', 'p'), testKey, nil, &Match{}); err != nil {
		t.Fatalf("hand-built offer: %v", err)
	}
}

// TestMatchOwnership: DecodeMatch copies Params into the array of the
// Match's Params, which it reuses, never into or from the datagram, and
// leaves *m alone on error.
func TestMatchOwnership(t *testing.T) {
	big, _ := AppendMatch(nil, testKey, 1, &Match{Kind: MatchOffered, Offer: MatchOffer{Params: []byte("0123456789")}})
	small, _ := AppendMatch(nil, testKey, 2, &Match{Kind: MatchOffered, Offer: MatchOffer{Params: []byte("ab")}})
	ack, _ := AppendMatch(nil, testKey, 3, &Match{Kind: MatchAccepted, Digest: [16]byte{9}})
	var m Match
	p := bytes.Clone(big)
	if _, err := DecodeMatch(p, testKey, nil, &m); err != nil {
		t.Fatal(err)
	}
	clear(p)
	if string(m.Offer.Params) != "0123456789" {
		t.Fatalf("params %q changed with the datagram", m.Offer.Params)
	}
	array := &m.Offer.Params[:1][0]
	if _, err := DecodeMatch(small, testKey, nil, &m); err != nil || string(m.Offer.Params) != "ab" || &m.Offer.Params[:1][0] != array {
		t.Fatalf("second decode: %q, %v; want \"ab\" in the same array", m.Offer.Params, err)
	}
	before := m
	saved := bytes.Clone(m.Offer.Params[:cap(m.Offer.Params)])
	bad := resign(append(bytes.Clone(big), 0), nil) // a trailing byte
	if _, err := DecodeMatch(bad, testKey, nil, &m); err == nil {
		t.Fatal("decoded a packet with a trailing byte")
	}
	if diffMatch(&m, &before) != "" || !bytes.Equal(m.Offer.Params[:cap(m.Offer.Params)], saved) {
		t.Fatal("a failed decode changed the Match or its Params array")
	}
	if _, err := DecodeMatch(ack, testKey, nil, &m); err != nil || m.Kind != MatchAccepted || len(m.Offer.Params) != 0 || m.Offer.Players != 0 || m.Digest != [16]byte{9} {
		t.Fatalf("ack: %+v, %v", m, err)
	}
}
