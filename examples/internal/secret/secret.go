// Package secret is how the example games get the session token that
// authenticates their packets over a real network.
//
// The token is the match's secret: every packet carries a tag keyed by it,
// and anyone who knows it can forge packets that the peers accept (inputs
// under another player's name, a Hello that cuts the link). So it is drawn
// from crypto/rand by one player and handed to the others out of band (the
// examples print it, as a matchmaker would send it), or derived from a
// pre-shared DTLS key, itself a secret. It is never derived from a public
// value such as the match seed.
package secret

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrNoToken is returned by Parse for an empty string.
var ErrNoToken = errors.New("no session token")

// NewToken draws a session token from crypto/rand. It is never zero.
func NewToken() uint64 {
	var b [8]byte
	for {
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
		if t := binary.LittleEndian.Uint64(b[:]); t != 0 {
			return t
		}
	}
}

// Format spells token as Parse reads it: 16 hex digits.
func Format(token uint64) string { return fmt.Sprintf("%016x", token) }

// Parse reads a token as Format spells it (a leading 0x is allowed). It
// returns ErrNoToken for an empty string, and an error for anything that
// is not 1 to 16 hex digits or is zero.
func Parse(s string) (uint64, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "0x")
	if s == "" {
		return 0, ErrNoToken
	}
	t, err := strconv.ParseUint(s, 16, 64)
	if err != nil || t == 0 {
		return 0, fmt.Errorf("session token %q: want 1 to 16 hex digits, not all zero", s)
	}
	return t, nil
}

// FromPSK derives the session token from a pre-shared DTLS key: peers that
// share the key share the token, and it is as secret as the key.
func FromPSK(psk []byte) uint64 {
	h := sha256.New()
	h.Write([]byte("rollstep example session token\x00"))
	h.Write(psk)
	t := binary.LittleEndian.Uint64(h.Sum(nil))
	return max(t, 1)
}

// ForMatch returns the token of a match from the -token flag's value
// given: that token when given, else for the host, who starts the match,
// a new one that it prints to w for the others (named by others, such as
// "player 1"), else an error saying the joiner needs the host's. A given
// value that Parse refuses is an error naming the flag.
func ForMatch(given string, host bool, others string, w io.Writer) (uint64, error) {
	t, err := Parse(given)
	switch {
	case err == nil:
		return t, nil
	case !errors.Is(err, ErrNoToken):
		return 0, fmt.Errorf("-token: %w", err)
	case host:
		t = NewToken()
		fmt.Fprintf(w, "token: %s (start %s with -token %s)\n", Format(t), others, Format(t))
		return t, nil
	}
	return 0, errors.New("-token: required to join a match: give the token the match's host printed")
}
