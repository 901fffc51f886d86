// Package endpoint is the per-peer layer between a rollstep engine
// (package core) and a datagram connection (transport.Conn): it owns the
// Conn and every remote peer of one local engine, so the lockstep and
// rollback front ends share it instead of each re-implementing it.
//
// Like core, it is sans-IO at heart: time is the now argument of every
// call, it reads no clock, starts no goroutine and, after New has drawn one
// handshake nonce per peer from Config.Rand (crypto/rand by default, a
// seeded reader in tests), makes no random choice, so a test over
// transport/sim reproduces every byte. It is not safe for concurrent use.
//
// # What it does
//
// The peer table maps core.PeerID i, the engine's peer index, to
// transport.Addr peers[i], the address the Conn uses. Per peer the
// endpoint keeps the outgoing packet sequence, a wire.ReplayWindow, the
// handshake state, when it last heard from the peer and last sent to it,
// the round-trip time measured from the echoes of KeepAlive and input
// packets, and counters of packets and bytes each way and of every dropped
// datagram by reason (PeerStats).
//
// Handshake: each side sends a Hello (wire.HelloSize bytes, with a fresh
// nonce and the match's wire.ConfigDigest) and repeats it every
// HelloInterval until a HelloReply echoing the nonce accepts it; each side
// answers the peer's Hellos, accepting or refusing. A peer is connected
// (EventConnected) once both directions are validated; only then do its
// input packets reach the engine and the engine's messages reach it. A
// mismatch is refused on both sides with EventRefused, whose
// *HandshakeError wraps the *wire.ConfigMismatchError naming the field
// (Players, InputSize, TickRate, ...) or the *wire.VersionError. Before a
// peer is connected the endpoint sends it only its own Hellos, a Leave if
// the host quits, and HelloReplies, each smaller than the Hello it answers
// and at most one per HelloInterval/2: a spoofed source is never amplified.
//
// Receiving: Poll reads at most Config.MaxPoll datagrams, drops garbage,
// other matches' tokens, replays and datagrams from addresses outside the
// table (counted, never answered, no state created), decodes input packets
// into one reused core.Message and hands each to a Receiver, normally the
// *core.Engine itself. In steady state it allocates nothing.
//
// Sending: Send encodes the engine's Ready.Messages with the next sequence
// number of each peer; Tick sends a KeepAlive (stamp and echo, for the
// RTT) to a peer that was sent nothing for KeepAliveInterval, so a busy
// link carries no keep-alives. Between Hold and Flush a Conn that can
// batch (transport/udp on Linux) keeps every datagram and writes them
// together; a datagram the socket then refuses is counted as a failed
// send, and Flush returns what Send would have.
//
// Timers: a connected peer silent for InterruptTimeout raises
// EventInterrupted, a valid packet after that EventResumed, and silence for
// DisconnectTimeout EventDisconnected; a Leave from the peer raises
// EventLeft. On either of the last two the front end calls the engine's
// DisconnectPeer, and core agrees the disconnect frame with the other
// peers. Events carry the now of the call that noticed them; a timer of
// length d armed at t fires in the first Tick with now >= t+d (so 499 ms
// of silence is not an interruption, 500 ms is).
//
// # Keys
//
// Hellos and HelloReplies are tagged with the key of Config.Token. Every
// other packet is tagged with a wire.DirectionKey of the sender's and the
// receiver's seats and of both handshake nonces: each side derives the
// pair's two keys when it accepts the other's Hello, and a packet from a
// peer whose Hello it has not accepted yet is dropped as early. So a
// packet reflected back to its sender, replayed to another peer of the
// match, or replayed from an earlier match under the same token fails its
// tag (PeerStats.WrongToken) and changes nothing.
//
// # Address changes
//
// The Conn names peers; the endpoint never trusts a source address. With a
// Conn that hands datagrams from new addresses a provisional PeerID
// (transport/udp with AcceptUnknown, whose Forget and Rebind the endpoint
// reaches through internal/connhook), the endpoint rebinds (Rebinder) an
// interrupted peer to a provisional source that sends a Hello repeating
// the nonce of that peer's first Hello with a sequence number newer than
// anything the peer sent before, and forgets (Forgetter) every other
// provisional source after its first datagram, whether or not that
// carried the match's token. An interrupted peer repeats its Hello every
// HelloInterval for exactly this reason: when a NAT gives it a new
// address, its peers stop hearing it and it stops hearing them, and its
// next Hello moves it. A connected peer is never moved (it is heard where
// it is), and a captured Hello replayed from another address never is (it
// is older than what the peer sent after it): PeerStats.RebindsRefused
// counts both.
//
// # Restarts
//
// A peer whose process restarted comes back through a restart handshake:
// its new endpoint (Config.Rejoin) sends Rejoin Hellos with a fresh
// nonce, the peers that knew its seat answer with a nonce of their own,
// and only a packet under the keys of both new nonces, which needs the
// token and the answer, replaces the old process (EventRestarted). A
// replayed Hello opens a handshake that never completes and changes
// nothing else; the rule and its reasons are in restart.go. Transfer
// packets (SendTransfer, TransferReceiver) then carry the match's state
// to the new process.
//
// # Open peers
//
// The peers of Config.Open (a session's spectators and open seats) may
// arrive at any time and come back after they went: a new process at an
// open peer's address comes in through the same restart handshake, a
// player's with Config.Rejoin at once, a spectator's without once its
// first handshake timed out or its session ended, and EventRestarted says
// it is there.
//
// # First contact
//
// A host need not know a peer's address in advance (a client behind a NAT
// or a relay such as rollstep proxy, which opens one port per client): it
// lists the peer with no address (transport/udp: a Peer with the zero
// Addr, and AcceptUnknown) and learns it from the peer's first Hello. A
// Hello from a provisional source that passes the tag, decodes, carries
// this protocol and the match's configuration digest, and whose nonce is
// no known peer's, is a first contact of the peer it belongs to (by its
// seat, below) if that peer is still waiting for a first Hello
// (handshaking, no Hello accepted yet): the endpoint rebinds (Rebinder)
// that peer to the source, counts it in PeerStats.FirstContacts and
// handles the Hello as the peer's. The
// reasoning: only a holder of the match token can produce a Hello that
// passes the tag, so a stranger off the path cannot take the seat; the
// first valid Hello wins it (if that was a dishonest token holder, the
// real peer's Hellos are strangers' from then on and its handshake times
// out, which the host sees); and once the peer's Hello is accepted, its
// address changes only by the nonce rule above. The same rule applies to
// a peer whose address was configured: its first Hello from another
// address (a NAT that maps differently than the matchmaker saw) is
// adopted too. Like the nonce rule, this keeps off-path senders out, not
// on-path ones, which can replay a Hello they saw from their own address.
//
// Which peer a first Hello belongs to is told by its seat. Every Hello
// names its sender's seat (Config.Seat: wire.SeatOf of the players its
// engine owns, or wire.NoSeat for a spectator), and Config.Seats gives
// the seat of each peer of the table; lockstep and rollback sessions fill
// both from their Local players and each Peer's Players. A stranger's
// Hello naming seat s goes to the peer of seat s if that peer is still
// waiting; if it is not (taken already) or s is this endpoint's own
// seat, the Hello is dropped and counted in Stats.WrongSeat. A Hello
// naming no seat, or a seat no peer has, goes to the one waiting peer
// configured without a seat (a spectator, or every peer of an endpoint
// given no Seats), and, for a Hello naming no seat when no such peer
// waits, to the one waiting peer: the rule from before Hellos named
// seats. When several peers could have sent it the endpoint does not
// guess: it drops the Hello and counts it in Stats.Ambiguous (the sender
// repeats its Hello, and is adopted once it is the only candidate left);
// when none could, in Stats.WrongSeat. So a host of several peers of
// unknown address learns each from its own Hello, in any order, as long
// as they name their seats; peers that name none must be listed with
// their addresses from the matchmaker's answers, or arrive one at a time.
//
// A Hello that names another seat than its peer's is not that peer's: it
// is dropped without an answer and counted in PeerStats.WrongSeat, from
// the peer's address as from a new one with the peer's nonce. It is not
// refused like a configuration mismatch, for two reasons: a refusal is
// final, so anyone who saw another participant's Hello could end a
// peer's handshake by replaying it from that peer's address, while a
// dropped Hello leaves the real one free to complete it; and the
// HelloReply carries no seat, so the refused side could not name the
// field. Peers that disagree on who owns which player (a matchmaker bug)
// therefore see their handshake time out (ErrHandshakeTimeout) with
// PeerStats.WrongSeat counting, rather than an EventRefused.
//
// # Host loop
//
// A front end drives one engine e and one endpoint ep from its game loop,
// once per tick, with the same now for every call of the tick, between
// ep.Hold() and ep.Flush() so that the tick's datagrams share a system
// call:
//
//  1. ep.Poll(now, e): receive, answer handshakes and keep-alives, hand
//     input messages to e.Receive.
//  2. e.AddLocalInput for each local player.
//  3. r := e.Advance(now).
//  4. ep.Send(now, r.Messages), before the next Advance (the engine reuses
//     the messages).
//  5. ep.Tick(now): Hellos, keep-alives, timeouts.
//  6. Handle ep.Events(): on EventDisconnected or EventLeft call
//     e.DisconnectPeer(ev.Peer); on EventRefused end the session with
//     ev.Err; pause or warn on EventInterrupted until EventResumed.
//  7. Now and then, ep.Peer(p) for what the connection knows of peer p
//     (its state, round trip, bytes and packets).
//
// To quit, call ep.Leave(now, wire.LeaveQuit, e.Frame()), which sends
// Config.LeaveCopies copies to every peer, then ep.Close(). A host that
// sleeps between ticks can wake at ep.Deadline() instead of polling.
//
// # Wire format
//
// Packets are those of package internal/wire; see its documentation for
// the layout, the size bounds and the handshake's amplification rule.
package endpoint
