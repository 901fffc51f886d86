// Package dtls is a transport.Conn whose datagrams travel in DTLS 1.2
// records (RFC 6347), using github.com/pion/dtls/v3, so that every
// datagram is encrypted and its sender authenticated by the channel it
// arrived on rather than by its source address. (pion/dtls v2 is
// unmaintained and carries an unfixed advisory, GO-2026-4479.)
//
// # Associations and peers
//
// Each peer is one DTLS association. Dial runs a client handshake over a
// net.PacketConn and returns a Conn with one peer, the server. Listen
// accepts associations on a net.PacketConn in the background,
// demultiplexing datagrams by source address; each completed handshake becomes a new peer, numbered from
// Config.FirstPeer, which the host first sees as the sender of a
// datagram and can inspect with Peer (PSK identity, certificate
// fingerprint, address). When an association ends (close_notify, a
// fatal alert, Forget), its Addr is gone and Send to it returns an error
// matching transport.ErrUnknownPeer. Per association, a reader goroutine moves
// decrypted datagrams into one bounded queue (oldest dropped when full)
// that Receive drains without blocking. Delivery is as
// unreliable as UDP's: in particular, pion drops application data that
// arrives before the server has finished its side of the handshake, so
// the first datagrams a client sends right after Dial may be lost. The
// session's redundancy (every packet repeats what is unacknowledged)
// covers this, as it covers any loss.
//
// # Authentication
//
// Two modes, one per Config:
//
//   - Pre-shared keys (RFC 4279): the matchmaker hands every player of a
//     match a fresh key and an identity; the client presents
//     Config.PSKIdentity and the server's Config.PSK callback returns the
//     key for it. The default suite is TLS_PSK_WITH_AES_128_CCM_8.
//   - Certificates with pinning: each side presents a certificate
//     (self-signed is normal) and accepts only a peer whose certificate's
//     SHA-256 fingerprint is in Config.PeerFingerprints; chains and names
//     are not checked. A mismatch fails the handshake with an error
//     matching ErrPinMismatch.
//     The default suite is TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8.
//
// The Extended Master Secret extension (RFC 7627) is required in both.
//
// # Handshakes under a deadline
//
// pion/dtls v3 puts no deadline on a handshake, so a client that sends a
// ClientHello and falls silent holds the server's goroutines until the
// process ends. Here every handshake, on both sides, runs under
// Config.HandshakeTimeout (default 5 s) with a short retransmission
// interval (Config.FlightInterval, default 150 ms); a listening Conn runs
// at most Config.MaxHandshakes (default 16) at once, at most
// Config.MaxHandshakesPerIP (default 4) of them from one IP address, and
// keeps at most Config.MaxPeers associations. The server answers a first
// ClientHello with a cookie (HelloVerifyRequest), so a spoofed source gets
// a reply no larger than its ClientHello, and only a client that receives
// at its address can echo the cookie. pion/dtls does that exchange inside
// a handshake, after the slot is taken, so a ClientHello that finds no
// free slot evicts the oldest handshake whose client has not echoed its
// cookie yet; when every running handshake is past the cookie, it is
// dropped, to be retried by the client's retransmission. So a flood of
// silent, half-open or spoofed clients costs a bounded number of
// goroutines (about four per slot), pushes out only its own handshakes
// and those of clients that have not answered within a round trip, and
// never touches a handshake past the cookie.
//
// # Plaintext records after the handshake
//
// Records at epoch 0 are plaintext: anyone who can send to a socket can
// make one, and pion answers an unexpected one (application data, a
// malformed ChangeCipherSpec, an unknown content type) with a fatal alert,
// which ends the association on both sides. So once a handshake has
// finished, each Conn drops, before pion reads them, the epoch-0 records
// other than handshake ones (retransmissions of the handshake's last
// flights stay), and datagrams that are not well-formed records. A
// dialed Conn also passes only datagrams from the server's address to
// pion; a listening Conn routes datagrams by source address anyway. A
// read error that does not end the association (a non-fatal alert) is
// skipped and reading goes on.
//
// # Sizes and costs
//
// transport.MaxDatagram bounds the plaintext. On the wire each datagram
// grows by the record overhead: 13 bytes of header, 8 of explicit nonce
// and 8 of tag with AES-CCM_8 (29 bytes), or 16 of tag with AES-GCM (37
// bytes), measured by TestRecordOverhead. The default suites are the
// CCM_8 ones because 1200 + 29 = 1229 bytes of UDP payload fit the 1232
// that an IPv6 path with the minimum MTU of 1280 carries unfragmented,
// and 1200 + 37 do not. Their 64-bit tag lets a forger succeed with
// probability 2^-64 per attempt, and every failed record is dropped; a
// match that prefers GCM's 128-bit tag sets Config.CipherSuites and
// accepts fragmentation of its largest datagrams on such paths. Per
// datagram the suites cost the same for small datagrams and CCM_8 about
// 6 µs more for 1200-byte ones (BenchmarkSendReceive). On loopback a PSK handshake
// takes about 0.6 to 0.9 ms and an ECDSA certificate handshake 1.6 to 1.9 ms
// (BenchmarkHandshake, 2-core x86-64).
//
// # The host loop
//
//  1. Server: open a UDP socket (net.ListenUDP) and Listen on it with the
//     match's Config. Client: open a UDP socket and Dial the server with
//     a context; Dial returns once the handshake is done, or an error
//     matching ErrHandshake (unpinned certificate, timeout; a wrong key
//     shows as a timeout, because the peer drops records it cannot
//     authenticate without answering).
//  2. Each tick, call Receive with one reused buffer of
//     transport.MaxDatagram bytes until it returns ok == false; an Addr
//     not seen before is a newly authenticated peer (see Peer).
//  3. Advance the session and Send what it produced.
//  4. Forget a peer that leaves or misbehaves.
//  5. At the end of the match, Close: it closes every association and
//     returns when all goroutines have exited.
//
// # References
//
// RFC 6347 (DTLS 1.2; §4.2.1 for the cookie exchange), RFC 4279 (PSK cipher suites), RFC 7627 (Extended
// Master Secret), RFC 6655 (AES-CCM suites), RFC 5288 (AES-GCM suites).
package dtls
