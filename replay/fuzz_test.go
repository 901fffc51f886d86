package replay_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"

	"github.com/rollstep/rollstep/replay"
)

// fixCRCs returns a copy of b whose body and header CRCs are correct for
// its bytes, so the fuzzer reaches the section decoders behind them.
func fixCRCs(b []byte) []byte {
	b = bytes.Clone(b)
	if len(b) < replay.HeaderSize {
		return b
	}
	tab := crc32.MakeTable(crc32.Castagnoli)
	binary.LittleEndian.PutUint32(b[128:], crc32.Checksum(b[replay.HeaderSize:], tab))
	binary.LittleEndian.PutUint32(b[140:], crc32.Checksum(b[:140], tab))
	return b
}

// FuzzOpen checks that Open and ReadHeader never panic, that every error
// Open returns matches exactly one of its sentinels, and that whatever it
// accepts re-encodes to the same bytes and can be verified and played.
func FuzzOpen(f *testing.F) {
	for _, c := range []struct{ players, frames, n, k int }{{2, 30, 1, 10}, {3, 12, 5, 4}, {1, 0, 1, 1}} {
		data, _ := recordTally(f, c.players, c.frames, c.n, c.k)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := replay.Open[tally, move](data, tallyHash); err == nil {
			check(t, data)
		}
		_, _ = replay.ReadHeader(bytes.NewReader(data))
		fixed := fixCRCs(data)
		if _, err := replay.Open[tally, move](fixed, tallyHash); err != nil {
			n := 0
			for _, target := range []error{replay.ErrTruncated, replay.ErrCorrupt, replay.ErrMismatch} {
				if errors.Is(err, target) {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("Open returned an error matching %d sentinels: %v", n, err)
			}
			return
		}
		check(t, fixed)
	})
}

// check asserts what holds for every replay Open accepts.
func check(t *testing.T, data []byte) {
	rp, err := replay.Open[tally, move](data, tallyHash)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(replay.Encode(rp), data) {
		t.Fatalf("accepted bytes do not re-encode to themselves")
	}
	h := rp.Header()
	if h.Size != int64(len(data)) {
		t.Fatalf("header size %d, have %d bytes", h.Size, len(data))
	}
	_ = replay.Verify(rp, tallyGame{})
	pl := replay.NewPlayer(rp, tallyGame{})
	if err := pl.Seek(h.Frames / 2); err != nil {
		t.Fatal(err)
	}
	for pl.Step() {
	}
	if _, err := rp.Inputs(h.Frames-1, nil); h.Frames > 0 && err != nil {
		t.Fatal(err)
	}
}
