// Package transport carries rollstep's datagrams between peers.
//
// The engine in core/ does no I/O: it takes messages and a time, and returns
// messages to send. The front ends (lockstep/, rollback/) move those
// messages over a Conn, a small datagram interface that a game loop drives
// without blocking. Implementations live in subpackages: transport/sim is a
// virtual-time network with seeded impairments for tests and the scenario
// simulator; UDP and DTLS drivers over a net.PacketConn follow the same
// contract. See docs/architecture.md §5 for the layering.
//
// # Datagrams
//
// Every datagram is at most MaxDatagram (1200) bytes. With the 48 bytes of
// IPv6 and UDP headers that fits the 1280-byte minimum IPv6 MTU (RFC 8200
// §5), so plaintext datagrams are never fragmented, as RFC 8085 §3.2
// advises; DTLS records (RFC 9147) add 29 bytes with transport/dtls's
// default AES-CCM_8 suites (37 with GCM). Datagrams may be
// lost, duplicated or reordered; rollstep repeats every unacknowledged
// input in every packet instead of retransmitting, so a Conn needs no
// reliability of its own. Byte counts that stand for bandwidth add
// HeaderOverhead (28 bytes of IPv4 and UDP header) per datagram.
//
// # Peers
//
// An Addr is an opaque handle that the Conn assigns: per authenticated
// DTLS channel (RFC 9147), or, in plaintext mode, per address whose
// packets the session's endpoint authenticates with the tag keyed by the
// per-match session token. It is never a bare network address, because a
// source address alone proves nothing about the sender.
//
// # Buffers
//
// Send copies the datagram before it returns and never keeps the caller's
// slice; Receive copies into a buffer the caller owns and never keeps that
// either. A host therefore needs one receive buffer of MaxDatagram bytes
// for its whole life, and the steady state allocates nothing.
//
// # The host loop
//
// Each tick of the game loop:
//
//  1. Drain the Conn: call Receive with the reused buffer until it returns
//     ok == false, handing each datagram and its Addr to the session.
//  2. Advance the session with the current time and the local inputs.
//  3. Send each datagram the session produced with Send, reusing one
//     encode buffer.
//  4. Render, then wait for the next tick. The Conn never blocks, so the
//     loop, not the network, sets the pace.
//  5. At the end of the match, Close the Conn.
//
// # Errors
//
// Failures are matched with errors.Is against ErrClosed,
// ErrDatagramTooLarge, ErrUnknownPeer and ErrShortBuffer; the errors that
// wrap the last three give the numbers (the size, the Addr, the lengths)
// in their messages. Package transport/transporttest checks an
// implementation against this contract.
package transport
