package arena

// AppendRaw appends the canonical bytes of *s to dst, without the snapshot
// header that Encode writes, and returns the extended slice. It is for small
// values sent many times, such as a player's input in every packet, where
// both sides already agree on the type. It allocates only if dst lacks
// capacity (Size[S]() bytes). Like Encode it panics with the
// *ValidationError if S is not arena-serializable; validate S first. A
// caller that encodes many values keeps a Raw instead, which looks the
// layout up once.
func AppendRaw[S any](dst []byte, s *S) []byte {
	mustLayout[S]()
	return append(dst, bytesOf(s)...)
}

// DecodeRaw sets *s from b, which must be exactly Size[S]() canonical bytes
// as AppendRaw writes them. It returns the *ValidationError if S is not
// arena-serializable, a *TruncatedError or *TrailingError when b has the
// wrong length, and a *BoolError when a bool field holds a byte other than 0
// or 1; on any error *s is unchanged. DecodeRaw never panics and does not
// allocate.
func DecodeRaw[S any](b []byte, s *S) error {
	r, err := RawOf[S]()
	if err != nil {
		return err
	}
	return r.Decode(b, s)
}

// Raw is AppendRaw and DecodeRaw for one type whose layout was looked up
// once, in RawOf: the codec of inputs, which runs for every input of every
// packet, skips the type cache's lookup. The zero Raw is not usable.
type Raw[S any] struct {
	l     *Layout
	size  int  // l.root.size
	bools bool // l.root.hasBool: Decode must check bool bytes
}

// RawOf returns the Raw of S, or the *ValidationError if S is not
// arena-serializable.
func RawOf[S any]() (Raw[S], error) {
	l, err := LayoutOf[S]()
	if err != nil {
		return Raw[S]{}, err
	}
	return Raw[S]{l: l, size: l.root.size, bools: l.root.hasBool}, nil
}

// Append is AppendRaw.
func (Raw[S]) Append(dst []byte, s *S) []byte { return append(dst, bytesOf(s)...) }

// Decode is DecodeRaw.
func (r Raw[S]) Decode(b []byte, s *S) error {
	switch {
	case len(b) < r.size:
		return &TruncatedError{Need: r.size, Have: len(b)}
	case len(b) > r.size:
		return &TrailingError{Extra: len(b) - r.size}
	}
	if r.bools {
		if err := r.l.checkBools(b); err != nil {
			return err
		}
	}
	copyBytes(bytesOf(s), b)
	return nil
}
