package wire

import (
	"encoding/hex"
	"errors"
	"strconv"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/internal/engine"
)

// MaxInputSize is engine.MaxInputSize, the largest input type, in bytes,
// a match may send: one input always fits in a packet next to a message's
// largest fixed part, so the encoder always makes progress, and replays
// store inputs of at most this size.
const MaxInputSize = engine.MaxInputSize

// ErrConfigMismatch is matched by every *ConfigMismatchError: two match
// configurations differ.
var ErrConfigMismatch = errors.New("rollstep: match config mismatch")

// ConfigDigest is the part of a match configuration that every peer must
// share: the transport's handshake exchanges it (internal/wire) and a
// replay stores it (replay). Unlike a hash it keeps the fields, so a
// mismatch can be reported by name. Build one with DigestOf; compare two
// with Compare. The zero value is valid as a value but matches no real
// configuration.
type ConfigDigest struct {
	// Players is the number of players in the match.
	Players uint8
	// ExtraSteps is Config.StepsPerFrame less one: how many more times
	// than once each frame calls the game's Step (0 for most games; a
	// lockstep turn of several ticks has more). DigestOf leaves it 0.
	ExtraSteps uint8
	// InputSize is the size of the input type, in bytes.
	InputSize uint16
	// TickRate is the simulation rate in frames per second.
	TickRate uint16
	// ChecksumInterval is Config.ChecksumInterval (0 is stored as 1, its
	// meaning in the engine).
	ChecksumInterval uint16
	// InputLayout is the layout fingerprint of the input type: field
	// names, kinds, sizes and offsets.
	InputLayout uint64
	// Game identifies the game build, for example the first 16 bytes of a
	// SHA-256 of its version string or binary.
	Game [16]byte
}

// DigestOf returns the digest of a match of players players at tickRate
// frames per second with input type I, checksum interval checksumInterval
// (0 means 1) and game build hash game. It returns a *ConfigError (matching
// ErrInvalidConfig) naming the ConfigDigest field that does not fit, or the
// *state.ValidationError when I is not arena-serializable.
func DigestOf[I any](players, tickRate, checksumInterval int, game [16]byte) (ConfigDigest, error) {
	l, err := arena.LayoutOf[I]()
	if err != nil {
		return ConfigDigest{}, err
	}
	if checksumInterval == 0 {
		checksumInterval = 1
	}
	bad := func(field, reason string) (ConfigDigest, error) {
		return ConfigDigest{}, &engine.ConfigError{Field: field, Reason: reason}
	}
	switch {
	case players < 1 || players > core.MaxPlayers:
		return bad("Players", strconv.Itoa(players)+" is outside 1.."+strconv.Itoa(core.MaxPlayers))
	case tickRate < 1 || tickRate > 0xffff:
		return bad("TickRate", strconv.Itoa(tickRate)+" is outside 1..65535")
	case checksumInterval < 1 || checksumInterval > 0xffff:
		return bad("ChecksumInterval", strconv.Itoa(checksumInterval)+" is outside 0..65535")
	case l.Size() > MaxInputSize:
		return bad("InputSize", "input type of "+strconv.Itoa(l.Size())+" bytes is over "+strconv.Itoa(MaxInputSize))
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

// Compare returns nil if d and remote are equal, and otherwise a
// *ConfigMismatchError naming the first field that differs, in declaration
// order, with d as the local value. Both sides of a handshake call it, so
// both refuse with the same field.
func (d ConfigDigest) Compare(remote ConfigDigest) error {
	u := func(v uint64) string { return strconv.FormatUint(v, 10) }
	x := func(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }
	switch {
	case d.Players != remote.Players:
		return &ConfigMismatchError{"Players", u(uint64(d.Players)), u(uint64(remote.Players))}
	case d.ExtraSteps != remote.ExtraSteps:
		return &ConfigMismatchError{"StepsPerFrame", u(uint64(d.ExtraSteps) + 1), u(uint64(remote.ExtraSteps) + 1)}
	case d.InputSize != remote.InputSize:
		return &ConfigMismatchError{"InputSize", u(uint64(d.InputSize)), u(uint64(remote.InputSize))}
	case d.TickRate != remote.TickRate:
		return &ConfigMismatchError{"TickRate", u(uint64(d.TickRate)), u(uint64(remote.TickRate))}
	case d.ChecksumInterval != remote.ChecksumInterval:
		return &ConfigMismatchError{"ChecksumInterval", u(uint64(d.ChecksumInterval)), u(uint64(remote.ChecksumInterval))}
	case d.InputLayout != remote.InputLayout:
		return &ConfigMismatchError{"InputLayout", x(d.InputLayout), x(remote.InputLayout)}
	case d.Game != remote.Game:
		return &ConfigMismatchError{"Game", hex.EncodeToString(d.Game[:]), hex.EncodeToString(remote.Game[:])}
	}
	return nil
}

// ConfigMismatchError is returned by ConfigDigest.Compare when two match
// configurations differ. It names the first differing field in
// ConfigDigest order and matches ErrConfigMismatch.
type ConfigMismatchError struct {
	// Field is the name of the ConfigDigest field, such as "TickRate".
	Field string
	// Local and Remote are the two values, formatted.
	Local, Remote string
}

// Error returns a message that names the field and both values.
func (e *ConfigMismatchError) Error() string {
	return "core: match config differs in " + e.Field + ": local " + e.Local + ", remote " + e.Remote
}

// Is reports whether target is ErrConfigMismatch.
func (e *ConfigMismatchError) Is(target error) bool { return target == ErrConfigMismatch }
