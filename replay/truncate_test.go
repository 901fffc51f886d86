package replay_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/rollstep/rollstep/replay"
)

// TestTruncatedPrefixes checks that every proper prefix of a valid replay
// gets a *TruncatedError from Open, Read and (for prefixes shorter than
// the header) ReadHeader.
func TestTruncatedPrefixes(t *testing.T) {
	data, _ := recordTally(t, 3, 90, 4, 20)
	for n := range len(data) {
		prefix := data[:n]
		_, err := replay.Open[tally, move](prefix, tallyHash)
		var te *replay.TruncatedError
		ok := errors.As(err, &te)
		if !ok || !errors.Is(err, replay.ErrTruncated) || te.Have != int64(n) {
			t.Fatalf("Open(data[:%d]) = %v, want a *TruncatedError", n, err)
		}
		if _, err := replay.Read[tally, move](bytes.NewReader(prefix), tallyHash); !errors.Is(err, replay.ErrTruncated) {
			t.Fatalf("Read(data[:%d]) = %v, want ErrTruncated", n, err)
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
// copy gets a *CorruptError (the CRCs catch every single-byte change).
func TestCorruptBytes(t *testing.T) {
	data, _ := recordTally(t, 2, 40, 3, 10)
	bad := bytes.Clone(data)
	for i := range bad {
		bad[i] ^= 0x5a
		_, err := replay.Open[tally, move](bad, tallyHash)
		var ce *replay.CorruptError
		if !errors.As(err, &ce) || !errors.Is(err, replay.ErrCorrupt) {
			t.Fatalf("byte %d flipped: Open = %v, want a *CorruptError", i, err)
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
