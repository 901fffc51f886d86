package hostile_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/rollstep/rollstep/internal/hostile"
)

// A plaintext DTLS record at epoch 0, which anyone can make without a
// key, and the bursts of one phase made from a capture.
func Example() {
	fmt.Printf("% x\n", hostile.PlaintextRecord(23, 5, []byte("hi")))

	captured := [][]byte{{0xA1, 1, 0, 9, 9, 9, 9, 9}}
	for _, ph := range hostile.Phases(nil, 3) {
		if ph.Name == "replays" {
			burst := ph.Make(rand.New(rand.NewPCG(1, 2)), captured, nil)
			fmt.Println(ph.Name, len(burst), "datagrams, the first", len(burst[0]), "bytes")
		}
	}
	// Output:
	// 17 fe fd 00 00 00 00 00 00 00 05 00 02 68 69
	// replays 3 datagrams, the first 8 bytes
}
