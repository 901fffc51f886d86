package replay

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"strconv"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/state"
)

// Open checks and decodes the replay in data, which it retains (do not
// modify it); read a file whole (os.ReadFile) to open it. game is the
// game version hash of the running build; S and I are the game's state
// and input types. It returns an error matching
//
//   - ErrTruncated when data ends before the replay (every proper prefix
//     of a valid replay gets this error);
//   - ErrCorrupt for bytes that are not a replay or are damaged (CRC
//     failure, inconsistent sections, an invalid snapshot or input,
//     trailing bytes);
//   - ErrMismatch for another format version, or when the replay was
//     recorded by another game build ("Game"), or with another state type
//     ("StateLayout" or "StateSize") or input type ("InputSize" or
//     "InputLayout");
//
// or the *state.ValidationError when S or I is not arena-serializable.
//
// Open never panics, whatever data holds, and its memory is bounded by the
// bytes: it counts the input records before it allocates them, once, and
// never more records than the header's frame count, so the decoded inputs
// take at most about 32 times the input section's length (a run of
// identical frames is stored once). It also decodes every keyframe, so a
// Player never meets a damaged one. Compare the rest of the match
// configuration, if it matters, with the Header's Players and TickRate.
func Open[S any, I comparable](data []byte, game [16]byte) (*Replay[S, I], error) {
	h, err := parseHeader(data)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) < h.Size {
		return nil, truncated(h.Size, int64(len(data)))
	}
	if int64(len(data)) > h.Size {
		return nil, corrupt(h.Size, strconv.Itoa(len(data)-int(h.Size))+" bytes after the replay", nil)
	}
	if got := crc32.Checksum(data[headerSize:], castagnoli); got != h.bodyCRC {
		return nil, corrupt(headerSize, "body crc mismatch", nil)
	}
	if err := checkTypes[S, I](&h, game); err != nil {
		return nil, err
	}
	rp := &Replay[S, I]{b: body[I]{hdr: h, initial: data[headerSize:h.inputsOff]}}
	if err := rp.b.parseInputs(data[h.inputsOff:h.sumsOff], h.inputsOff); err != nil {
		return nil, err
	}
	for i := h.sumsOff; i < h.indexOff; i += 8 {
		rp.b.sums = append(rp.b.sums, binary.LittleEndian.Uint64(data[i:]))
	}
	if err := rp.parseKeys(data); err != nil {
		return nil, err
	}
	return rp, nil
}

// checkTypes compares what the header says about the game and its types
// with game, S and I.
func checkTypes[S any, I comparable](h *Header, game [16]byte) error {
	if h.Game != game {
		return mismatch("Game", hex.EncodeToString(h.Game[:]), hex.EncodeToString(game[:]))
	}
	sl, err := arena.LayoutOf[S]()
	if err != nil {
		return err
	}
	il, err := arena.LayoutOf[I]()
	if err != nil {
		return err
	}
	x := func(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }
	d := strconv.Itoa
	switch {
	case h.StateLayout != sl.Fingerprint():
		return mismatch("StateLayout", x(h.StateLayout), x(sl.Fingerprint()))
	case h.StateSize != sl.Size():
		return mismatch("StateSize", d(h.StateSize), d(sl.Size()))
	case h.InputSize != il.Size():
		return mismatch("InputSize", d(h.InputSize), d(il.Size()))
	case h.InputLayout != il.Fingerprint():
		return mismatch("InputLayout", x(h.InputLayout), x(il.Fingerprint()))
	}
	return nil
}

