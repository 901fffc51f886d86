package endpoint

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport"
)

// PeerStats describes one remote peer. Bytes are datagram payloads; the
// Wire methods add transport.HeaderOverhead per datagram, as transport/sim
// counts.
type PeerStats struct {
	Addr  transport.Addr // the peer's transport address
	State PeerState      // where the peer is in its life cycle

	Heard     bool          // a valid packet has arrived from the peer
	LastHeard time.Duration // when the newest valid packet arrived, if Heard

	// RTT is the smoothed round-trip time measured from the echoes of
	// KeepAlive and input packets, Jitter its mean deviation; valid when
	// RTTSamples > 0. A restart of the peer (EventRestarted) starts the
	// estimate over: the samples are the current process's.
	RTT        time.Duration
	Jitter     time.Duration
	RTTSamples int

	PacketsSent     uint64 // datagrams sent to the peer, of every type
	BytesSent       uint64 // their payload bytes
	PacketsReceived uint64 // datagrams received from the peer's address, valid or not
	BytesReceived   uint64 // their payload bytes

	HellosSent     uint64 // Hellos sent
	RepliesSent    uint64 // HelloReplies sent
	InputsSent     uint64 // input packets sent
	KeepAlivesSent uint64 // KeepAlives sent
	InputsReceived uint64 // input packets handed to the Receiver
	Transfers      uint64 // Transfer packets received and handed on (see TransferReceiver)
	Rebinds        uint64 // moves to a new address of an interrupted peer (see Rebinder)
	RebindsRefused uint64 // the peer's Hellos from another address that did not move it: it was not interrupted, or the Hello was not newer than what it had sent
	FirstContacts  uint64 // adoptions of the address of the peer's first Hello (see Rebinder)
	Restarts       uint64 // restart handshakes of a new process of the peer that completed (EventRestarted)

	Truncated  uint64 // input packets that could not carry the whole message
	Unsent     uint64 // engine messages not sent: handshake incomplete or peer gone
	SendErrors uint64 // Conn.Send failures

	// Dropped datagrams, by reason. None of them changes any state but
	// these counters.
	WrongToken uint64 // another match's token
	Malformed  uint64 // not a valid packet (garbage, truncated, bad fields)
	Replayed   uint64 // a sequence number already seen or too old
	Jumped     uint64 // a Hello far ahead of the peer's sequence numbers, dropped until another confirms the jump
	Early      uint64 // input or keep-alive before the handshake completed
	Limited    uint64 // Hellos over the reply rate (one per HelloInterval/2)
	Stale      uint64 // HelloReplies to another nonce, or packets after the peer's end
	WrongSeat  uint64 // Hellos naming another seat than the peer's (Config.Seats)
	Rejected   uint64 // input messages the Receiver refused (core's *MessageError)
}

// WireBytesSent returns BytesSent plus transport.HeaderOverhead per packet.
func (s *PeerStats) WireBytesSent() uint64 {
	return s.BytesSent + transport.HeaderOverhead*s.PacketsSent
}

// WireBytesReceived returns BytesReceived plus transport.HeaderOverhead per
// packet.
func (s *PeerStats) WireBytesReceived() uint64 {
	return s.BytesReceived + transport.HeaderOverhead*s.PacketsReceived
}

// Stats are an Endpoint's counters; see Endpoint.Stats.
type Stats struct {
	Polls        uint64 // calls of Poll
	PollLimited  uint64 // Poll calls that stopped at Config.MaxPoll datagrams
	Unknown      uint64 // datagrams from addresses not in the peer table, dropped
	UnknownBytes uint64 // their payload bytes
	// Ambiguous counts Hellos of this match from unknown addresses dropped
	// because several peers were waiting for a first Hello, so the
	// sender's seat could not be told (see the package documentation).
	Ambiguous uint64
	// WrongSeat counts Hellos of this match from unknown addresses
	// dropped because the seat they name is no waiting peer's: taken
	// already, this endpoint's own, or no peer's while no peer without a
	// seat waits (see the package documentation).
	WrongSeat uint64
	// Peers has one entry per peer, indexed by core.PeerID. It is owned by
	// the endpoint and overwritten by the next call of Stats.
	Peers []PeerStats
}

// Stats returns the endpoint's counters.
func (ep *Endpoint[I]) Stats() Stats {
	for i := range ep.peers {
		ep.statsBuf[i] = ep.peerStats(i)
	}
	return Stats{Polls: ep.polls, PollLimited: ep.pollLimited, Unknown: ep.unknown,
		UnknownBytes: ep.unknownBytes, Ambiguous: ep.ambiguous, WrongSeat: ep.wrongSeat, Peers: ep.statsBuf}
}

// Peer returns the counters of peer p; ok is false if p is not in the
// table.
func (ep *Endpoint[I]) Peer(p core.PeerID) (s PeerStats, ok bool) {
	if p < 0 || int(p) >= len(ep.peers) {
		return PeerStats{}, false
	}
	return ep.peerStats(int(p)), true
}

// RTT returns the smoothed round trip to peer p, with ok false unless p
// is connected and has been measured: what Peer reports as RTT, without
// copying the rest of its counters (the session asks every frame).
func (ep *Endpoint[I]) RTT(p core.PeerID) (rtt time.Duration, ok bool) {
	if p < 0 || int(p) >= len(ep.peers) {
		return 0, false
	}
	q := &ep.peers[p]
	return q.srtt, q.state == StateConnected && q.samples > 0
}

func (ep *Endpoint[I]) peerStats(i int) PeerStats {
	q := &ep.peers[i]
	s := q.st
	s.Addr, s.State = q.addr, q.state
	s.Heard, s.LastHeard = q.heard, q.lastHeard
	s.RTT, s.Jitter, s.RTTSamples = q.srtt, q.rttvar, q.samples
	return s
}

// Dropped returns the datagrams from the peer's address that were not
// valid packets of the match, over every reason.
func (s *PeerStats) Dropped() uint64 {
	return s.WrongToken + s.Malformed + s.Replayed + s.Jumped + s.Early + s.Stale + s.WrongSeat + s.Rejected
}
