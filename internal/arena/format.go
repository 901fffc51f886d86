package arena

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"

	"github.com/rollstep/rollstep/fixed"
)

// formatLeaf formats the bytes p of leaf n for a FieldDiff.
func formatLeaf(n *node, p []byte) string {
	le := binary.LittleEndian
	switch n.code {
	case codeBool:
		switch p[0] {
		case 0:
			return "false"
		case 1:
			return "true"
		}
		return "invalid bool 0x" + hexString(p)
	case codeInt8:
		return strconv.FormatInt(int64(int8(p[0])), 10)
	case codeInt16:
		return strconv.FormatInt(int64(int16(le.Uint16(p))), 10)
	case codeInt32:
		return strconv.FormatInt(int64(int32(le.Uint32(p))), 10)
	case codeInt64:
		return strconv.FormatInt(int64(le.Uint64(p)), 10)
	case codeUint8:
		return strconv.FormatUint(uint64(p[0]), 10)
	case codeUint16:
		return strconv.FormatUint(uint64(le.Uint16(p)), 10)
	case codeUint32:
		return strconv.FormatUint(uint64(le.Uint32(p)), 10)
	case codeUint64:
		return strconv.FormatUint(le.Uint64(p), 10)
	case codeFixed:
		return fixed.FromRaw(int64(le.Uint64(p))).String()
	case codeFloat32:
		return strconv.FormatFloat(float64(math.Float32frombits(le.Uint32(p))), 'g', -1, 32)
	case codeFloat64:
		return strconv.FormatFloat(math.Float64frombits(le.Uint64(p)), 'g', -1, 64)
	case codeComplex64:
		c := complex(math.Float32frombits(le.Uint32(p)), math.Float32frombits(le.Uint32(p[4:])))
		return strconv.FormatComplex(complex128(c), 'g', -1, 64)
	case codeComplex128:
		c := complex(math.Float64frombits(le.Uint64(p)), math.Float64frombits(le.Uint64(p[8:])))
		return strconv.FormatComplex(c, 'g', -1, 128)
	}
	// Short byte arrays, and anything else, in hex.
	return "0x" + hexString(p)
}

func hexString(p []byte) string { return hex.EncodeToString(p) }
