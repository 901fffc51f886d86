package udp

// stats are a Conn's counters since New. Byte counts are UDP payload
// bytes, without IP and UDP headers. The package's tests read them.
type stats struct {
	// DatagramsIn and BytesIn count datagrams put in the receive queue,
	// including those later dropped because the queue was full.
	DatagramsIn, BytesIn uint64
	// DatagramsOut and BytesOut count datagrams Send handed to the socket.
	DatagramsOut, BytesOut uint64
	// DroppedFull counts queued datagrams dropped, oldest first, because
	// the host did not Receive them before the queue filled.
	DroppedFull uint64
	// DroppedOversize counts arriving datagrams longer than
	// transport.MaxDatagram, dropped unread.
	DroppedOversize uint64
	// DroppedUnknown counts datagrams from addresses with no peer, dropped
	// because AcceptUnknown is off.
	DroppedUnknown uint64
	// EvictedUnknown counts provisional peers removed to make room for a
	// new source when MaxUnknown of them existed.
	EvictedUnknown uint64
	// DroppedUnbound counts datagrams Send dropped because their peer has
	// no address yet (see Peer.Addr).
	DroppedUnbound uint64
	// SendCalls counts the system calls that wrote datagrams on the
	// drainer's socket: one per datagram, except for held ones (see
	// Conn.hold), which share a sendmmsg.
	SendCalls uint64
	// ReadErrors and WriteErrors count failed socket calls.
	ReadErrors, WriteErrors uint64
	// Provisional is the number of provisional peers now.
	Provisional int
	// Queued is the number of datagrams now waiting for Receive.
	Queued int
}

// Arrived returns every datagram the socket delivered to the Conn, kept
// or dropped: DatagramsIn + DroppedOversize + DroppedUnknown.
func (s stats) Arrived() uint64 {
	return s.DatagramsIn + s.DroppedOversize + s.DroppedUnknown
}
