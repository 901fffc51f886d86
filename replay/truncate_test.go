package replay_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rollstep/rollstep/replay"
)

// TestTruncatedPrefixes checks that every proper prefix of a valid replay
// gets ErrTruncated from Open and (for prefixes shorter than the header)
// ReadHeader, with the bytes needed and present.
func TestTruncatedPrefixes(t *testing.T) {
	data, _ := recordTally(t, 3, 90, 4, 20)
	for n := range len(data) {
		prefix := data[:n]
		_, err := replay.Open[tally, move](prefix, tallyHash)
		need := len(data)
		if n < replay.HeaderSize {
			need = replay.HeaderSize
		}
		want := fmt.Sprintf("replay: truncated: need %d bytes, have %d", need, n)
		if !errors.Is(err, replay.ErrTruncated) || errors.Is(err, replay.ErrCorrupt) || err.Error() != want {
			t.Fatalf("Open(data[:%d]) = %v, want %q", n, err, want)
		}
		if n < replay.HeaderSize {
			if _, err := replay.ReadHeader(bytes.NewReader(prefix)); !errors.Is(err, replay.ErrTruncated) {
				t.Fatalf("ReadHeader(data[:%d]) = %v, want ErrTruncated", n, err)
			}
		}
	}
	if _, err := replay.Open[tally, move](data, tallyHash); err != nil {
		t.Fatalf("Open(data) = %v", err)
	}
}

// TestCorruptBytes flips every byte of a replay in turn: each damaged
// copy gets ErrCorrupt (the CRCs catch every single-byte change).
func TestCorruptBytes(t *testing.T) {
	data, _ := recordTally(t, 2, 40, 3, 10)
	bad := bytes.Clone(data)
	for i := range bad {
		bad[i] ^= 0x5a
		_, err := replay.Open[tally, move](bad, tallyHash)
		if !errors.Is(err, replay.ErrCorrupt) || errors.Is(err, replay.ErrTruncated) || errors.Is(err, replay.ErrMismatch) ||
			!strings.HasPrefix(err.Error(), "replay: corrupt at offset ") {
			t.Fatalf("byte %d flipped: Open = %v, want ErrCorrupt", i, err)
		}
		bad[i] = data[i]
	}
	if _, err := replay.Open[tally, move](append(bytes.Clone(data), 0), tallyHash); !errors.Is(err, replay.ErrCorrupt) {
		t.Errorf("trailing byte: Open = %v, want ErrCorrupt", err)
	}
	if _, err := replay.Open[tally, move]([]byte("not a replay at all"), tallyHash); !errors.Is(err, replay.ErrCorrupt) {
		t.Errorf("other bytes: Open = %v, want ErrCorrupt", err)
	}
}
