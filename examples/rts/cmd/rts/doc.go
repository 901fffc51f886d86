// Command rts plays a match of the rts example (package
// github.com/rollstep/rollstep/examples/rts) between bots in lockstep and
// prints, for each peer, its upload in bytes per second (IP and UDP
// headers counted, 28 bytes per datagram) and the time its turns stalled
// waiting for inputs, then the final state checksum.
//
// # Simulated network
//
// Without -peer, every peer runs in this process over package
// transport/sim, in virtual time (a minute of play takes well under a
// second at 1,000 units), so the run is deterministic for its flags:
//
//	go run ./examples/rts/cmd/rts -peers 4 -units 5000 -turns 2000 -latency 40ms -jitter 10ms -loss 0.02 -seed 11
//
// It exits 1 if the peers' checksums differ.
//
// # Real UDP
//
// With -peer, this process plays one player over real UDP sockets on the
// wall clock. -peer lists every player's address in player order, the
// same list for every process; -player is this process's index in it, and
// -listen (default: its own entry) the local address. Every process needs
// the same -units, -turns, -turn and -seed (a mismatched configuration is
// refused in the handshake). Player 0 draws the match's session token from
// crypto/rand and prints it; every other player must be given it with
// -token. The token is the match's secret: whoever knows it can forge
// packets the players accept (the seed is public, so it is never the
// token):
//
//	go run ./examples/rts/cmd/rts -peer 127.0.0.1:7001,127.0.0.1:7002 -player 0 -units 5000 -turns 600
//	go run ./examples/rts/cmd/rts -peer 127.0.0.1:7001,127.0.0.1:7002 -player 1 -units 5000 -turns 600 -token TOKEN
//
// Each prints its upload to every other player, its stall time and the
// checksum after the last turn, which must be the same everywhere. It
// keeps the session running for a second after the last turn so the others
// receive its last inputs. A player that dropped another during the match
// says so and exits 1: the match did not end together, unless that player
// came back. A player whose process was killed mid-match comes back into
// it when started again with the same flags plus -rejoin: it takes the
// match's state from the others, plays on, and prints the same checksum.
//
// -open lists seats that are empty when the match starts (a drop-in): the
// other players start without them, and a player who comes later starts
// with the same flags plus -rejoin, takes the match's state and plays from
// the turn it prints. Every process gets the same -open:
//
//	go run ./examples/rts/cmd/rts -peer A,B,C -player 0 -open 2
//	go run ./examples/rts/cmd/rts -peer A,B,C -player 1 -open 2 -token TOKEN
//	go run ./examples/rts/cmd/rts -peer A,B,C -player 2 -open 2 -token TOKEN -rejoin   (any time later)
//
// -replay FILE records a replay (package replay) of peer 0 (or of
// this player over UDP), written atomically; `rollstep replay info FILE`
// describes it.
//
// # Numbers
//
// On the 2-core development machines (go test -bench Step and the logs
// of TestUploadIndependentOfUnits and TestFourPeersAgree):
//
//   - one turn (one tick) of a match in progress: about 90 µs at 1,000
//     units and 1.9 ms at 10,000, allocating nothing;
//   - upload per peer, 4 peers, 100 ms turns, 40 ms latency, a command
//     every 4 turns: 2,696–2,717 B/s at 10, 1,000, 5,000 and 10,000 units
//     alike;
//   - stall: 40–45 ms in a minute on that link (the first turn only);
//     about 1 s in 200 s with 10 ms of jitter and 2 % loss.
package main
