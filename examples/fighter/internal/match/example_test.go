package match_test

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep/examples/fighter/internal/match"
)

// Two bots play ten seconds of netplay over a simulated network with 80 ms
// of latency each way and 3 % loss; both peers confirm the same state for
// every frame.
func ExampleRunSim() {
	r, err := match.RunSim(match.SimConfig{Frames: 600, Latency: 80 * time.Millisecond, Loss: 0.03, Seed: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("frames compared:", r.Compared)
	fmt.Println("all equal:", !r.HasMismatch && r.Peers[0].Checksum == r.Peers[1].Checksum)
	fmt.Println("rolled back:", r.Peers[0].Rollbacks > 0 && r.Peers[1].Rollbacks > 0)
	// Output:
	// frames compared: 600
	// all equal: true
	// rolled back: true
}
