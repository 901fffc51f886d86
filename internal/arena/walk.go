package arena

import (
	"fmt"
	"reflect"
)

// This file holds the first validation pass: every field's kind. The second
// pass (padding.go) compares the memory layouts of the 64-bit and 32-bit
// targets; it only runs once every kind is acceptable, because only then are
// all sizes target-independent.

// kindCheck walks a type once and remembers the first violation in field
// order twice over: strict counts float and complex fields as violations,
// loose does not. The walk stops when both are known.
type kindCheck struct {
	root   reflect.Type
	strict *ValidationError
	loose  *ValidationError
}

// done reports whether no further violation can change the outcome.
func (kc *kindCheck) done() bool { return kc.strict != nil && kc.loose != nil }

// violate records a violation. float marks violations that AllowFloats
// forgives.
func (kc *kindCheck) violate(path, reason, fix string, float bool) {
	e := &ValidationError{Type: kc.root, Path: path, Reason: reason, Fix: fix}
	if kc.strict == nil {
		kc.strict = e
	}
	if !float && kc.loose == nil {
		kc.loose = e
	}
}

// subject names a field in a message: "field Units[].HP", or "type T" for
// the root.
func (kc *kindCheck) subject(path string) string {
	if path == "" {
		return "type " + kc.root.String()
	}
	return "field " + path
}

// joinPath appends a field name to a path.
func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// walk checks t, found at path, and everything inside it.
func (kc *kindCheck) walk(t reflect.Type, path string) {
	if kc.done() {
		return
	}
	subj := kc.subject(path)
	if pkg := t.PkgPath(); pkg == "sync" || pkg == "sync/atomic" {
		kc.violate(path,
			fmt.Sprintf("%s is %v: a state is stepped by one goroutine and copied as bytes, and %s types must not be copied", subj, t, pkg),
			"use a plain field such as int64, and guard the state outside it if you must", false)
		return
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		// Fixed size and alignment on every target we model.
	case reflect.Int:
		kc.violate(path, subj+" is int: its size differs between 386 and amd64", "use int32 or int64", false)
	case reflect.Uint:
		kc.violate(path, subj+" is uint: its size differs between 386 and amd64", "use uint32 or uint64", false)
	case reflect.Uintptr:
		kc.violate(path, subj+" is uintptr: its size differs between 386 and amd64, and an address means nothing on another machine", "use uint32 or uint64", false)
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		kc.violate(path,
			fmt.Sprintf("%s is %v: floating point results differ between targets (fused multiply-add, math library code paths)", subj, t),
			"use fixed.F", true)
	case reflect.Pointer, reflect.UnsafePointer:
		kc.violate(path,
			fmt.Sprintf("%s is a pointer (%v): an address means nothing after a load or on another machine", subj, t),
			"store an int32 index into an array held in the state instead", false)
	case reflect.Slice:
		kc.violate(path,
			fmt.Sprintf("%s is a slice (%v): its elements live outside the state", subj, t),
			fmt.Sprintf("use a fixed-size array such as [N]%v and a count field", t.Elem()), false)
	case reflect.Map:
		kc.violate(path,
			fmt.Sprintf("%s is a map (%v): its entries live outside the state and iterate in random order", subj, t),
			"use a fixed-size array of key/value pairs kept sorted by key", false)
	case reflect.String:
		kc.violate(path,
			fmt.Sprintf("%s is a string (%v): its bytes live outside the state", subj, t),
			"use a fixed-size byte array such as [16]byte, or an int32 index into a table kept outside the state", false)
	case reflect.Interface:
		kc.violate(path,
			fmt.Sprintf("%s is an interface (%v): it holds a type word and a pointer", subj, t),
			"use a kind field and fixed-size fields for each variant", false)
	case reflect.Chan:
		kc.violate(path,
			fmt.Sprintf("%s is a channel (%v): a channel cannot be saved or hashed", subj, t),
			"keep channels outside the state", false)
	case reflect.Func:
		kc.violate(path,
			fmt.Sprintf("%s is a func (%v): code cannot be saved or hashed", subj, t),
			"keep functions outside the state and store a kind index instead", false)
	case reflect.Array:
		kc.walk(t.Elem(), path+"[]")
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			kc.walk(f.Type, joinPath(path, f.Name))
			if kc.done() {
				return
			}
		}
	default:
		kc.violate(path, fmt.Sprintf("%s has unsupported kind %v", subj, t.Kind()), "use fixed-size integers, arrays and structs", false)
	}
}
