package arena

import (
	"fmt"
	"testing"

	"github.com/zeebo/xxh3"
)

// BenchmarkChunkedCopy is the measurement behind copyChunk: one copy call
// against copies of at most 512 KiB, alone and followed by hashing the
// destination (what a save followed by a checksum does). At 1 MiB and more
// the amd64 memmove uses non-temporal stores, which leave the destination
// out of the cache.
func BenchmarkChunkedCopy(b *testing.B) {
	for _, size := range []int{1 << 20, 4 << 20} {
		src, dst := make([]byte, size), make([]byte, size)
		for i := range src {
			src[i] = byte(i * 7)
		}
		name := fmt.Sprintf("%dMiB", size>>20)
		run := func(variant string, f func()) {
			b.Run(name+"/"+variant, func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					f()
				}
			})
		}
		run("one-call", func() { copy(dst, src) })
		run("chunked-512KiB", func() { copyBytes(dst, src) })
		run("one-call+hash", func() { copy(dst, src); xxh3.Hash(dst) })
		run("chunked-512KiB+hash", func() { copyBytes(dst, src); xxh3.Hash(dst) })
	}
}
