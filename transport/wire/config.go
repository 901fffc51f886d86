package wire

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/state"
)

// Errors of the handshake checks.
var (
	// ErrInvalidConfig is returned by DigestOf for a configuration that does
	// not fit a ConfigDigest.
	ErrInvalidConfig = errors.New("wire: invalid config")
	// ErrConfigMismatch is matched by every *ConfigMismatchError: the peers'
	// match configurations differ.
	ErrConfigMismatch = errors.New("wire: config mismatch")
)

// Protocol is the protocol version a Hello carries. Peers with different
// protocol versions refuse each other (see CheckProtocol). It changes when
// the meaning of messages changes, even if the byte format (Version) does
// not.
const Protocol uint16 = 1

// DigestSize is the encoded size of a ConfigDigest.
const DigestSize = 32

// MaxInputSize is the largest input type, in bytes, the wire carries. It
// guarantees that one input always fits in a packet next to a message's
// largest fixed part, so the encoder always makes progress.
const MaxInputSize = 512

// ConfigDigest is the part of a match configuration that every peer must
// share, exchanged in Hello and HelloReply. Its encoding is exactly
// DigestSize bytes (see doc.go); unlike a hash it keeps the fields, so a
// mismatch can be reported by name. Build one with DigestOf; compare two
// with Compare. The zero value is valid as a value but matches no real
// configuration.
type ConfigDigest struct {
	// Players is the number of players in the match.
	Players uint8
	// InputSize is state.Size of the input type, in bytes.
	InputSize uint16
	// TickRate is the simulation rate in frames per second.
	TickRate uint16
	// ChecksumInterval is core.Config.ChecksumInterval (0 is stored as 1,
	// its meaning in core).
	ChecksumInterval uint16
	// InputLayout is the state.Layout fingerprint of the input type: field
	// names, kinds, sizes and offsets.
	InputLayout uint64
	// Game identifies the game build, for example the first 16 bytes of a
	// SHA-256 of its version string or binary.
	Game [16]byte
}

// DigestOf returns the digest of a match of players players at tickRate
// frames per second with input type I, checksum interval checksumInterval
// (0 means 1) and game build hash game. It returns an error matching
// ErrInvalidConfig when a value does not fit, or the *state.ValidationError
// when I is not arena-serializable.
func DigestOf[I any](players, tickRate, checksumInterval int, game [16]byte) (ConfigDigest, error) {
	l, err := state.LayoutOf[I]()
	if err != nil {
		return ConfigDigest{}, err
	}
	if checksumInterval == 0 {
		checksumInterval = 1
	}
	switch {
	case players < 1 || players > core.MaxPlayers:
		return ConfigDigest{}, fmt.Errorf("%w: players %d is outside 1..%d", ErrInvalidConfig, players, core.MaxPlayers)
	case tickRate < 1 || tickRate > 0xffff:
		return ConfigDigest{}, fmt.Errorf("%w: tick rate %d is outside 1..65535", ErrInvalidConfig, tickRate)
	case checksumInterval < 1 || checksumInterval > 0xffff:
		return ConfigDigest{}, fmt.Errorf("%w: checksum interval %d is outside 0..65535", ErrInvalidConfig, checksumInterval)
	case l.Size() > MaxInputSize:
		return ConfigDigest{}, fmt.Errorf("%w: input size %d is over %d", ErrInvalidConfig, l.Size(), MaxInputSize)
	}
	return ConfigDigest{
		Players:          uint8(players),
		InputSize:        uint16(l.Size()),
		TickRate:         uint16(tickRate),
		ChecksumInterval: uint16(checksumInterval),
		InputLayout:      l.Fingerprint(),
		Game:             game,
	}, nil
}

// Compare returns nil if local and remote are equal, and otherwise a
// *ConfigMismatchError naming the first field that differs, in declaration
// order. Both sides of a handshake call it, so both refuse with the same
// field.
func Compare(local, remote ConfigDigest) error {
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	x := func(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }
	switch {
	case local.Players != remote.Players:
		return &ConfigMismatchError{"Players", u(uint64(local.Players)), u(uint64(remote.Players))}
	case local.InputSize != remote.InputSize:
		return &ConfigMismatchError{"InputSize", u(uint64(local.InputSize)), u(uint64(remote.InputSize))}
	case local.TickRate != remote.TickRate:
		return &ConfigMismatchError{"TickRate", u(uint64(local.TickRate)), u(uint64(remote.TickRate))}
	case local.ChecksumInterval != remote.ChecksumInterval:
		return &ConfigMismatchError{"ChecksumInterval", u(uint64(local.ChecksumInterval)), u(uint64(remote.ChecksumInterval))}
	case local.InputLayout != remote.InputLayout:
		return &ConfigMismatchError{"InputLayout", x(local.InputLayout), x(remote.InputLayout)}
	case local.Game != remote.Game:
		return &ConfigMismatchError{"Game", hex.EncodeToString(local.Game[:]), hex.EncodeToString(remote.Game[:])}
	}
	return nil
}

// CheckProtocol returns nil if remote is Protocol, and otherwise a
// *VersionError matching ErrBadVersion.
func CheckProtocol(remote uint16) error {
	if remote != Protocol {
		return &VersionError{Local: Protocol, Remote: remote}
	}
	return nil
}

// appendDigest appends the DigestSize-byte encoding of d.
func appendDigest(b []byte, d *ConfigDigest) []byte {
	b = append(b, d.Players, 0)
	b = binary.LittleEndian.AppendUint16(b, d.InputSize)
	b = binary.LittleEndian.AppendUint16(b, d.TickRate)
	b = binary.LittleEndian.AppendUint16(b, d.ChecksumInterval)
	b = binary.LittleEndian.AppendUint64(b, d.InputLayout)
	return append(b, d.Game[:]...)
}

// digest reads a ConfigDigest; its reserved byte must be zero.
func (r *reader) digest(d *ConfigDigest) {
	start := r.off
	s := r.bytes(DigestSize, "config digest")
	if s == nil {
		return
	}
	if s[1] != 0 {
		r.fail(start+1, "config digest: reserved byte is not zero", ErrMalformed)
		return
	}
	d.Players = s[0]
	d.InputSize = binary.LittleEndian.Uint16(s[2:])
	d.TickRate = binary.LittleEndian.Uint16(s[4:])
	d.ChecksumInterval = binary.LittleEndian.Uint16(s[6:])
	d.InputLayout = binary.LittleEndian.Uint64(s[8:])
	copy(d.Game[:], s[16:32])
}
