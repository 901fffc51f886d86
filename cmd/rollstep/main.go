package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args, writing results to stdout and
// diagnostics to stderr, and returns the process exit code: 0 on success,
// 1 when the command ran and failed, 2 for a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "sim":
		return runSim(args[1:], stdout, stderr)
	case "proxy":
		return runProxy(args[1:], stdout, stderr)
	case "benchgate":
		return runBenchgate(args[1:], stdout, stderr)
	case "replay":
		return runReplay(args[1:], stdout, stderr)
	case "signal":
		return runSignal(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "rollstep: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: rollstep <command> [flags]

commands:
  sim    run a match of simulated peers on a virtual-time network and report
         stalls, rollbacks, bandwidth and desyncs per peer
  proxy  forward UDP between a listen and an upstream address over real
         sockets, applying seeded latency, loss, duplication, reordering
         and a bandwidth cap (the impairments of the sim network)
  benchgate  check go test -bench output (stdin) against bench/budgets.txt
  replay     replay info FILE | replay verify FILE: show or re-simulate a replay
  signal     serve matchmaking and WebRTC signaling over WebSocket (package lobby)

Run 'rollstep <command> -h' for the flags of a command.
`)
}
