package lobby

import (
	"errors"
	"testing"
)

// FuzzParseClient feeds the server's decoder of client messages arbitrary
// bytes: it never panics, refuses with an error matching errProtocol, and
// what it accepts is within every bound the server relies on.
func FuzzParseClient(f *testing.F) {
	for _, s := range []string{
		`{"type":"join","room":"duel","size":2}`,
		`{"type":"signal","to":1,"data":"aGVsbG8="}`,
		`{"type":"ping"}`,
		`{"type":"join","room":"a","size":16}`,
		`{"type":"signal","to":15}`,
		`{"type":"join","room":"a\u0000","size":2}`,
		`{"type":"join","room":"a","size":1e300}`,
		`{"type":"signal","to":-1,"data":null}`,
		`{"type":"JOIN"}`,
		`[]`, `null`, `"join"`, ``, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		m, err := parseClient(p)
		if err != nil {
			if !errors.Is(err, errProtocol) {
				t.Fatalf("error %v does not match errProtocol", err)
			}
			return
		}
		switch m.Type {
		case typeJoin:
			if checkRoom(m.Room) != nil || m.Size < 2 || m.Size > maxSize {
				t.Fatalf("accepted a join of room %q size %d", m.Room, m.Size)
			}
		case typeSignal:
			if m.To == nil || *m.To < 0 || *m.To >= maxSize || len(m.Data) > MaxSignal {
				t.Fatalf("accepted a signal to %v of %d bytes", m.To, len(m.Data))
			}
		case typePing:
		default:
			t.Fatalf("accepted type %q", m.Type)
		}
	})
}

// FuzzParseToken: a token parses only from exactly 16 hex digits, and
// then formats back to the same digits (in lower case).
func FuzzParseToken(f *testing.F) {
	for _, s := range []string{"0123456789abcdef", "FFFFFFFFFFFFFFFF", "", "xyz", "0123456789abcdef0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseToken(s)
		if err != nil {
			if !errors.Is(err, errProtocol) {
				t.Fatalf("error %v does not match errProtocol", err)
			}
			return
		}
		if back, err := parseToken(formatToken(v)); err != nil || back != v {
			t.Fatalf("%q -> %#x -> %q -> %#x, %v", s, v, formatToken(v), back, err)
		}
	})
}
