package wire

import (
	"encoding/binary"

	"github.com/rollstep/rollstep/internal/engine"
)

// Errors of the handshake checks.
var (
	// ErrInvalidConfig is core.ErrInvalidConfig: DigestOf and NewCodec
	// return errors matching it for a configuration that does not fit.
	ErrInvalidConfig = engine.ErrInvalidConfig
)

// Protocol is the protocol version a Hello carries. Peers with different
// protocol versions refuse each other (see CheckProtocol). It changes when
// the meaning of messages changes, even if the byte format (Version) does
// not. Version 2: every packet but Hello, HelloReply and Match is tagged
// with a DirectionKey instead of the token's key. Version 3: the inputs of
// every mode are core.Slot values (an input with its control word), and
// the digest's second byte is ExtraSteps. Version 4: type 6 is Transfer
// (it was Quality, which no session sent), a Hello's byte after the seat
// holds its flags (HelloRejoin), and a control word's last two bytes carry
// a return command's handoff distance. Version 5: a KeepAlive with flag
// 0x2 says its sender lost the receiver (KeepAlive.Lost).
const Protocol uint16 = 5

// DigestSize is the encoded size of a ConfigDigest.
const DigestSize = 32

// Compare is local.Compare(remote): nil if they are equal, else a
// *ConfigMismatchError naming the first field that differs.
func Compare(local, remote ConfigDigest) error { return local.Compare(remote) }

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
	b = append(b, d.Players, d.ExtraSteps)
	b = binary.LittleEndian.AppendUint16(b, d.InputSize)
	b = binary.LittleEndian.AppendUint16(b, d.TickRate)
	b = binary.LittleEndian.AppendUint16(b, d.ChecksumInterval)
	b = binary.LittleEndian.AppendUint64(b, d.InputLayout)
	return append(b, d.Game[:]...)
}

// digest reads a ConfigDigest.
func (r *reader) digest(d *ConfigDigest) {
	s := r.bytes(DigestSize, "config digest")
	if s == nil {
		return
	}
	d.Players, d.ExtraSteps = s[0], s[1]
	d.InputSize = binary.LittleEndian.Uint16(s[2:])
	d.TickRate = binary.LittleEndian.Uint16(s[4:])
	d.ChecksumInterval = binary.LittleEndian.Uint16(s[6:])
	d.InputLayout = binary.LittleEndian.Uint64(s[8:])
	copy(d.Game[:], s[16:32])
}
