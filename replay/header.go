package replay

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"io"
	"time"

	"github.com/rollstep/rollstep/core"
)

// FormatVersion is the replay format version this package writes and reads.
const FormatVersion = 1

// HeaderSize is the size of the fixed header at the start of every replay.
const HeaderSize = 144

// MaxFrames is the largest number of frames one replay holds (about 100
// hours at 60 frames per second).
const MaxFrames = 1 << 25

// maxSize bounds the total length a header may announce, so that a
// damaged header cannot make Read allocate without bound.
const maxSize = 1 << 30

// magic starts every replay.
var magic = [8]byte{'R', 'S', 'R', 'E', 'P', 'L', 'A', 'Y'}

// castagnoli is the CRC-32C table of the header and body checks.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header describes a replay: what recorded it and how it is laid out. It
// is the first HeaderSize bytes of the file, readable without knowing the
// game's types (see ReadHeader).
type Header struct {
	// Version is the format version of the file.
	Version uint32
	// Game is the game version hash of the build that recorded the
	// replay, for example core.GameVersion of its version string.
	Game [16]byte
	// Config is the digest of the match configuration: players, tick
	// rate, input size and layout, checksum interval and game hash.
	Config core.ConfigDigest
	// Seed is the match seed the game's initial state was made from; it
	// is informative, since the initial state itself is stored.
	Seed uint64
	// StateLayout is the state.Layout fingerprint of the state type and
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

	inputsOff, sumsOff, indexOff int64 // section offsets, see doc.go
	bodyCRC                      uint32
}

// Players returns the number of players, Config.Players.
func (h Header) Players() int { return int(h.Config.Players) }

// Duration returns the length of the recorded match in game time: Frames
// at Config.TickRate frames per second.
func (h Header) Duration() time.Duration {
	if h.Config.TickRate == 0 {
		return 0
	}
	return time.Duration(h.Frames) * time.Second / time.Duration(h.Config.TickRate)
}

// GameHex returns Game in hexadecimal, as tools print it.
func (h Header) GameHex() string { return hex.EncodeToString(h.Game[:]) }

// appendHeader appends the HeaderSize-byte encoding of h, with both CRCs.
func appendHeader(b []byte, h *Header) []byte {
	le := binary.LittleEndian
	start := len(b)
	b = append(b, magic[:]...)
	b = le.AppendUint32(b, FormatVersion)
	b = le.AppendUint32(b, 0) // flags, reserved
	b = append(b, h.Game[:]...)
	d := &h.Config
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
// exactly HeaderSize bytes. It returns a *TruncatedError if r ends first,
// and a *CorruptError or *VersionError for a header that is not valid. It
// does not read or check the body; Open and Read do.
func ReadHeader(r io.Reader) (Header, error) {
	var buf [HeaderSize]byte
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
		return h, &CorruptError{Offset: 0, Reason: "not a replay: bad magic"}
	}
	if len(b) < HeaderSize {
		return h, &TruncatedError{Need: HeaderSize, Have: int64(len(b))}
	}
	le := binary.LittleEndian
	if got, want := le.Uint32(b[140:]), crc32.Checksum(b[:140], castagnoli); got != want {
		return h, &CorruptError{Offset: 140, Reason: "header crc mismatch"}
	}
	if h.Version = le.Uint32(b[8:]); h.Version != FormatVersion {
		return h, &VersionError{Got: h.Version, Want: FormatVersion}
	}
	copy(h.Game[:], b[16:32])
	d := &h.Config
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
		return Header{}, &CorruptError{Offset: off, Reason: reason}
	}
	switch {
	case le.Uint32(b[12:]) != 0 || b[33] != 0 || le.Uint32(b[132:]) != 0 || le.Uint32(b[136:]) != 0:
		return bad(12, "reserved field is not zero")
	case d.Players < 1 || d.Players > core.MaxPlayers:
		return bad(32, "player count out of range")
	case d.InputSize > core.MaxInputSize:
		return bad(34, "input size out of range")
	case size == 0 || size > maxSize/2:
		return bad(80, "state size out of range")
	case frames > MaxFrames:
		return bad(84, "frame count out of range")
	case sumN < 1 || sumN > MaxFrames || keyK < 1 || keyK > MaxFrames:
		return bad(88, "checksum or keyframe interval out of range")
	case offs[0] < HeaderSize || offs[0] > offs[1] || offs[1] > offs[2] || offs[2] > offs[3] || offs[3] > maxSize:
		return bad(96, "section offsets out of order")
	case offs[2]-offs[1] != uint64(frames/sumN)*8:
		return bad(104, "checksum section length does not match the frame count")
	case offs[3]-offs[2] < uint64(frames/keyK)*8:
		return bad(112, "keyframe index does not fit")
	}
	h.StateSize, h.Frames = int(size), core.Frame(frames)
	h.ChecksumInterval, h.KeyframeInterval = int(sumN), int(keyK)
	h.inputsOff, h.sumsOff, h.indexOff, h.Size = int64(offs[0]), int64(offs[1]), int64(offs[2]), int64(offs[3])
	return h, nil
}
