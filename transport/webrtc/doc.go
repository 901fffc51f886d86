// Package webrtc is a transport.Conn over WebRTC data channels, for play
// across NATs and in the browser. It uses github.com/pion/webrtc/v4:
// natively, pion's own ICE, DTLS and SCTP; compiled for GOOS=js
// GOARCH=wasm, the browser's RTCPeerConnection.
//
// # Datagrams
//
// A Conn holds one peer connection to each peer of Config.Peers, and each
// connection one data channel that is unordered and never retransmits
// (MaxRetransmits 0, RFC 8831 §6.6): a datagram arrives whole, once, or
// not at all, in any order, as over UDP. The session's own protocol,
// which repeats every unacknowledged input, stays in charge of
// reliability, and a late packet never holds up the ones behind it. The
// channel is pre-negotiated (the same stream id on both sides), so it
// opens with the SCTP association, without an in-band DATA_CHANNEL_OPEN
// (RFC 8832).
//
// Send to a peer whose channel is not open yet, or no longer, drops the
// datagram and returns nil, as a network would lose it: the session's
// handshake repeats until the channel opens, and its timeouts notice a
// peer that went away. Send also drops when 1 MiB already waits
// unacknowledged on the channel (the path is congested or the peer
// stopped acknowledging: pion's SCTP would queue without bound). Received
// datagrams wait in a bounded queue (Config.QueueLen) that drops the
// oldest when full; Receive copies from it and never waits. Every drop
// is counted in Stats.
//
// # Setting up
//
// Peers find each other through a Signaler, which carries the set-up
// messages reliably and in order: package lobby's Match is one, from its
// server `rollstep signal`. Of each pair of peers, the one with the lower
// transport.Addr offers and the other answers; both trickle their ICE
// candidates as they find them. A set-up message is one JSON object with
// one member: {"offer": SDP}, {"answer": SDP} or {"cand": candidate},
// SDP being {"type", "sdp"} and candidate an RTCIceCandidateInit. The
// Conn decodes each as hostile input: at most 64 KiB, exactly one
// well-formed member, from an address in Config.Peers, in turn (one offer
// to the answering side, one answer to the offering side), and at most
// 64 candidates from a peer. Anything else is counted in
// Stats.BadSignals and ignored; a valid offer or answer after it still
// connects. The Signaler is trusted only to say who sent a message.
//
// New starts every connection in the background and returns at once. One
// goroutine of the Conn reads the Signaler and drives the set-up; pion
// runs its own. PeerState reports each peer's State: Connecting, then
// Open; Closed when the peer closes its Conn; Failed, with a
// *ConnectError saying why, when the set-up times out
// (Config.ConnectTimeout, 30 s by default), ICE finds no path (at once
// if it gathers no candidate at all), a TURN server refuses the
// credential, DTLS or SCTP fail, or the signaling fails. A peer never
// stays Connecting for longer than ConnectTimeout.
//
// # ICE servers
//
// ICE (RFC 8445) finds a path with the Config.ICEServers: STUN servers
// (RFC 8489) tell each peer its public address, and TURN servers (RFC
// 8656) relay for NATs that allow no direct path. rollstep runs neither:
// use an established server (coturn in production). Without ICE servers
// only host candidates are tried, enough on a LAN or one machine.
//
// The relayed path is tested: the package's tests run pion's TURN server
// in-process on loopback and let ICE use relayed candidates only, so
// datagrams both ways and a short match cross the relay and nothing
// else, and the tests check that ICE selected a relay pair and that the
// server's relay addresses carried the traffic. That server is a test
// fixture, not a relay to deploy. A wrong TURN credential shows in
// native builds as a *ConnectError with Reason "TURN allocation refused"
// once ICE has no path without the relay; a browser does not say why
// its TURN server failed, so there the peer fails with "ICE failed" or
// "timed out".
//
// # Cost
//
// A data channel runs SCTP (RFC 9260) inside DTLS 1.2 (RFC 6347) inside
// UDP (RFC 8261). Each datagram crosses in one SCTP packet per fragment,
// each in one DTLS record: 13 bytes of record header plus, with AES-GCM,
// 8 of explicit nonce and 16 of tag; 12 bytes of SCTP common header; a
// DATA chunk header of 16 bytes, or 20 for the I-DATA chunks of RFC 8260
// that two pion peers negotiate; and the data padded to 4 bytes. So a
// 50-byte datagram between two pion peers crosses as 121 bytes of UDP
// payload, 71 over the datagram (67 with DATA chunks), against 50 over
// transport/udp (TestOverheadPerDatagram counts them). pion's SCTP
// packets carry at most 1,156 bytes of data (1,160 with DATA chunks), so
// a datagram of the full transport.MaxDatagram (1,200 bytes) crosses as
// two fragments, 138 bytes over, reassembled into one message; losing
// either fragment loses the datagram. The session's steady packets
// (about 50 bytes) never come near that. DTLS encrypts and authenticates
// everything the peers send each other; the session's tags still
// authenticate every packet with the match's secret.
//
// # The host loop
//
//  1. Get the peers' addresses and a Signaler for them (lobby.Join).
//  2. Call New with Self, Peers and the Signaler, and the ICEServers for
//     play across the internet.
//  3. Each tick, call Receive with one reused buffer of
//     transport.MaxDatagram bytes until it returns ok == false, and hand
//     each datagram to the session; Send what the session produced.
//     Until a peer's channel opens, what is sent to it is lost.
//  4. Watch PeerState for a peer that fails to connect: its
//     *ConnectError says why, and the match can start without it or end.
//  5. At the end of the match, Close the Conn, then the Signaler.
//
// # Browsers
//
// The package builds for GOOS=js GOARCH=wasm, where pion drives the
// browser's own RTCPeerConnection (which ignores the test-only network
// settings): the same Conn serves a game compiled to WebAssembly. Its
// calls wait for JavaScript promises, which pion's callbacks must not
// block, so the Conn never holds its lock across a call into pion or the
// Signaler, and New makes none.
//
// # References
//
// RFC 8831 (WebRTC data channels), RFC 8832 (DCEP), RFC 8261 (SCTP over
// DTLS), RFC 3758 (partial reliability), RFC 8445 (ICE), RFC 8838
// (trickle ICE), RFC 8489 (STUN), RFC 8656 (TURN); the W3C WebRTC API,
// https://www.w3.org/TR/webrtc/.
package webrtc
