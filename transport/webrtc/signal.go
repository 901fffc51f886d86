package webrtc

import (
	"encoding/json"
	"errors"

	pion "github.com/pion/webrtc/v4"
)

// The set-up messages a Conn sends through its Signaler: one JSON object,
// {"offer": SDP}, {"answer": SDP} or {"cand": candidate}.
type setup struct {
	Offer  *pion.SessionDescription `json:"offer,omitempty"`
	Answer *pion.SessionDescription `json:"answer,omitempty"`
	Cand   *pion.ICECandidateInit   `json:"cand,omitempty"`
}

// maxSetup bounds a set-up message: an SDP with its candidates is a few
// kilobytes.
const maxSetup = 64 << 10

var errBadSetup = errors.New("webrtc: bad set-up message")

// parseSetup decodes a set-up message: exactly one of its parts, an offer
// or answer of that SDP type, a candidate with a candidate string.
func parseSetup(p []byte) (setup, error) {
	var s setup
	if len(p) > maxSetup {
		return s, errBadSetup
	}
	if err := json.Unmarshal(p, &s); err != nil {
		return s, errBadSetup
	}
	n := 0
	for _, set := range []bool{s.Offer != nil, s.Answer != nil, s.Cand != nil} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return s, errBadSetup
	case s.Offer != nil && (s.Offer.Type != pion.SDPTypeOffer || s.Offer.SDP == ""):
		return s, errBadSetup
	case s.Answer != nil && (s.Answer.Type != pion.SDPTypeAnswer || s.Answer.SDP == ""):
		return s, errBadSetup
	case s.Cand != nil && s.Cand.Candidate == "":
		return s, errBadSetup
	}
	return s, nil
}

// encodeSetup encodes s; its parts are JSON-safe.
func encodeSetup(s setup) []byte {
	p, err := json.Marshal(s)
	if err != nil {
		panic("webrtc: encoding a set-up message: " + err.Error())
	}
	return p
}
