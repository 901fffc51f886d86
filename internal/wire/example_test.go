package wire_test

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/wire"
)

// Pad is a 2-byte game input.
type Pad struct {
	Buttons uint8
	Stick   uint8
}

func Example() {
	const token = 0x1234_5678_9abc_def0 // from the matchmaker
	key := wire.NewKey(token)           // derived once per match
	codec, err := wire.NewCodec[Pad]()
	if err != nil {
		panic(err)
	}

	// The sender: six frames the peer has not acknowledged, one change.
	a, b := Pad{Buttons: 1}, Pad{Buttons: 1, Stick: 4}
	msg := engine.Message[Pad]{
		Frame:  120,
		Held:   [core.MaxPlayers]core.Frame{122, 118},
		Inputs: []engine.InputRun[Pad]{{Player: 0, Start: 116, Values: []Pad{a, a, a, b, b, b}}},
		Stamp:  2 * time.Second,
	}
	buf := make([]byte, 0, wire.MaxDatagram)
	buf, fit, err := codec.AppendInput(buf, key, 7, &msg)
	if err != nil {
		panic(err)
	}
	fmt.Println("sent", len(buf), "bytes,", fit.Values, "inputs, complete:", fit.Complete())

	// The receiver: check the header, the tag and the sequence, then
	// decode into a message it reuses for every packet. The window
	// expands the 16-bit sequence number on the wire.
	var window wire.ReplayWindow
	var got engine.Message[Pad]
	h, err := wire.ParseHeader(buf, key, &window)
	if err != nil {
		panic(err)
	}
	if err := window.Check(h.Seq); err != nil {
		panic(err)
	}
	if _, err := codec.DecodeInput(buf, key, &window, &got); err != nil {
		panic(err)
	}
	_ = window.Accept(h.Seq)
	fmt.Println(h.Type, "seq", h.Seq, "frame", got.Frame, "inputs", got.Inputs[0].Values)

	// The same packet again is a replay.
	fmt.Println(window.Accept(h.Seq))

	// Another match's token is refused: the tag does not match.
	_, err = wire.ParseHeader(buf, wire.NewKey(token+1), &window)
	fmt.Println(err)
	// Output:
	// sent 24 bytes, 6 inputs, complete: true
	// input seq 7 frame 120 inputs [{1 0} {1 0} {1 0} {1 4} {1 4} {1 4}]
	// wire: replayed packet
	// wire: wrong session token at offset 0: authentication tag
}
