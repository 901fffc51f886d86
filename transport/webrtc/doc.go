// Package webrtc is a transport.Conn over WebRTC data channels, for play
// across NATs and in the browser: one peer connection to each peer, each
// with one data channel that delivers datagrams unordered and without
// retransmissions, as UDP does, so the session's own protocol (which
// repeats what is lost) stays in charge, and a late packet never holds up
// the ones behind it.
//
// # Setting up
//
// Peers find each other through a Signaler, which carries the set-up
// messages (SDP offers and answers, ICE candidates) reliably and in order:
// package lobby's Match is one, from its server `rollstep signal`. Of each
// pair of peers, the one with the lower transport.Addr offers. New starts
// every connection at once and returns; Send to a peer whose channel is
// not open yet loses the datagram, as a network would, and the session's
// handshake repeats until it opens. PeerState reports each peer's state,
// and a failure as a *ConnectError with its reason: the set-up timed out
// (Config.ConnectTimeout), ICE found no path, or the signaling failed. A
// channel that closes mid-match is a peer that went silent: the session's
// lost-peer and rejoin paths handle it.
//
// ICE finds a path with the Config.ICEServers: STUN servers tell each peer
// its public address, and TURN servers relay for NATs that allow no
// direct path. rollstep runs neither: use an established server (coturn
// in production). Without ICE servers only host candidates are tried,
// enough on a LAN or one machine.
//
// # Cost
//
// Data channels run SCTP inside DTLS inside UDP: a 50-byte datagram
// crosses loopback as 121 bytes of UDP payload (71 bytes of SCTP and DTLS
// headers, with AES-GCM), against 50 over transport/udp. SCTP packets
// carry at most about 1,190 bytes of data, in pion as in browsers, so a
// datagram of the full transport.MaxDatagram (1,200 bytes) crosses as two
// fragments, reassembled into one message: the session's steady packets
// (about 50 bytes) never come near it. DTLS encrypts and authenticates
// everything the peers send each other; the session's tags still
// authenticate every packet with the match's secret.
//
// # Browsers
//
// The package builds for GOOS=js GOARCH=wasm, where pion drives the
// browser's own RTCPeerConnection: the same Conn serves a game compiled
// to WebAssembly.
package webrtc
