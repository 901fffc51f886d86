package webrtc

import (
	"errors"
	"reflect"

	pion "github.com/pion/webrtc/v4"
	"testing"

	"github.com/rollstep/rollstep/transport"
)

// FuzzParseSetup feeds the set-up decoder arbitrary bytes: it never
// panics, refuses with errBadSetup, accepts exactly one well-formed part,
// and what it accepts encodes to a message that decodes to the same.
func FuzzParseSetup(f *testing.F) {
	for _, s := range []string{
		`{"offer":{"type":"offer","sdp":"v=0\r\n"}}`,
		`{"answer":{"type":"answer","sdp":"v=0\r\n"}}`,
		`{"cand":{"candidate":"candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host","sdpMid":"0","sdpMLineIndex":0}}`,
		`{"offer":{"type":"answer","sdp":"x"}}`, `{"cand":{}}`, `{}`, `[]`, `null`, ``, `{"offer":null}`,
		`{"offer":{"type":"offer","sdp":"x"},"answer":{"type":"answer","sdp":"y"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		s, err := parseSetup(p)
		if err != nil {
			if !errors.Is(err, errBadSetup) {
				t.Fatalf("error %v is not errBadSetup", err)
			}
			return
		}
		n := 0
		if s.Offer != nil {
			n++
		}
		if s.Answer != nil {
			n++
		}
		if s.Cand != nil {
			n++
		}
		if n != 1 {
			t.Fatalf("accepted %d parts", n)
		}
		again, err := parseSetup(encodeSetup(s))
		if err != nil {
			t.Fatalf("re-encoded %q: %v", encodeSetup(s), err)
		}
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("round trip: got %+v, want %+v", again, s)
		}
	})
}

// FuzzHostileSignals applies arbitrary set-up messages to a connecting
// Conn, as a peer or a stranger could send them: nothing panics, and the
// Conn keeps its peer in a valid state.
func FuzzHostileSignals(f *testing.F) {
	f.Add([]byte(`{"answer":{"type":"answer","sdp":"v=0"}}`), uint8(1))
	f.Add([]byte(`{"offer":{"type":"offer","sdp":"v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\n"}}`), uint8(1))
	f.Add([]byte(`{"cand":{"candidate":"candidate:1 1 udp 1 10.0.0.1 9 typ host"}}`), uint8(1))
	f.Add([]byte(`garbage`), uint8(9))
	f.Add(realOffer(f), uint8(1))
	h := newHub()
	c, err := New(Config{Self: 2, Peers: []transport.Addr{1}, Signaler: h.endpoint(2), loopback: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = c.Close() })
	awaitOpened(f, c, 1) // apply runs on the set-up goroutine, after open

	f.Fuzz(func(t *testing.T, p []byte, from uint8) {
		c.apply(transport.Addr(from), p)
		if s, _ := c.PeerState(1); s < Connecting || s > Closed {
			t.Fatalf("state %v", s)
		}
	})
}

// realOffer returns the set-up message of an offer that pion makes for a
// Conn's channel, with its candidates, as a seed to mutate.
func realOffer(f *testing.F) []byte {
	pc, err := newAPI(&Config{loopback: true}, func(error) {}).NewPeerConnection(pion.Configuration{})
	if err != nil {
		f.Fatal(err)
	}
	defer pc.Close()
	ordered, retransmits, negotiated, id := false, uint16(0), true, uint16(channelID)
	if _, err := pc.CreateDataChannel("rollstep", &pion.DataChannelInit{Ordered: &ordered, MaxRetransmits: &retransmits,
		Negotiated: &negotiated, ID: &id}); err != nil {
		f.Fatal(err)
	}
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		f.Fatal(err)
	}
	gathered := pion.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(offer); err != nil {
		f.Fatal(err)
	}
	<-gathered
	return encodeSetup(setup{Offer: pc.LocalDescription()})
}
