package replay

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
)

// formatVersion is the replay format version this package writes and
// reads: 1.
const formatVersion = 1

// headerSize is the size of the fixed header at the start of every
// replay: 144 bytes.
const headerSize = 144

// maxFrames is the largest number of frames one replay holds: 1<<25
// (about 155 hours at 60 frames per second).
const maxFrames = 1 << 25

// maxSize bounds the total length, 1 GiB, a header may announce (and a
// state may take half of it); NewRecorder refuses states over a quarter
// of it, so that every replay it writes fits.
const maxSize = 1 << 30

// magic starts every replay.
var magic = [8]byte{'R', 'S', 'R', 'E', 'P', 'L', 'A', 'Y'}

// castagnoli is the CRC-32C table of the header and body checks.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header describes a replay: what recorded it and how it is laid out. It
// is the first 144 bytes of the file, readable without knowing the game's
// types (see ReadHeader).
type Header struct {
	// Version is the format version of the file (1).
	Version uint32
	// Game is the game version hash of the build that recorded the
	// replay, for example core.GameVersion of its version string; print
	// it with %x.
	Game [16]byte
	// Players is the number of players (1 to core.MaxPlayers) and TickRate
	// the simulation rate in frames per second.
	Players, TickRate int
	// InputLayout is the layout fingerprint of the input type and
	// InputSize its size in bytes.
	InputLayout uint64
	InputSize   int
	// Seed is the match seed the game's initial state was made from; it
	// is informative, since the initial state itself is stored.
	Seed uint64
	// StateLayout is the layout fingerprint of the state type and
	// StateSize its size in bytes.
	StateLayout uint64
	StateSize   int
	// Frames is the number of frames recorded.
	Frames core.Frame
	// ChecksumInterval is N: a checksum is stored for every frame that is
	// a multiple of N.
	ChecksumInterval int
	// KeyframeInterval is K: a keyframe is stored for every frame that is
	// a multiple of K.
	KeyframeInterval int
	// Size is the total length of the replay in bytes.
	Size int64
	// Duration is the length of the recorded match in game time: Frames
	// at TickRate frames per second (0 for a TickRate of 0).
	Duration time.Duration

	// digest is the stored match config digest (see doc.go); Players,
	// TickRate, InputSize and InputLayout are its fields, and its
	// checksum interval and game hash are kept only to re-encode the
	// header as it was read.
	digest                       wire.ConfigDigest
	inputsOff, sumsOff, indexOff int64 // section offsets, see doc.go
	bodyCRC                      uint32
}

// appendHeader appends the 144-byte encoding of h, with both CRCs.
func appendHeader(b []byte, h *Header) []byte {
	le := binary.LittleEndian
	start := len(b)
	b = append(b, magic[:]...)
	b = le.AppendUint32(b, formatVersion)
	b = le.AppendUint32(b, 0) // flags, reserved
	b = append(b, h.Game[:]...)
	d := &h.digest
	b = append(b, d.Players, 0) // ExtraSteps: a replay frame is one Step
	b = le.AppendUint16(b, d.InputSize)
	b = le.AppendUint16(b, d.TickRate)
	b = le.AppendUint16(b, d.ChecksumInterval)
	b = le.AppendUint64(b, d.InputLayout)
	b = append(b, d.Game[:]...)
	b = le.AppendUint64(b, h.Seed)
	b = le.AppendUint64(b, h.StateLayout)
	b = le.AppendUint32(b, uint32(h.StateSize))
	b = le.AppendUint32(b, uint32(h.Frames))
	b = le.AppendUint32(b, uint32(h.ChecksumInterval))
	b = le.AppendUint32(b, uint32(h.KeyframeInterval))
	b = le.AppendUint64(b, uint64(h.inputsOff))
	b = le.AppendUint64(b, uint64(h.sumsOff))
	b = le.AppendUint64(b, uint64(h.indexOff))
	b = le.AppendUint64(b, uint64(h.Size))
	b = le.AppendUint32(b, h.bodyCRC)
	b = le.AppendUint32(b, 0) // reserved
	b = le.AppendUint32(b, 0) // reserved
	return le.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// ReadHeader reads and checks the header of a replay from r, reading
// exactly its 144 bytes. It returns an error matching ErrTruncated if r
// ends first, ErrCorrupt for a header that is not valid and ErrMismatch
// for another format version, or r's error. It does not read or check the
// body; Open does.
func ReadHeader(r io.Reader) (Header, error) {
	var buf [headerSize]byte
	n, err := io.ReadFull(r, buf[:])
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return Header{}, err
	}
	return parseHeader(buf[:n])
}

