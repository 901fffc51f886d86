package transfer

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"testing"
	"time"
)

func FuzzDecodeChunk(f *testing.F) {
	f.Add(AppendChunk(nil, Chunk{ID: 1, Index: 0, Data: []byte{1}}))
	f.Add(AppendChunk(nil, Chunk{ID: 0xffffffff, Index: 0xffffffff, Data: make([]byte, MaxChunkSize)}))
	f.Add(AppendChunk(nil, Chunk{ID: 1, Index: 2, Data: make([]byte, MaxChunkSize+1)}))
	f.Add(AppendChunk(nil, Chunk{ID: 1, Index: 2}))
	f.Add(AppendAck(nil, Ack{ID: 1}))
	f.Add([]byte{})
	f.Add([]byte{KindChunk})
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := DecodeChunk(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		if again := AppendChunk(nil, c); !bytes.Equal(again, b) {
			t.Fatalf("re-encodes to % x", again)
		}
	})
}

func FuzzDecodeAck(f *testing.F) {
	f.Add(AppendAck(nil, Ack{}))
	f.Add(AppendAck(nil, Ack{ID: 7, Next: 3, Mask: 1<<63 | 5}))
	f.Add(AppendAck(nil, Ack{ID: 7})[:AckSize-1])
	f.Add(append(AppendAck(nil, Ack{ID: 7}), 0))
	f.Add(AppendChunk(nil, Chunk{Data: make([]byte, 8)}))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeAck(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		if again := AppendAck(nil, a); !bytes.Equal(again, b) {
			t.Fatalf("re-encodes to % x", again)
		}
	})
}

