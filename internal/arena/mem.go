package arena

import "unsafe"

// This file holds the only unsafe pointer conversion in rollstep (elsewhere
// unsafe serves only Sizeof and Alignof): it views a state as its bytes.
// That view is the canonical encoding exactly when S passed Validate on a
// little-endian target: no pointers, no target-dependent sizes, no implicit
// padding.

// bytesOf returns the memory of *s as a byte slice that aliases it.
func bytesOf[S any](s *S) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(s)), unsafe.Sizeof(*s))
}

// Size returns the size of S in bytes, which is the length of its canonical
// encoding without the header. For a type that passed Validate it is the
// same on every target.
func Size[S any]() int {
	var z S
	return int(unsafe.Sizeof(z))
}

// copyChunk is the largest single copy copyState issues. The amd64 memmove
// switches to non-temporal stores at 1 MiB: they bypass the cache, so the
// copy is slower and a state hashed or loaded soon after being saved comes
// back from memory. Measured on the 2-core development machine in one run
// (BenchmarkStateOps, BenchmarkChunkedCopy; table in README.md): a 1 MiB copy
// takes about 40 µs in one call and 23–32 µs as Save does it, in 512 KiB
// chunks; copy-then-hash takes 80–150 µs in one call and 38–70 µs chunked;
// at 4 MiB the gap is the same.
const copyChunk = 512 << 10

// copyState copies *src to *dst in chunks of at most copyChunk bytes.
func copyState[S any](dst, src *S) {
	// Byte views rather than *dst = *src: an assignment of a small struct
	// may be compiled field by field, and a save must copy every byte,
	// blank fields included.
	copyBytes(bytesOf(dst), bytesOf(src))
}

// copyBytes copies src to dst (same length) in chunks of at most copyChunk
// bytes.
func copyBytes(dst, src []byte) {
	for len(src) > copyChunk {
		copy(dst[:copyChunk], src[:copyChunk])
		dst, src = dst[copyChunk:], src[copyChunk:]
	}
	copy(dst, src)
}
