package arena

import (
	"encoding/binary"
	"reflect"
	"sort"
	"strconv"

	"github.com/rollstep/rollstep/fixed"
	"github.com/zeebo/xxh3"
)

// Layout describes the memory layout of one arena-serializable type: its
// size, a fingerprint and the offset of every field. It is identical on
// every supported target. Get one from LayoutOf; use it with DiffBytes and
// FieldAt. A Layout is immutable and safe to share.
type Layout struct {
	typ  reflect.Type
	root *node
	fp   uint64
}

// Size returns the size of the type in bytes: the length of its canonical
// encoding without the header.
func (l *Layout) Size() int { return l.root.size }

// Fingerprint returns a 64-bit hash of the layout: every field's name, kind,
// size and offset, and every array's length, but not the names of types or
// packages. Snapshots with different fingerprints cannot be decoded into
// each other.
func (l *Layout) Fingerprint() uint64 { return l.fp }

// TypeName returns the Go type the layout was computed from, such as
// "game.World".
func (l *Layout) TypeName() string { return l.typ.String() }

// kindCode identifies a field kind in the fingerprint. The values are part
// of the snapshot format: never renumber them.
type kindCode uint8

const (
	codeBool kindCode = iota + 1
	codeInt8
	codeInt16
	codeInt32
	codeInt64
	codeUint8
	codeUint16
	codeUint32
	codeUint64
	codeFloat32
	codeFloat64
	codeComplex64
	codeComplex128
	codeArray
	codeStruct
	codeFixed
)

// maxHexArray is the longest byte array that Diff and FieldAt treat as one
// leaf, shown in hex. Longer byte arrays are addressed per element.
const maxHexArray = 64

// node is one type in a layout tree. A node is a leaf (code is neither
// codeArray nor codeStruct, or hex is set), an array (elem != nil) or a
// struct (fields). Sizes are in bytes; the tree never expands array
// elements, so it is as small as the type declaration.
type node struct {
	code    kindCode
	size    int
	hex     bool    // a byte array of at most maxHexArray bytes, one leaf
	hasBool bool    // n is or contains a bool, which Decode must check
	length  int     // arrays: element count
	elem    *node   // arrays
	fields  []field // structs, in memory order
}

// field is a struct field at a byte offset within its struct.
type field struct {
	name   string
	offset int
	node   *node
}

// isLeaf reports whether n is reported as one value by Diff and FieldAt.
func (n *node) isLeaf() bool { return n.hex || (n.code != codeArray && n.code != codeStruct) }

var fixedType = reflect.TypeFor[fixed.F]()

var codes = [...]kindCode{
	reflect.Bool: codeBool, reflect.Int8: codeInt8, reflect.Int16: codeInt16,
	reflect.Int32: codeInt32, reflect.Int64: codeInt64, reflect.Uint8: codeUint8,
	reflect.Uint16: codeUint16, reflect.Uint32: codeUint32, reflect.Uint64: codeUint64,
	reflect.Float32: codeFloat32, reflect.Float64: codeFloat64,
	reflect.Complex64: codeComplex64, reflect.Complex128: codeComplex128,
	reflect.Array: codeArray, reflect.Struct: codeStruct,
}

// buildNode converts a validated type to its layout tree.
func buildNode(t reflect.Type) *node {
	n := &node{code: codes[t.Kind()], size: int(t.Size())}
	switch {
	case t.Kind() == reflect.Bool:
		n.hasBool = true
	case t == fixedType:
		n.code = codeFixed
	case t.Kind() == reflect.Array:
		n.length = t.Len()
		n.elem = buildNode(t.Elem())
		n.hex = n.elem.code == codeUint8 && n.length <= maxHexArray
		n.hasBool = n.elem.hasBool && n.length > 0
	case t.Kind() == reflect.Struct:
		n.fields = make([]field, t.NumField())
		for i := range n.fields {
			f := t.Field(i)
			n.fields[i] = field{name: f.Name, offset: int(f.Offset), node: buildNode(f.Type)}
			n.hasBool = n.hasBool || n.fields[i].node.hasBool
		}
	}
	return n
}

// newLayout builds the layout of a validated type.
func newLayout(t reflect.Type) *Layout {
	root := buildNode(t)
	return &Layout{typ: t, root: root, fp: xxh3.Hash(appendShape(nil, root))}
}

// appendShape appends the canonical description of n that the fingerprint
// hashes.
func appendShape(b []byte, n *node) []byte {
	b = append(b, byte(n.code))
	b = binary.AppendUvarint(b, uint64(n.size))
	switch n.code {
	case codeArray:
		b = binary.AppendUvarint(b, uint64(n.length))
		b = appendShape(b, n.elem)
	case codeStruct:
		b = binary.AppendUvarint(b, uint64(len(n.fields)))
		for _, f := range n.fields {
			b = binary.AppendUvarint(b, uint64(len(f.name)))
			b = append(b, f.name...)
			b = binary.AppendUvarint(b, uint64(f.offset))
			b = appendShape(b, f.node)
		}
	}
	return b
}

// FieldAt returns the path of the leaf field that holds the byte at offset,
// such as "Units[17].Pos.X", or false when offset is outside the layout.
// Blank padding fields are named "_". Use it to name the region of a
// mismatching block hash.
func (l *Layout) FieldAt(offset int) (path string, ok bool) {
	if offset < 0 || offset >= l.root.size {
		return "", false
	}
	var b []byte
	n := l.root
	for !n.isLeaf() {
		if n.elem != nil {
			i := offset / n.elem.size
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, ']')
			offset -= i * n.elem.size
			n = n.elem
			continue
		}
		// Fields tile the struct without gaps, so the first field that
		// ends after offset holds it.
		i := sort.Search(len(n.fields), func(i int) bool {
			f := n.fields[i]
			return f.offset+f.node.size > offset
		})
		f := n.fields[i]
		if len(b) > 0 {
			b = append(b, '.')
		}
		b = append(b, f.name...)
		offset -= f.offset
		n = f.node
	}
	return string(b), true
}

// FieldAt returns the path of the leaf field of S that holds the byte at
// offset; see Layout.FieldAt. It panics with a *ValidationError if S is not
// arena-serializable.
func FieldAt[S any](offset int) (path string, ok bool) {
	return mustLayout[S]().FieldAt(offset)
}
