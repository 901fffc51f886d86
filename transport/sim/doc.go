// Package sim is a simulated datagram network on virtual time, for tests of
// rollstep's engine and front ends and for the scenario simulator
// (cmd/rollstep sim).
//
// A Network holds endpoints, each a transport.Conn, joined by directed
// links. Each link has a latency profile, loss, duplication, reordering, a
// bandwidth cap and can be cut. Nothing runs in the background: there are
// no goroutines, no clock reads and no sleeps. Virtual time moves only
// when the test calls Advance, RunUntil or RunUntilIdle, which deliver the
// datagrams that are due. Every random choice comes from Config.Seed, so
// the same seed and the same calls deliver the same datagrams at the same
// virtual times, on every platform.
//
// # The host loop
//
// A test drives N peers over a Network like this:
//
//  1. Make the network with New and one endpoint per peer with
//     NewEndpoint; endpoint i has transport.Addr i. Configure links with
//     SetLink, or all at once with Config.Link.
//  2. For every peer, drain its endpoint with Receive and feed the
//     datagrams to the peer's session.
//  3. Advance every session to Now and Send what it produced.
//  4. Move virtual time forward: Advance by a tick, or jump with RunUntil
//     to the earlier of the next tick and Next, the next arrival.
//  5. Repeat from 2, cutting and healing links (Cut, Partition, Heal) or
//     changing them (SetLink) between steps as the scenario requires.
//  6. Read the per-link counters with Stats, Outbound and Inbound.
//
// # What a link does to a datagram
//
// The fate of a datagram is decided when it is sent, in this order (see
// LinkConfig): dropped if the link is cut, then with probability Loss, then
// if the bandwidth queue is full; queued behind earlier datagrams for
// ⌈wire bytes · 10⁹ / Bandwidth⌉ ns each; delayed by the latency profile
// in force at the send time. Links are first in, first out: a datagram
// never arrives before one sent earlier on the same link, so jitter and
// the end of a spike bunch datagrams up rather than reorder them.
// Reordering is explicit: with probability Reorder a datagram is held back
// by an extra ReorderDelay outside the FIFO order, and datagrams sent
// after it may overtake it. With probability Duplicate a second copy
// arrives right after the original, at the same virtual time. Datagrams
// already in flight are not affected by later cuts or configuration
// changes.
//
// Arrivals at equal virtual times are delivered in the order the
// datagrams were sent across the whole network. Each link draws from its
// own PCG stream, seeded from Config.Seed and the link's endpoints, so
// traffic on one link never changes the random choices of another.
//
// # Shaping real traffic
//
// The decision is made by one model per directed link, which reads no
// clock: given a send time and a size it decides to drop the datagram or
// when it arrives, maybe twice. cmd/rollstep proxy runs the same model
// over real UDP sockets with a real clock, so a loopback test of real
// processes sees the impairments a Network would apply: with the same
// seed and link endpoints it makes the same decisions as the
// corresponding link of a Network. The model is not part of this
// package's API.
//
// # Latency profiles
//
// A Latency is a base with optional uniform jitter, "50ms±10ms", and an
// optional periodic spike "400ms/600ms/2s": for datagrams sent during the
// first 600 ms of every 2 s period, counted from time zero, the one-way
// latency is 400 ms. A LinkConfig.Schedule switches profiles at given
// virtual times. Latency.String and Spike.String write these text forms,
// which the -latency and -spike flags of cmd/rollstep read.
//
// # Counters
//
// Every counter counts datagrams and wire bytes, which include
// transport.HeaderOverhead (28 bytes of IPv4 and UDP header) per datagram,
// so bytes divided by virtual time is a bandwidth comparable to a real
// network's.
//
// # Goroutines and testing/synctest
//
// A Network is not safe for concurrent use. Code under test that runs its
// own goroutines and real timers (a DTLS handshake, a driver with
// deadlines) can still use it inside a testing/synctest bubble, where the
// time package runs on a fake clock:
//
//  1. Record start := time.Now() and guard the network and its endpoints
//     with one mutex.
//  2. Every use locks and first calls RunUntil(time.Since(start)), so that
//     a Send leaves at the right virtual time.
//  3. A pump goroutine loops: lock, bring time up to date, read Next,
//     unlock, and sleep until that arrival (or a short poll interval when
//     nothing is in flight) or until told to stop.
//
// Inside the bubble those sleeps take no real time and virtual time equals
// the bubble's clock, so latencies stay exact. TestSynctestPump shows the
// pattern; a net.PacketConn adapter built on it is future work.
package sim