// parseHeader decodes and checks the header at the start of b, which may
// be shorter than the whole replay.
func parseHeader(b []byte) (Header, error) {
	var h Header
	if n := min(len(b), len(magic)); [8]byte(append(b[:n:n], magic[n:]...)) != magic {
		return h, corrupt(0, "not a replay: bad magic", nil)
	}
	if len(b) < headerSize {
		return h, truncated(headerSize, int64(len(b)))
	}
	le := binary.LittleEndian
	if got, want := le.Uint32(b[140:]), crc32.Checksum(b[:140], castagnoli); got != want {
		return h, corrupt(140, "header crc mismatch", nil)
	}
	if h.Version = le.Uint32(b[8:]); h.Version != formatVersion {
		return h, versionMismatch(h.Version)
	}
	copy(h.Game[:], b[16:32])
	d := &h.digest
	d.Players = b[32]
	d.InputSize = le.Uint16(b[34:])
	d.TickRate = le.Uint16(b[36:])
	d.ChecksumInterval = le.Uint16(b[38:])
	d.InputLayout = le.Uint64(b[40:])
	copy(d.Game[:], b[48:64])
	h.Seed = le.Uint64(b[64:])
	h.StateLayout = le.Uint64(b[72:])
	size, frames := le.Uint32(b[80:]), le.Uint32(b[84:])
	sumN, keyK := le.Uint32(b[88:]), le.Uint32(b[92:])
	offs := [4]uint64{le.Uint64(b[96:]), le.Uint64(b[104:]), le.Uint64(b[112:]), le.Uint64(b[120:])}
	h.bodyCRC = le.Uint32(b[128:])
	bad := func(off int64, reason string) (Header, error) {
		return Header{}, corrupt(off, reason, nil)
	}
	switch {
	case le.Uint32(b[12:]) != 0 || b[33] != 0 || le.Uint32(b[132:]) != 0 || le.Uint32(b[136:]) != 0:
		return bad(12, "reserved field is not zero")
	case d.Players < 1 || d.Players > core.MaxPlayers:
		return bad(32, "player count out of range")
	case d.InputSize > wire.MaxInputSize:
		return bad(34, "input size out of range")
	case size == 0 || size > maxSize/2:
		return bad(80, "state size out of range")
	case frames > maxFrames:
		return bad(84, "frame count out of range")
	case sumN < 1 || sumN > maxFrames || keyK < 1 || keyK > maxFrames:
		return bad(88, "checksum or keyframe interval out of range")
	case offs[0] < headerSize || offs[0] > offs[1] || offs[1] > offs[2] || offs[2] > offs[3] || offs[3] > maxSize:
		return bad(96, "section offsets out of order")
	case offs[2]-offs[1] != uint64(frames/sumN)*8:
		return bad(104, "checksum section length does not match the frame count")
	case offs[3]-offs[2] < uint64(frames/keyK)*8:
		return bad(112, "keyframe index does not fit")
	}
	h.StateSize, h.Frames = int(size), core.Frame(frames)
	h.ChecksumInterval, h.KeyframeInterval = int(sumN), int(keyK)
	h.inputsOff, h.sumsOff, h.indexOff, h.Size = int64(offs[0]), int64(offs[1]), int64(offs[2]), int64(offs[3])
	h.setDigest(*d)
	return h, nil
}

// setDigest stores the match config digest d and the fields of h it
// gives: Players, TickRate, InputSize, InputLayout, and Duration of
// h.Frames frames.
func (h *Header) setDigest(d wire.ConfigDigest) {
	h.digest = d
	h.Players, h.TickRate = int(d.Players), int(d.TickRate)
	h.InputSize, h.InputLayout = int(d.InputSize), d.InputLayout
	h.Duration = 0
	if d.TickRate != 0 {
		h.Duration = time.Duration(h.Frames) * time.Second / time.Duration(d.TickRate)
	}
}
