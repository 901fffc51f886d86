package main

import (
	"fmt"
	"os"
)

// A short rollback match of three peers on a lossy link; -json would print
// the same report as one JSON object.
func Example_sim() {
	code := run([]string{"sim", "-mode", "rollback", "-peers", "3", "-frames", "120",
		"-latency", "40ms", "-loss", "0.05", "-seed", "7"}, os.Stdout, os.Stderr)
	fmt.Println("exit code", code)
	// Output:
	// rollback: 3 peers, 120 frames in 2.2 s of virtual time
	//   peer  stall s  frame ms  rollbacks  resimulated  upload B/s  D  W
	//      0     0.00      16.7         31           96        9862  0  8
	//      1     0.00      16.7         49          147        9349  0  8
	//      2     0.00      16.7         50          151        9208  0  8
	// final checksums: all equal (ff17ed2e2dfcc82a)
	// exit code 0
}
