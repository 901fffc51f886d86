package connhook

// DTLSStats are a transport/dtls Conn's counters since it was made. Byte
// counts are plaintext payload bytes; each datagram on the wire is larger
// by the DTLS record overhead (see package transport/dtls).
type DTLSStats struct {
	// DatagramsIn and BytesIn count decrypted datagrams put in the
	// receive queue, including those later dropped because it was full.
	DatagramsIn, BytesIn uint64
	// DatagramsOut and BytesOut count datagrams Send encrypted and wrote.
	DatagramsOut, BytesOut uint64
	// DroppedFull counts queued datagrams dropped, oldest first, because
	// the host did not Receive them in time.
	DroppedFull uint64
	// DroppedSocket counts datagrams a listening Conn dropped before
	// decryption because an association's input buffer was full.
	DroppedSocket uint64
	// DroppedOversize counts decrypted datagrams longer than
	// transport.MaxDatagram.
	DroppedOversize uint64
	// DroppedForeign counts datagrams a dialed Conn dropped unread
	// because they came from another address than the server's.
	DroppedForeign uint64
	// DroppedPlaintext counts datagrams dropped unread after a handshake
	// because they held nothing but plaintext (epoch 0) records other
	// than handshake ones, or were not well-formed DTLS records: no peer
	// sends them, and anyone can.
	DroppedPlaintext uint64
	// ReadErrors and WriteErrors count failed record reads (such as a
	// non-fatal alert) and writes. A read error ends an association only
	// when the association itself has ended.
	ReadErrors, WriteErrors uint64
	// Handshakes counts associations established.
	Handshakes uint64
	// HandshakeFailures counts handshakes that failed or timed out on a
	// listening Conn.
	HandshakeFailures uint64
	// HandshakesRefused counts new associations a listening Conn dropped
	// at once because MaxHandshakes handshakes were running or the
	// backlog of sources waiting for one was full.
	HandshakesRefused uint64
	// HandshakesRefusedPerIP counts the new associations among them that
	// were dropped because their IP address already had
	// MaxHandshakesPerIP handshakes running.
	HandshakesRefusedPerIP uint64
	// HandshakesEvicted counts handshakes a listening Conn closed to make
	// room for a newer one because their client had not proved its
	// address by echoing the server's cookie (see Listen).
	HandshakesEvicted uint64
	// PeersRefused counts completed handshakes closed again because
	// MaxPeers associations existed.
	PeersRefused uint64
	// PeersClosed counts associations the peer or the network ended.
	PeersClosed uint64
	// Peers, Queued and HandshakesInFlight are the current numbers of
	// associations, datagrams waiting for Receive, and handshakes running.
	Peers, Queued, HandshakesInFlight int
}
