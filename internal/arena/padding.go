package arena

import (
	"fmt"
	"reflect"
)

// This file holds the second validation pass. It computes the memory layout
// of a type twice — for the 64-bit targets (amd64, arm64, wasm, ...) where
// 8-byte values are 8-aligned, and for the 32-bit targets (386, arm, ...)
// where they are 4-aligned — following the gc compiler's rules, and rejects
// every byte of implicit padding in either layout.
//
// The rule is stricter than "the two layouts agree", on purpose. Padding
// bytes belong to no field: Go code never writes them, but a whole-struct
// copy carries them along, so their contents depend on where a value has
// been. A checksum that hashes memory would then differ between two peers
// whose fields are equal. Explicit blank fields (`_ [4]byte`) fill the holes
// instead: they are zeroed with the memory that holds them and no Go code
// can assign them, so they stay zero. A type without implicit padding on
// either target also has the same offsets and size on both, so one rule
// gives both guarantees.

// word64 and word32 are the maximum alignments of the two modelled targets.
const (
	word64 = 8
	word32 = 4
)

// sizeAlign returns the size and alignment of t on a target whose maximum
// alignment is word. t must have passed the kind check.
func sizeAlign(t reflect.Type, word int) (size, align int) {
	switch t.Kind() {
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return 1, 1
	case reflect.Int16, reflect.Uint16:
		return 2, 2
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return 4, 4
	case reflect.Int64, reflect.Uint64, reflect.Float64:
		return 8, min(8, word)
	case reflect.Complex64:
		return 8, 4
	case reflect.Complex128:
		return 16, min(8, word)
	case reflect.Array:
		s, a := sizeAlign(t.Elem(), word)
		return s * t.Len(), a
	case reflect.Struct:
		_, s, a := structLayout(t, word)
		return s, a
	}
	panic("state: sizeAlign of unchecked kind " + t.Kind().String())
}

// structLayout returns the field offsets, size and alignment of struct t on
// a target whose maximum alignment is word.
func structLayout(t reflect.Type, word int) (offsets []int, size, align int) {
	n := t.NumField()
	offsets = make([]int, n)
	off, align := 0, 1
	lastSize := -1
	for i := range n {
		s, a := sizeAlign(t.Field(i).Type, word)
		off = roundUp(off, a)
		offsets[i] = off
		off += s
		align = max(align, a)
		lastSize = s
	}
	// gc gives a non-empty struct that ends in a zero-size field one more
	// byte, so that a pointer to that field cannot point past the struct.
	if lastSize == 0 && off > 0 {
		off++
	}
	return offsets, roundUp(off, align), align
}

func roundUp(n, a int) int { return (n + a - 1) / a * a }

// checkPadding returns the first implicit padding in t, found at path, in
// field order, or nil.
func checkPadding(root, t reflect.Type, path string) *ValidationError {
	switch t.Kind() {
	case reflect.Array:
		return checkPadding(root, t.Elem(), path+"[]")
	case reflect.Struct:
	default:
		return nil
	}
	off64, size64, _ := structLayout(t, word64)
	off32, size32, _ := structLayout(t, word32)
	end64, end32 := 0, 0
	prev := ""
	for i := range t.NumField() {
		f := t.Field(i)
		fpath := joinPath(path, f.Name)
		if g64, g32 := off64[i]-end64, off32[i]-end32; g64 != 0 || g32 != 0 {
			where := "before " + f.Name
			if prev != "" {
				where = "after " + prev
			}
			return &ValidationError{
				Type:   root,
				Path:   fpath,
				Reason: fmt.Sprintf("%s of padding before %s %s", bytesWord(g64), fpath, onTargets(g64, g32)),
				Fix:    fmt.Sprintf("add `_ [%d]byte` %s in %v, or reorder the fields", max(g64, g32), where, t),
			}
		}
		if e := checkPadding(root, f.Type, fpath); e != nil {
			return e
		}
		s64, _ := sizeAlign(f.Type, word64)
		s32, _ := sizeAlign(f.Type, word32)
		end64, end32 = off64[i]+s64, off32[i]+s32
		prev = f.Name
	}
	if g64, g32 := size64-end64, size32-end32; g64 != 0 || g32 != 0 {
		whole := path
		if whole == "" {
			whole = root.String()
		}
		fix := fmt.Sprintf("add `_ [%d]byte` after %s in %v, or reorder the fields", max(g64, g32), prev, t)
		if last := t.Field(t.NumField() - 1); last.Type.Size() == 0 {
			fix = fmt.Sprintf("remove the zero-size field %s from %v or move it before a field with a size", last.Name, t)
		}
		return &ValidationError{
			Type:   root,
			Path:   path,
			Reason: fmt.Sprintf("%s of padding at the end of %s (after %s) %s", bytesWord(g64), whole, prev, onTargets(g64, g32)),
			Fix:    fix,
		}
	}
	return nil
}

// bytesWord spells a byte count: "1 byte", "4 bytes".
func bytesWord(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// onTargets completes a padding message: "on amd64 and 386" when both
// targets agree, "on amd64 and 0 on 386" when they do not.
func onTargets(g64, g32 int) string {
	if g64 == g32 {
		return "on amd64 and 386"
	}
	return fmt.Sprintf("on amd64 and %d on 386", g32)
}
