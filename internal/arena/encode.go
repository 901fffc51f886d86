package arena

import (
	"encoding/binary"
	"slices"
)

// The canonical encoding of a state is a 24-byte header followed by the
// state's bytes, which are its little-endian memory image:
//
//	offset  size  field
//	0       4     magic "rsst"
//	4       4     format version, uint32 little-endian (FormatVersion)
//	8       8     layout fingerprint, uint64 little-endian (Layout.Fingerprint)
//	16      8     length of the state in bytes, uint64 little-endian
//	24      n     the state
//
// Big-endian targets are not supported: Validate rejects every type there,
// so Encode panics and Decode returns the *ValidationError. Byte-swapping
// through the layout table would be possible but would cost save, load and
// checksum their one-copy speed on exactly the targets nobody ships games
// to.

// FormatVersion is the version of the encoding that Encode writes and Decode
// accepts.
const FormatVersion = 1

// HeaderSize is the size of the header that precedes the state's bytes.
const HeaderSize = 24

// magic starts every snapshot.
var magic = [4]byte{'r', 's', 's', 't'}

// Encode appends the canonical encoding of *s (header and bytes) to dst and
// returns the extended slice; it allocates only if dst lacks capacity
// (reserve HeaderSize + Size[S]() bytes). The result is identical on every
// supported target. Encode panics with the *ValidationError if S is not
// arena-serializable (floats are accepted); call Validate first, as NewRing
// does.
func Encode[S any](dst []byte, s *S) []byte {
	l := mustLayout[S]()
	dst = l.appendHeader(dst)
	n := len(dst)
	dst = slices.Grow(dst, l.root.size)[:n+l.root.size]
	copyBytes(dst[n:], bytesOf(s)) // chunked, like Save
	return dst
}

// appendHeader appends the snapshot header for l.
func (l *Layout) appendHeader(dst []byte) []byte {
	dst = append(dst, magic[:]...)
	dst = binary.LittleEndian.AppendUint32(dst, FormatVersion)
	dst = binary.LittleEndian.AppendUint64(dst, l.fp)
	return binary.LittleEndian.AppendUint64(dst, uint64(l.root.size))
}

// Decode sets *s from the canonical encoding b, which must hold exactly one
// snapshot of S. It returns the *ValidationError if S is not
// arena-serializable, and otherwise one of the typed errors *TruncatedError,
// *MagicError, *VersionError, *FingerprintError, *LengthError,
// *TrailingError or *BoolError, all matching ErrInvalidSnapshot. On any error
// *s is unchanged. Decode never panics, whatever b holds, and does not
// allocate on success.
func Decode[S any](b []byte, s *S) error {
	l, err := LayoutOf[S]()
	if err != nil {
		return err
	}
	payload, err := l.payload(b)
	if err != nil {
		return err
	}
	if err := l.checkBools(payload); err != nil {
		return err
	}
	copyBytes(bytesOf(s), payload)
	return nil
}

// payload checks the header of snapshot b against l and returns the state's
// bytes.
func (l *Layout) payload(b []byte) ([]byte, error) {
	if len(b) < HeaderSize {
		return nil, &TruncatedError{Need: HeaderSize, Have: len(b)}
	}
	if [4]byte(b[:4]) != magic {
		return nil, &MagicError{Got: [4]byte(b[:4])}
	}
	if v := binary.LittleEndian.Uint32(b[4:]); v != FormatVersion {
		return nil, &VersionError{Got: v, Want: FormatVersion}
	}
	if fp := binary.LittleEndian.Uint64(b[8:]); fp != l.fp {
		return nil, &FingerprintError{Got: fp, Want: l.fp, Type: l.TypeName()}
	}
	size := l.root.size
	if n := binary.LittleEndian.Uint64(b[16:]); n != uint64(size) {
		return nil, &LengthError{Got: n, Want: size}
	}
	switch body := b[HeaderSize:]; {
	case len(body) < size:
		return nil, &TruncatedError{Need: HeaderSize + size, Have: len(b)}
	case len(body) > size:
		return nil, &TrailingError{Extra: len(body) - size}
	default:
		return body, nil
	}
}

// checkBools returns a *BoolError for the first bool byte in p that is
// neither 0 nor 1: Go code must never see such a bool.
func (l *Layout) checkBools(p []byte) error {
	if !l.root.hasBool {
		return nil
	}
	off, ok := firstBadBool(l.root, p, 0)
	if !ok {
		return nil
	}
	path, _ := l.FieldAt(off)
	return &BoolError{Path: path, Offset: off, Value: p[off]}
}

// firstBadBool searches n, at base in p, for a bool byte other than 0 or 1.
func firstBadBool(n *node, p []byte, base int) (int, bool) {
	switch {
	case !n.hasBool:
		return 0, false
	case n.code == codeBool:
		return base, p[base] > 1
	case n.elem != nil:
		for i := range n.length {
			if off, ok := firstBadBool(n.elem, p, base+i*n.elem.size); ok {
				return off, true
			}
		}
	default:
		for _, f := range n.fields {
			if off, ok := firstBadBool(f.node, p, base+f.offset); ok {
				return off, true
			}
		}
	}
	return 0, false
}
