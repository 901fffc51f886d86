package arena

import (
	"fmt"
	"math"
	"math/bits"
	"unsafe"
)

// Ring is a preallocated ring of saved states keyed by frame. A rollback
// session with prediction window W needs capacity W + 2: the W predicted
// frames, the newest confirmed frame it may roll back to, and the frame
// being saved.
//
// Frame f lives in slot (f + 2^31) mod capacity, so any capacity consecutive
// frames occupy distinct slots and saving f overwrites the frame held in its
// slot — with frames saved in order, the frame saved longest ago.
// Save and Load are copies of the state's memory, chunked for large states;
// neither allocates. A Ring is not safe for concurrent use. The zero Ring is
// not usable: call NewRing.
type Ring[S any] struct {
	slots []S
	meta  []slotMeta // meta[i] describes slots[i]
	n     uint64     // len(slots)
	m     uint64     // fastmod constant for n: ^uint64(0)/n + 1

	// nextFrame is the frame after the last one saved, and nextSlot is
	// (nextFrame + 2^31) mod n, computed incrementally. Every frame within
	// n of nextFrame — all a ring saved in order holds — finds its slot by
	// a subtraction from them, without the modulo, whose multiplications
	// sit between the call and the first store of the copy and cost a
	// 1 KiB Save or Load about a quarter of its time
	// (BenchmarkSaveLoadVsCopy).
	nextFrame int64
	nextSlot  int
}

// slotMeta says which frame a slot holds.
type slotMeta struct {
	frame int32 // valid if held
	held  bool
}

// NewRing returns a ring with capacity slots, all allocated now. It returns
// the *ValidationError of Validate[S] if S is not arena-serializable, and an
// error matching ErrInvalidCapacity if capacity < 1 or the slots would not fit
// in memory.
func NewRing[S any](capacity int) (*Ring[S], error) {
	return NewRingWith[S](capacity, ValidateOptions{})
}

// NewRingWith is NewRing for a type validated with options, such as a state
// that opted in to floats.
func NewRingWith[S any](capacity int, opts ValidateOptions) (*Ring[S], error) {
	if err := ValidateWith[S](opts); err != nil {
		return nil, err
	}
	if capacity < 1 {
		return nil, fmt.Errorf("%w: %d is less than 1", ErrInvalidCapacity, capacity)
	}
	// Half the address space at most, so the multiplication cannot wrap
	// and make cannot panic.
	if size := Size[S]() + int(unsafe.Sizeof(slotMeta{})); capacity > math.MaxInt/2/size {
		return nil, fmt.Errorf("%w: %d slots of %d bytes do not fit in memory", ErrInvalidCapacity, capacity, size)
	}
	if uint64(capacity) >= 1<<32 {
		return nil, fmt.Errorf("%w: %d is not less than 2^32", ErrInvalidCapacity, capacity)
	}
	n := uint64(capacity)
	r := &Ring[S]{
		slots: make([]S, capacity),
		meta:  make([]slotMeta, capacity),
		n:     n,
		m:     ^uint64(0)/n + 1,
	}
	r.nextSlot = r.mod(0)
	return r, nil
}

// slot returns the index of the slot for frame: (frame + 2^31) mod capacity.
func (r *Ring[S]) slot(frame int32) int {
	if d := r.nextFrame - int64(frame); uint64(d) <= r.n {
		// 0 <= d <= n: step back d slots from nextSlot.
		i := r.nextSlot - int(d)
		if i < 0 {
			i += len(r.slots)
		}
		return i
	}
	return r.mod(frame)
}

// mod returns (frame + 2^31) mod capacity. The bias makes the mapping
// contiguous over the whole int32 range, so any capacity consecutive
// frames, negative or not, use distinct slots. The remainder uses Lemire's fastmod (https://arxiv.org/abs/1902.01961): two
// multiplications instead of a division, exact for every 32-bit dividend
// and divisor. For capacity 1, m wraps to 0 and the slot is always 0.
func (r *Ring[S]) mod(frame int32) int {
	x := uint64(uint32(frame) ^ 1<<31)
	hi, _ := bits.Mul64(r.m*x, r.n)
	return int(hi)
}

// Save copies *s into the slot of frame, replacing the frame it held.
// Saving a frame again replaces the earlier copy.
func (r *Ring[S]) Save(frame int32, s *S) {
	i := r.slot(frame)
	// As an int64, frame+1 keeps the invariant exact after MaxInt32 too.
	r.nextFrame = int64(frame) + 1
	if r.nextSlot = i + 1; r.nextSlot == len(r.slots) {
		r.nextSlot = 0
	}
	r.meta[i] = slotMeta{frame: frame, held: true}
	copyState(&r.slots[i], s) // last, so nothing is live across the memmove
}

// Load copies the saved state of frame into *s. If the ring does not hold
// frame it returns a *FrameNotHeldError (matching ErrFrameNotHeld) and leaves
// *s unchanged.
func (r *Ring[S]) Load(frame int32, s *S) error {
	i := r.slot(frame)
	if m := r.meta[i]; !m.held || m.frame != frame {
		return &FrameNotHeldError{Frame: frame, Held: m.frame, HeldOK: m.held}
	}
	copyState(s, &r.slots[i])
	return nil
}

// Has reports whether the ring holds a saved state for frame.
func (r *Ring[S]) Has(frame int32) bool {
	m := r.meta[r.slot(frame)]
	return m.held && m.frame == frame
}

// Peek returns a pointer to the saved copy of frame, or false if the ring
// does not hold it. The pointee is owned by the ring: read it (to checksum or
// diff a retained snapshot) but do not modify it. It stays valid until the
// slot is overwritten by Save of a frame with the same slot, and is
// forgotten, but not changed, by Reset.
func (r *Ring[S]) Peek(frame int32) (*S, bool) {
	i := r.slot(frame)
	if m := r.meta[i]; !m.held || m.frame != frame {
		return nil, false
	}
	return &r.slots[i], true
}

// Cap returns the number of slots.
func (r *Ring[S]) Cap() int { return len(r.slots) }

// Reset forgets every saved frame. It keeps the memory.
func (r *Ring[S]) Reset() {
	clear(r.meta)
}
