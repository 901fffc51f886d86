package wire

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
)

// randDuration returns a duration of random magnitude and sign.
func randDuration(r *rand.Rand) time.Duration {
	d := time.Duration(r.Int64N(1 << uint(r.IntN(62))))
	if r.IntN(4) == 0 {
		d = -d
	}
	return d
}

func randDigest(r *rand.Rand) ConfigDigest {
	d := ConfigDigest{
		Players:          uint8(r.Uint32()),
		InputSize:        uint16(r.Uint32()),
		TickRate:         uint16(r.Uint32()),
		ChecksumInterval: uint16(r.Uint32()),
		InputLayout:      r.Uint64(),
	}
	for i := range d.Game {
		d.Game[i] = byte(r.Uint32())
	}
	return d
}

func randHello(r *rand.Rand) Hello {
	return Hello{Protocol: uint16(r.Uint32()), Nonce: r.Uint64(), Config: randDigest(r), Seat: Seat(r.IntN(17)), Rejoin: r.IntN(2) == 0}
}

func randHelloReply(r *rand.Rand) HelloReply {
	h := HelloReply{Status: ReplyStatus(1 + r.IntN(3)), Protocol: uint16(r.Uint32()), Nonce: r.Uint64(), Config: randDigest(r)}
	if r.IntN(2) == 0 {
		h.Replier = r.Uint64() | 1
	}
	return h
}

func randKeepAlive(r *rand.Rand) KeepAlive {
	k := KeepAlive{Stamp: randDuration(r).Abs().Truncate(time.Microsecond)}
	if r.IntN(2) == 0 {
		k.HasEcho = true
		k.Echo = randDuration(r).Truncate(time.Microsecond)
		k.EchoDelay = randDuration(r).Abs().Truncate(time.Microsecond)
	}
	k.Lost = r.IntN(4) == 0
	return k
}

func randLeave(r *rand.Rand) Leave {
	return Leave{Reason: LeaveReason(1 + r.IntN(4)), Frame: core.Frame(r.Int32N(math.MaxInt32))}
}

// controlCase is one control type's encoder, decoder and generator, so the
// tests below run over every type.
type controlCase struct {
	name string
	typ  Type
	// roundTrip encodes a random value, decodes it and reports whether
	// the result is equal; it returns the packet.
	roundTrip func(r *rand.Rand, seq uint64) (p []byte, equal bool, err error)
	// decode decodes p and discards the value.
	decode func(p []byte) error
}

// encoder and decoderOf are the signatures of the control encoders and
// decoders.
type (
	encoder[T any]   func([]byte, Key, uint64, *T) ([]byte, error)
	decoderOf[T any] func([]byte, Key, *ReplayWindow, *T) (Header, error)
)

func rt[T comparable](gen func(*rand.Rand) T, enc encoder[T], dec decoderOf[T]) func(*rand.Rand, uint64) ([]byte, bool, error) {
	return func(r *rand.Rand, seq uint64) ([]byte, bool, error) {
		v := gen(r)
		p, err := enc(nil, testKey, seq, &v)
		if err != nil {
			return nil, false, err
		}
		var got T
		h, err := dec(p, testKey, winAt(seq), &got)
		if err != nil {
			return p, false, err
		}
		return p, got == v && h.Seq == seq, nil
	}
}

// dc returns a decode function over testWindow.
func dc[T any](dec decoderOf[T]) func([]byte) error {
	return func(p []byte) error {
		var v T
		_, err := dec(p, testKey, testWindow(), &v)
		return err
	}
}

var controlCases = []controlCase{
	{"hello", TypeHello, rt(randHello, AppendHello, DecodeHello), dc(DecodeHello)},
	{"hello-reply", TypeHelloReply, rt(randHelloReply, AppendHelloReply, DecodeHelloReply), dc(DecodeHelloReply)},
	{"keep-alive", TypeKeepAlive, rt(randKeepAlive, AppendKeepAlive, DecodeKeepAlive), dc(DecodeKeepAlive)},
	{"leave", TypeLeave, rt(randLeave, AppendLeave, DecodeLeave), dc(DecodeLeave)},
	matchCase,
}

func TestControlRoundTrip(t *testing.T) {
	for _, tc := range controlCases {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(2, uint64(tc.typ)))
			for i := range 2000 {
				p, equal, err := tc.roundTrip(r, r.Uint64()>>uint(r.IntN(64)))
				if err != nil {
					t.Fatalf("value %d: %v", i, err)
				}
				if !equal {
					t.Fatalf("value %d: round trip differs (packet %x)", i, p)
				}
				if tc.typ == TypeHello && len(p) != HelloSize {
					t.Fatalf("value %d: hello is %d bytes, want %d", i, len(p), HelloSize)
				}
			}
		})
	}
}