func FuzzDecodeOffer(f *testing.F) {
	f.Add(AppendOffer(nil, Offer{ID: 1, Size: 100, RawSize: 300, ChunkSize: 1024}))
	f.Add(AppendOffer(nil, Offer{ID: 1, Size: 1 << 30, RawSize: 1<<31 - 1, ChunkSize: 0xffff}))
	f.Add(append(AppendOffer(nil, Offer{}), 1))
	f.Add([]byte{KindOffer, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := DecodeOffer(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		if again := AppendOffer(nil, o); !bytes.Equal(again, b) {
			t.Fatalf("re-encodes to % x", again)
		}
		if err := o.Validate(1 << 20); err == nil {
			if _, err := NewReceiver(o, 1<<20); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzReceiver feeds a receiver an arbitrary sequence of chunks and
// checks it against a model: the first copy of each well-shaped chunk
// wins, the ack describes exactly what arrived, and the blob is the chunks
// put together. Each record of 6 bytes of ops (index, length, fill byte,
// flags; at most 32 records) describes a run of 1 to 16 chunks, each
// encoded with AppendChunk and decoded with DecodeChunk. Describing the
// data rather than including it keeps inputs short, which the minimizer
// (quadratic in the input's length) needs; FuzzDecodeChunk covers
// arbitrary bytes.
func FuzzReceiver(f *testing.F) {
	op := func(index, length uint16, fill, flags byte) []byte {
		return []byte{byte(index), byte(index >> 8), byte(length), byte(length >> 8), fill, flags}
	}
	join := func(ops ...[]byte) []byte { return bytes.Join(ops, nil) }
	const (
		wrongID     = 1 // another transfer
		wrongLength = 2 // length%(MaxChunkSize+1) instead of the chunk's
		farIndex    = 4 // index<<16 | index instead of index%(chunks+2)
		// flags>>4 is the run length minus 1
	)
	f.Add(uint16(199), uint16(0), join(op(0, 0, 1, 0), op(3, 0, 2, 0), op(1, 0, 3, 0), op(2, 0, 4, 0)))
	f.Add(uint16(0), uint16(0), op(0, 0, 9, 0))
	f.Add(uint16(5000), uint16(900), join(op(0, 0, 1, wrongID), op(9, 0, 1, farIndex), op(0, 5, 1, wrongLength), op(0, 0, 2, 0), op(0, 0, 3, 0)))
	f.Add(uint16(19_999), uint16(0), join(op(100, 0, 1, 0), op(300, 0, 1, 0), op(312, 0, 1, 0), op(312, 1100, 1, wrongLength)))
	whole := make([][]byte, 20) // 20 runs of 16: all 313 chunks of 64 bytes
	for k := range whole {
		whole[k] = op(uint16(16*(19-k)), 0, byte(k), 0xf0)
	}
	f.Add(uint16(19_999), uint16(0), join(whole...))
	f.Fuzz(func(t *testing.T, size, chunkSize uint16, ops []byte) {
		o := Offer{ID: 7, Size: 1 + int(size)%20_000, ChunkSize: MinChunkSize + int(chunkSize)%(MaxChunkSize-MinChunkSize+1)}
		o.RawSize = o.Size
		r, err := NewReceiver(o, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := o.Chunks()
		model := make([][]byte, n)
		data := make([]byte, MaxChunkSize)
		buf := make([]byte, 0, ChunkHeaderSize+MaxChunkSize)
		var runs []chunkRun
		for k := 0; len(ops) >= 6 && k < 32; ops, k = ops[6:], k+1 {
			index, length := binary.LittleEndian.Uint16(ops), binary.LittleEndian.Uint16(ops[2:])
			fill, flags := ops[4], ops[5]
			for i := range 1 + int(flags>>4) {
				runs = append(runs, chunkRun{index + uint16(i), length, fill + byte(i), flags})
			}
		}
		for _, run := range runs {
			index, length, fill, flags := run.index, run.length, run.fill, run.flags
			c := Chunk{ID: o.ID, Index: uint32(index) % uint32(n+2)}
			if flags&wrongID != 0 {
				c.ID = 8
			}
			if flags&farIndex != 0 {
				c.Index = uint32(index)<<16 | uint32(index)
			}
			l := int(length) % (MaxChunkSize + 1)
			if flags&wrongLength == 0 && int64(c.Index) < int64(n) {
				start, end := o.span(int(c.Index))
				l = end - start
			}
			for i := range l {
				data[i] = fill ^ byte(i)
			}
			msg := AppendChunk(buf[:0], Chunk{ID: c.ID, Index: c.Index, Data: data[:l]})
			c, err := DecodeChunk(msg)
			if l == 0 {
				if err == nil {
					t.Fatal("decoded a chunk without data")
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := r.OnChunk(c)
			ok := c.ID == o.ID && int64(c.Index) < int64(n)
			if ok {
				start, end := o.span(int(c.Index))
				ok = len(c.Data) == end-start
			}
			switch {
			case !ok && err == nil:
				t.Fatalf("accepted chunk %d of %d bytes, transfer %d", c.Index, len(c.Data), c.ID)
			case ok && err != nil:
				t.Fatalf("refused chunk %d: %v", c.Index, err)
			case err != nil && !errors.Is(err, ErrWrongTransfer) && !errors.Is(err, ErrBadIndex) && !errors.Is(err, ErrBadLength):
				t.Fatalf("untyped error %v", err)
			case ok:
				if fresh != (model[c.Index] == nil) {
					t.Fatalf("chunk %d fresh %v", c.Index, fresh)
				}
				if fresh {
					model[c.Index] = bytes.Clone(c.Data)
				}
			}
		}
		a := r.Ack()
		next := 0
		for next < n && model[next] != nil {
			next++
		}
		if a.ID != o.ID || int(a.Next) != next {
			t.Fatalf("ack %+v, next %d", a, next)
		}
		for b := range 64 {
			j := next + 1 + b
			if want := j < n && model[j] != nil; want != (a.Mask&(1<<b) != 0) {
				t.Fatalf("ack %+v: bit %d", a, b)
			}
		}
		if r.Complete() != (next == n) {
			t.Fatal("Complete disagrees")
		}
		if r.Complete() {
			if want := bytes.Join(model, nil); !bytes.Equal(r.Blob(), want) {
				t.Fatal("blob differs from the chunks")
			}
		} else if r.Blob() != nil {
			t.Fatal("blob before complete")
		}
	})
}

type chunkRun struct {
	index, length uint16
	fill, flags   byte
}

func FuzzDecompress(f *testing.F) {
	raw := pseudoState(3000, 1)
	blob := Compress(raw)
	f.Add(blob, uint32(len(raw)))
	f.Add(blob, uint32(len(raw)-1))
	f.Add(blob[:len(blob)/2], uint32(len(raw)))
	f.Add(Compress(nil), uint32(0))
	f.Add(Compress(randomBytes(500, 2)), uint32(500))
	var bomb bytes.Buffer
	w, _ := flate.NewWriter(&bomb, flate.BestCompression)
	_, _ = w.Write(make([]byte, 1<<20))
	_ = w.Close()
	f.Add(bomb.Bytes(), uint32(100))
	f.Add([]byte{0x07}, uint32(1))
	f.Add([]byte{}, uint32(1<<31))
	f.Fuzz(func(t *testing.T, blob []byte, rawSize uint32) {
		const maxSize = 1 << 16
		n := int(rawSize % (2 * maxSize))
		got, err := Decompress(blob, n, maxSize)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("untyped error %v", err)
			}
			if n > maxSize != errors.Is(err, ErrTooLarge) {
				t.Fatalf("raw size %d: %v", n, err)
			}
			return
		}
		if len(got) != n {
			t.Fatalf("%d bytes, %d announced", len(got), n)
		}
	})
}

// FuzzSenderAcks feeds a sender arbitrary acks between sends: it never
// panics, refuses with typed errors, and is Done only when an accepted
// ack covered every chunk.
func FuzzSenderAcks(f *testing.F) {
	f.Add(uint16(3000), []byte{})
	f.Add(uint16(3000), AppendAck(nil, Ack{ID: 7, Next: 3}))
	f.Add(uint16(100), AppendAck(nil, Ack{ID: 7, Next: 0, Mask: 1}))
	f.Fuzz(func(t *testing.T, size uint16, acks []byte) {
		o := Offer{ID: 7, Size: 1 + int(size)%50_000, ChunkSize: 100}
		o.RawSize = o.Size
		s, err := NewSender(SenderConfig{Timeout: 24 * time.Hour}, o, make([]byte, o.Size))
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 0, 200)
		var now time.Duration
		for len(acks) >= AckSize {
			for {
				if _, ok := s.Next(now, buf[:0]); !ok {
					break
				}
			}
			a, _ := DecodeAck(append([]byte{KindAck}, acks[1:AckSize]...))
			acks = acks[AckSize:]
			if err := s.OnAck(now, a); err != nil && !errors.Is(err, ErrWrongTransfer) && !errors.Is(err, ErrBadAck) {
				t.Fatalf("untyped error %v", err)
			}
			if s.ackedCount > s.nextNew || s.base > s.nextNew {
				t.Fatalf("acked %d, base %d, sent %d", s.ackedCount, s.base, s.nextNew)
			}
			if w := s.Wake(now); w < now {
				t.Fatalf("Wake %v before now %v", w, now)
			}
			now += 7 * time.Millisecond
		}
	})
}
