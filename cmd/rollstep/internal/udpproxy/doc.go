// Package udpproxy is the UDP impairment proxy behind cmd/rollstep proxy:
// it forwards datagrams between clients and one upstream address over
// real sockets, and applies to them the impairments of transport/sim —
// latency profiles with jitter and spikes, loss, duplication, reordering,
// a bandwidth cap with a queue limit — decided by the same simlink.Shaper
// that the virtual-time network uses, from a seed. The kernel of the
// development machines has no netem; this is the substitute for tests of
// real processes on loopback.
//
// The package lives under cmd/rollstep/internal because it is a tool, not
// part of the library: the library's own tests run on transport/sim's
// virtual time, and only the CLI and its tests need real sockets.
//
// # Core and driver
//
// The proxy is split the way rollstep splits everything:
//
//   - Scheduler is the core. It reads no clock and does no I/O: Submit
//     takes the time a datagram was received and decides its fate with the
//     direction's simlink.Shaper; Next says when the earliest survivor is due;
//     Pop hands over what is due at a given time. Tests drive it on any
//     clock and check exact arrival times and counts for a seed.
//   - Proxy is the driver. It owns the sockets and the only clock
//     (Config.Clock, the time since New by default), and runs one goroutine
//     per socket reader plus one delivery loop.
//
// # The driver loop
//
//  1. New binds the listen socket (port 0 picks a free one; Addr reports
//     it) and resolves the upstream address.
//  2. Run starts a reader on the listen socket. The first datagram from a
//     client address opens a socket connected to the upstream for that
//     client, with its own reader, so replies map back to the client; at
//     most Config.MaxClients addresses are served.
//  3. Every datagram read is submitted to the Scheduler at the current
//     clock value, in direction Up (client to upstream) or Down (upstream
//     to client). The Up shaper is the link 0 → 1 and the Down shaper the
//     link 1 → 0 of a sim.Network with the same seed, so a run can be
//     replayed on virtual time.
//  4. The delivery loop pops every datagram due, writes it (Up on the
//     client's upstream socket, Down from the listen socket to the
//     client), then sleeps on a timer until the next arrival or until a
//     reader submits something new.
//  5. When the context is done, Run stops the delivery loop, closes every
//     socket, waits for the readers, counts what was still in flight as
//     discarded and returns the Stats.
//
// # Timing
//
// A datagram leaves the proxy no earlier than its decided arrival time,
// measured from the moment the proxy read it, so the latency a receiver
// sees is at least the configured one; timer and scheduling delays only
// add to it (typically well under a millisecond on an idle machine, more
// on a loaded one). Which datagrams are lost, duplicated or reordered
// depends only on the seed and on the order of the datagrams in each
// direction, not on their timing, unless spikes, a schedule or a queue
// limit are configured: those make the number of random values a datagram
// draws depend on when it was sent.
package udpproxy