func TestStampsTruncateToMicroseconds(t *testing.T) {
	k := KeepAlive{Stamp: 1500*time.Nanosecond + time.Second, Echo: -2999 * time.Nanosecond, EchoDelay: 999, HasEcho: true}
	p, _ := AppendKeepAlive(nil, testKey, 1, &k)
	var got KeepAlive
	if _, err := DecodeKeepAlive(p, testKey, nil, &got); err != nil {
		t.Fatal(err)
	}
	want := KeepAlive{Stamp: time.Second + time.Microsecond, Echo: -2 * time.Microsecond, EchoDelay: 0, HasEcho: true}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestEncodeRejectsInvalid(t *testing.T) {
	t.Run("input2", testEncodeRejects[input2])
	// The quick encoder's codec: a message it would take but for one
	// invalid field must not be encoded either.
	t.Run("slot", testEncodeRejects[engine.Slot[inputBool]])
}

func testEncodeRejects[I comparable](t *testing.T) {
	c, err := NewCodec[I]()
	if err != nil {
		t.Fatal(err)
	}
	// tooLong is 2^31 on 64-bit targets; on 32-bit ones the conversion
	// wraps to a negative length, which is just as invalid.
	over := int64(math.MaxInt32) + 1
	tooLong := int(over)
	one := []engine.InputRun[I]{{Player: 1, Start: 5, Values: make([]I, 1)}}
	msgs := map[string]*engine.Message[I]{
		"Frame":             {Frame: -1, Inputs: one},
		"Held[3]":           {Held: [core.MaxPlayers]core.Frame{3: -5}, Inputs: one},
		"ChecksumAck":       {ChecksumAck: -1, Inputs: one},
		"Stamp":             {Stamp: -1, Inputs: one},
		"EchoDelay":         {HasEcho: true, EchoDelay: -1, Inputs: one},
		"HasEcho":           {NoStamp: true, HasEcho: true, Inputs: one},
		"Checksums[0]":      {Checksums: []engine.ChecksumReport{{Frame: -1}}, Inputs: one},
		"Checksums[1]":      {Checksums: []engine.ChecksumReport{{Frame: 3}, {Frame: -1}}, Inputs: one},
		"Blocks.Frame":      {Blocks: engine.BlockReport{Frame: -1, Hashes: []uint64{1}}},
		"Blocks.BlockSize":  {Blocks: engine.BlockReport{BlockSize: -1, Hashes: []uint64{1}}},
		"Blocks.Offset":     {Blocks: engine.BlockReport{Offset: -1, Hashes: []uint64{1}}},
		"Blocks.Length":     {Blocks: engine.BlockReport{Length: tooLong, Hashes: []uint64{1}}},
		"Answers[0].Frame":  {Answers: [engine.MaxAnswers]engine.BlockAnswer{{Frame: -1, Length: 1}}},
		"Answers[0].Offset": {Answers: [engine.MaxAnswers]engine.BlockAnswer{{Offset: -1, Length: 1}}},
		"Answers[1].Length": {Answers: [engine.MaxAnswers]engine.BlockAnswer{{Length: 1}, {Length: -1}}},
		"Answers[3].Differ": {Answers: [engine.MaxAnswers]engine.BlockAnswer{3: {Length: 1, Unavailable: true, Differ: 1}}},
		"Inputs":            {Inputs: make([]engine.InputRun[I], 17)},
		"Inputs[0].Player":  {Inputs: []engine.InputRun[I]{{Player: 16, Values: make([]I, 1)}}},
		"Inputs[0].Player-": {Inputs: []engine.InputRun[I]{{Player: -1, Values: make([]I, 1)}}},
		"Inputs[1].Start":   {Inputs: []engine.InputRun[I]{one[0], {Start: -1, Values: make([]I, 1)}}},
		"Inputs[0].Start":   {Inputs: []engine.InputRun[I]{{Start: math.MaxInt32, Values: make([]I, 2)}}},
	}
	for name, m := range msgs {
		out, _, err := c.AppendInput([]byte{7}, testKey, 1, m)
		if !errorsIs(err, ErrInvalidMessage) || len(out) != 1 {
			t.Errorf("%s: got %v (%d bytes), want ErrInvalidMessage and dst unchanged", name, err, len(out))
		}
	}
}

func TestEncodeRejectsInvalidControl(t *testing.T) {
	if _, err := AppendLeave(nil, testKey, 1, &Leave{}); !errorsIs(err, ErrInvalidMessage) {
		t.Errorf("leave with unknown reason: got %v", err)
	}
	if _, err := AppendLeave(nil, testKey, 1, &Leave{Reason: LeaveQuit, Frame: -1}); !errorsIs(err, ErrInvalidMessage) {
		t.Errorf("leave with negative frame: got %v", err)
	}
	if _, err := AppendHelloReply(nil, testKey, 1, &HelloReply{Status: 9}); !errorsIs(err, ErrInvalidMessage) {
		t.Errorf("reply with unknown status: got %v", err)
	}
	if _, err := AppendKeepAlive(nil, testKey, 1, &KeepAlive{Stamp: -1}); !errorsIs(err, ErrInvalidMessage) {
		t.Errorf("keep-alive with negative stamp: got %v", err)
	}
}