// parseInputs decodes the input section sec, found at offset base, into
// b.rows and b.ends. It accepts only the canonical encoding that encode
// writes, so that a replay re-encodes to the same bytes.
func (b *body[I]) parseInputs(sec []byte, base int64) error {
	players := b.hdr.Players
	size := b.hdr.InputSize
	records := countRecords(sec, players, size, b.hdr.Frames)
	b.rows = make([]core.Input[I], 0, records*players)
	b.ends = make([]core.Frame, 0, records)
	var frame core.Frame
	pos := 0
	bad := func(reason string, err error) error {
		return corrupt(base+int64(pos), reason, err)
	}
	for pos < len(sec) {
		run, n := binary.Uvarint(sec[pos:])
		if n <= 0 || n != uvarintLen(run) {
			return bad("bad run length", nil)
		}
		if run == 0 || run > uint64(b.hdr.Frames-frame) {
			return bad("run length out of range", nil)
		}
		pos += n
		if len(sec)-pos < 2 {
			return bad("record ends early", nil)
		}
		mask := binary.LittleEndian.Uint16(sec[pos:])
		first := len(b.ends) == 0
		switch {
		case mask>>players != 0:
			return bad("change mask names a player beyond the count", nil)
		case first && mask != 1<<players-1:
			return bad("first record does not give every player", nil)
		case mask == 0:
			return bad("record repeats the previous one", nil)
		}
		pos += 2
		k := len(b.rows)
		if first {
			b.rows = append(b.rows, make([]core.Input[I], players)...)
		} else {
			b.rows = append(b.rows, b.rows[k-players:k]...)
		}
		for p := range players {
			if mask&(1<<p) == 0 {
				continue
			}
			if pos >= len(sec) {
				return bad("record ends early", nil)
			}
			in := core.Input[I]{Status: core.InputStatus(sec[pos])}
			switch sec[pos] {
			case diskDisconnected:
				pos++
			case diskConfirmed, diskFilled:
				pos++
				if len(sec)-pos < size {
					return bad("record ends early", nil)
				}
				if err := arena.DecodeRaw(sec[pos:pos+size], &in.Value); err != nil {
					return bad("invalid input", err)
				}
				pos += size
			default:
				return bad("bad input status", nil)
			}
			if !first && in == b.rows[k-players+p] {
				return bad("change mask names an unchanged input", nil)
			}
			b.rows[k+p] = in
		}
		frame += core.Frame(run)
		b.ends = append(b.ends, frame)
	}
	if frame != b.hdr.Frames {
		return bad("inputs cover "+strconv.Itoa(int(frame))+" frames, header says "+strconv.Itoa(int(b.hdr.Frames)), nil)
	}
	return nil
}

// countRecords returns how many input records section sec holds, for
// players inputs of size bytes, before it ends, breaks the format or
// covers more than frames frames, so that parseInputs allocates its rows once, in
// proportion to the records the bytes really hold and never beyond the
// header's frame count.
func countRecords(sec []byte, players, size int, frames core.Frame) int {
	n, pos := 0, 0
	for covered := uint64(0); pos < len(sec); n++ {
		run, k := binary.Uvarint(sec[pos:])
		if k <= 0 || run == 0 || run > uint64(frames)-covered {
			break
		}
		covered += run
		pos += k
		if len(sec)-pos < 2 {
			break
		}
		mask := binary.LittleEndian.Uint16(sec[pos:])
		if mask == 0 || mask>>players != 0 {
			break
		}
		pos += 2
		for ; mask != 0; mask &= mask - 1 {
			if pos < len(sec) && (sec[pos] == diskConfirmed || sec[pos] == diskFilled) {
				pos += size
			}
			pos++
		}
		if pos > len(sec) {
			break
		}
	}
	return n
}

// uvarintLen returns the length of the minimal uvarint encoding of v.
func uvarintLen(v uint64) int {
	var buf [binary.MaxVarintLen64]byte
	return binary.PutUvarint(buf[:], v)
}

// parseKeys reads the keyframe index and decodes the initial state and
// every keyframe once, to reject damaged ones now.
func (rp *Replay[S, I]) parseKeys(data []byte) error {
	h := &rp.b.hdr
	rp.enc = make([]byte, arena.HeaderSize+h.StateSize)
	if err := rp.loadInto(&rp.init, nil, rp.b.initial, headerSize); err != nil {
		return err
	}
	rp.base = bytes.Clone(rp.enc)
	count := int64(h.Frames) / int64(h.KeyframeInterval)
	first := h.indexOff + 8*count
	offs := make([]int64, 0, count+1)
	for i := range count {
		u := binary.LittleEndian.Uint64(data[h.indexOff+8*i:])
		if u >= uint64(h.Size) || (i == 0 && u != uint64(first)) || (i > 0 && u <= uint64(offs[i-1])) {
			return corrupt(h.indexOff+8*i, "keyframe offsets out of order", nil)
		}
		offs = append(offs, int64(u))
	}
	if count == 0 && first != h.Size {
		return corrupt(first, "bytes after the keyframe index", nil)
	}
	offs = append(offs, h.Size)
	var s S
	for i := range count {
		rec := data[offs[i]:offs[i+1]]
		rp.b.keys = append(rp.b.keys, rec)
		if err := rp.loadInto(&s, rp.base, rec, offs[i]); err != nil {
			return err
		}
	}
	return nil
}

// loadInto decodes stored snapshot rec (at file offset off) against base
// into *s, through rp.enc.
func (rp *Replay[S, I]) loadInto(s *S, base, rec []byte, off int64) error {
	if err := rp.x.load(rp.enc, rec, base, off); err != nil {
		return err
	}
	if err := state.Decode(rp.enc, s); err != nil {
		return corrupt(off, "invalid snapshot", err)
	}
	return nil
}
