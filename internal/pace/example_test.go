package pace_test

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep/internal/pace"
)

func Example() {
	p, err := pace.New(pace.Config{Period: 100 * time.Millisecond, MaxSteps: 2})
	if err != nil {
		panic(err)
	}
	p.Update(0) // starts the clock
	for _, now := range []time.Duration{50, 100, 450, 460, 600, 700} {
		n := p.Update(now * time.Millisecond)
		ran := 0
		for range n {
			if now == 600 { // the engine waits for an input
				p.Block()
				break
			}
			p.Step()
			ran++
		}
		fmt.Printf("t=%dms granted=%d ran=%d fraction=%.2f\n", now, n, ran, p.Fraction().Float64())
	}
	fmt.Println("stalled", p.Stalled())
	// Output:
	// t=50ms granted=0 ran=0 fraction=0.50
	// t=100ms granted=1 ran=1 fraction=0.00
	// t=450ms granted=2 ran=2 fraction=1.00
	// t=460ms granted=1 ran=1 fraction=0.60
	// t=600ms granted=2 ran=0 fraction=1.00
	// t=700ms granted=2 ran=2 fraction=0.00
	// stalled 100ms
}
