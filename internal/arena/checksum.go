package arena

import "github.com/zeebo/xxh3"

// Checksum returns the xxh3-64 hash of the canonical bytes of *s, which are
// its memory bytes. For a type that passed Validate the result is the same
// on every supported target for equal states; that is what desync detection
// compares. Checksum does not validate S (it is called every frame): for a
// type that fails Validate it hashes addresses and padding and means nothing.
// It does not allocate.
func Checksum[S any](s *S) uint64 {
	return xxh3.Hash(bytesOf(s))
}

// DefaultBlockSize is the block size BlockHashes uses when given 0 or less.
const DefaultBlockSize = 4096

// BlockHashes appends to dst the xxh3-64 hash of each blockSize-byte block
// of the canonical bytes of *s, in order, and returns the extended slice.
// The last block may be shorter. A blockSize of 0 or less means
// DefaultBlockSize. Two peers whose checksums differ can exchange block
// hashes instead of states to find the region that differs, and name it with
// FieldAt(block*blockSize). It allocates only if dst lacks capacity.
func BlockHashes[S any](s *S, blockSize int, dst []uint64) []uint64 {
	if blockSize <= 0 {
		blockSize = DefaultBlockSize
	}
	b := bytesOf(s)
	for len(b) > blockSize {
		dst = append(dst, xxh3.Hash(b[:blockSize]))
		b = b[blockSize:]
	}
	if len(b) > 0 {
		dst = append(dst, xxh3.Hash(b))
	}
	return dst
}
