package transfer

// bitset is a fixed-size set of chunk indexes.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) has(i int) bool { return b[i/64]&(1<<(uint(i)%64)) != 0 }

func (b bitset) set(i int) { b[i/64] |= 1 << (uint(i) % 64) }

// window returns the 64 bits from index p on: bit k of the result is
// has(p+k), and indexes past the set read as 0.
func (b bitset) window(p int) uint64 {
	w, off := p/64, uint(p)%64
	var v uint64
	if w < len(b) {
		v = b[w] >> off
	}
	if off != 0 && w+1 < len(b) {
		v |= b[w+1] << (64 - off)
	}
	return v
}
