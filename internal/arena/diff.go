package arena

import (
	"bytes"
	"fmt"
	"strconv"
)

// FieldDiff is one leaf field whose value differs between two states.
type FieldDiff struct {
	// Path names the field, such as "Units[17].Pos.X". Blank padding
	// fields are named "_"; a state that is itself a leaf has Path "".
	Path string
	// A and B are the field's values in the first and second state:
	// fixed.F as its String form (the shortest decimal that parses back to
	// the same value, so distinct values never print alike), integers in decimal, bools as true or
	// false, byte arrays of up to 64 bytes in hex ("0x0a1b"), floats in
	// the shortest form that round-trips (with their bits when the two
	// texts would otherwise be equal).
	A, B string
	// Offset is the field's byte offset in the state.
	Offset int
}

// String formats d as "Units[17].Pos.X: 1.5 != 2".
func (d FieldDiff) String() string {
	return fmt.Sprintf("%s: %s != %s", d.Path, d.A, d.B)
}

// Diff returns every leaf field whose value differs between *a and *b, in
// field order (which is memory order). It returns nil for equal states, and
// allocates only for what it reports: equal subtrees are skipped with one
// byte comparison. Arrays are compared per element, except byte arrays of up
// to 64 bytes, which are one leaf. Diff panics with the *ValidationError if S
// is not arena-serializable (floats are accepted).
//
// For huge states where many fields may differ, use DiffLimit.
func Diff[S any](a, b *S) []FieldDiff {
	d, _ := DiffLimit(a, b, -1)
	return d
}

// DiffLimit is Diff reporting at most limit fields; more reports whether
// further fields differ. A negative limit means no limit.
func DiffLimit[S any](a, b *S, limit int) (diffs []FieldDiff, more bool) {
	l := mustLayout[S]()
	return l.diff(bytesOf(a), bytesOf(b), limit)
}

// DiffBytes is Diff for two snapshots made by Encode of the type described
// by l, for example one local and one received from a peer. It returns an
// error matching ErrInvalidSnapshot, naming snapshot "a" or "b", if either
// is not a complete snapshot of l (a *SnapshotError). Bool bytes other than 0 and 1 are shown,
// not rejected. It never panics.
func DiffBytes(l *Layout, a, b []byte) ([]FieldDiff, error) {
	pa, err := l.payload(a)
	if err != nil {
		return nil, &SnapshotError{Which: "a", Err: err}
	}
	pb, err := l.payload(b)
	if err != nil {
		return nil, &SnapshotError{Which: "b", Err: err}
	}
	d, _ := l.diff(pa, pb, -1)
	return d, nil
}

// diff compares two byte images of l.
func (l *Layout) diff(a, b []byte, limit int) ([]FieldDiff, bool) {
	d := differ{a: a, b: b, limit: limit}
	d.walk(l.root, 0)
	return d.out, d.more
}

// differ walks a layout tree over two byte images. path holds the path of
// the node being visited; it is rebuilt in place, so only reported fields
// allocate.
type differ struct {
	a, b  []byte
	path  []byte
	out   []FieldDiff
	limit int
	more  bool
}

// walk visits n at offset off; it returns false once the limit is reached.
func (d *differ) walk(n *node, off int) bool {
	end := off + n.size
	if bytes.Equal(d.a[off:end], d.b[off:end]) {
		return true
	}
	if n.isLeaf() {
		if d.limit >= 0 && len(d.out) >= d.limit {
			d.more = true
			return false
		}
		va, vb := formatLeaf(n, d.a[off:end]), formatLeaf(n, d.b[off:end])
		if va == vb {
			// Distinct bytes that print alike (NaN payloads): show bits.
			va = va + " (0x" + hexString(d.a[off:end]) + ")"
			vb = vb + " (0x" + hexString(d.b[off:end]) + ")"
		}
		d.out = append(d.out, FieldDiff{Path: string(d.path), A: va, B: vb, Offset: off})
		return true
	}
	mark := len(d.path)
	if n.elem != nil {
		for i := range n.length {
			d.path = append(d.path, '[')
			d.path = strconv.AppendInt(d.path, int64(i), 10)
			d.path = append(d.path, ']')
			ok := d.walk(n.elem, off+i*n.elem.size)
			d.path = d.path[:mark]
			if !ok {
				return false
			}
		}
		return true
	}
	for _, f := range n.fields {
		if mark > 0 {
			d.path = append(d.path, '.')
		}
		d.path = append(d.path, f.name...)
		ok := d.walk(f.node, off+f.offset)
		d.path = d.path[:mark]
		if !ok {
			return false
		}
	}
	return true
}
