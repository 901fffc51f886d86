package stream_test

import (
	"fmt"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/stream"
)

// A spectator's acknowledgement counts only up to what it was sent: one
// that claims frames it was never sent acknowledges nothing.
func ExampleStreamer_Receive() {
	var st stream.Streamer[engine.Slot[uint16]]
	st.Init(2, 1, stream.Config{Delay: 30, MaxLag: 600}, 1, func(ev core.Event) { fmt.Printf("%+v\n", ev) })
	st.Receive(0, &engine.Message[engine.Slot[uint16]]{Held: [core.MaxPlayers]core.Frame{500}})
	s := st.Stats(nil)[0]
	fmt.Printf("joined %v, acknowledged %d frames\n", s.Joined, s.Acked)
	// Output:
	// joined false, acknowledged 0 frames
}
