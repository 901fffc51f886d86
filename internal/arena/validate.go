package arena

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"runtime"
	"sync/atomic"
	"unsafe"
)

// ValidateOptions relaxes Validate. The zero value is the strict default.
type ValidateOptions struct {
	// AllowFloats accepts float32, float64, complex64 and complex128 fields.
	// Their bytes are still saved, hashed and compared exactly, but the step
	// that computes them is unlikely to be deterministic across targets.
	AllowFloats bool
}

// Validate reports whether S is arena-serializable (see the package
// documentation), with floats rejected. It returns nil or a
// *ValidationError that names the first offending field in field order
// (kinds first, then padding) and how to fix it.
//
// The result is computed once per type and cached; Validate is cheap to call
// again but is meant for construction time, not for a simulation step.
func Validate[S any]() error { return ValidateWith[S](ValidateOptions{}) }

// ValidateWith is Validate with options.
func ValidateWith[S any](opts ValidateOptions) error {
	ti := infoOf(reflect.TypeFor[S]())
	if opts.AllowFloats {
		return errOrNil(ti.loose)
	}
	return errOrNil(ti.strict)
}

// errOrNil returns a copy of the cached error, so that a caller who
// modifies it cannot change what later callers see, and avoids returning a
// typed nil pointer inside a non-nil error.
func errOrNil(e *ValidationError) error {
	if e == nil {
		return nil
	}
	c := *e
	return &c
}

// LayoutOf returns the layout of S: its size, fingerprint and field table.
// Floats are accepted here (a type that opted in has a layout too); it
// returns a *ValidationError for any other violation.
func LayoutOf[S any]() (*Layout, error) {
	ti := infoOf(reflect.TypeFor[S]())
	if ti.loose != nil {
		return nil, errOrNil(ti.loose)
	}
	return ti.layout, nil
}

// mustLayout returns the layout of S or panics with its *ValidationError;
// it serves functions whose signature has no error result.
func mustLayout[S any]() *Layout {
	ti := infoOf(reflect.TypeFor[S]())
	if ti.loose != nil {
		panic(errOrNil(ti.loose))
	}
	return ti.layout
}

// typeInfo is everything validation learns about one type. It is immutable
// once published in the cache.
type typeInfo struct {
	strict *ValidationError // first violation, floats rejected
	loose  *ValidationError // first violation, floats allowed
	layout *Layout          // non-nil exactly when loose is nil
}

// typeCache maps reflect.Type to *typeInfo. It is a copy-on-write map
// behind an atomic pointer: readers never block and a writer publishes a
// new map with one more entry. This is the one use of sync/atomic in the
// package, and a deliberate exception to "no sync in state/": the cache is a
// package-level value that sessions running in different goroutines reach
// through Validate, NewRing, Encode and Diff, and an unguarded map would
// crash with a concurrent write. No locks are taken, nothing here runs in a
// simulation step, and a lost race only means a type is walked twice with
// the same result.
var typeCache atomic.Pointer[map[reflect.Type]*typeInfo]

// infoOf returns the cached typeInfo of t, computing it on first use.
func infoOf(t reflect.Type) *typeInfo {
	if m := typeCache.Load(); m != nil {
		if ti, ok := (*m)[t]; ok {
			return ti
		}
	}
	ti := analyze(t)
	for {
		old := typeCache.Load()
		next := make(map[reflect.Type]*typeInfo, 1+lenOf(old))
		if old != nil {
			for k, v := range *old {
				next[k] = v
			}
		}
		next[t] = ti
		if typeCache.CompareAndSwap(old, &next) {
			return ti
		}
	}
}

func lenOf(m *map[reflect.Type]*typeInfo) int {
	if m == nil {
		return 0
	}
	return len(*m)
}

// littleEndian reports whether this target stores integers little-endian.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// hostWord is the alignment of uint64 on this target: 8 or 4.
const hostWord = int(unsafe.Alignof(uint64(0)))

// analyze runs both validation passes over t and builds its layout.
func analyze(t reflect.Type) *typeInfo {
	if !littleEndian {
		e := &ValidationError{
			Type:   t,
			Reason: "this target (GOARCH=" + runtime.GOARCH + ") is big-endian, and the canonical encoding is the little-endian memory image",
			Fix:    "run rollstep on a little-endian target (amd64, 386, arm64, arm, wasm, riscv64, loong64, ppc64le)",
		}
		return &typeInfo{strict: e, loose: e}
	}
	kc := kindCheck{root: t}
	kc.walk(t, "")
	ti := &typeInfo{strict: kc.strict, loose: kc.loose}
	if ti.loose == nil {
		if e := checkPadding(t, t, ""); e != nil {
			ti.loose = e
			if ti.strict == nil {
				ti.strict = e
			}
		}
	}
	if ti.loose == nil {
		if s, _ := sizeAlign(t, hostWord); s != int(t.Size()) {
			// Unreachable while the model follows gc; kept so a compiler
			// change is reported instead of corrupting states.
			e := &ValidationError{
				Type:   t,
				Reason: fmt.Sprintf("type %v is %d bytes on this target (GOARCH=%s) but the layout model says %d", t, t.Size(), runtime.GOARCH, s),
				Fix:    "report this as a rollstep bug",
			}
			ti.loose, ti.strict = e, e
		}
	}
	if ti.loose == nil {
		ti.layout = newLayout(t)
	}
	return ti
}
