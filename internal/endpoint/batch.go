package endpoint

import (
	"errors"

	"github.com/rollstep/rollstep/internal/connhook"
	"github.com/rollstep/rollstep/transport"
)

// Hold makes the Conn hold every datagram sent until Flush, so that one
// round's go out with one system call, where the Conn can batch (a
// transport/udp Conn that owns its socket); elsewhere it does nothing.
// A session holds for the length of one Update: Hold before it, Flush
// after it.
func (ep *Endpoint[I]) Hold() {
	if ep.batch != nil && !ep.closed {
		ep.batch.Hold(ep.onRefused)
	}
}

// Flush writes what Hold held and stops holding. A datagram the socket
// refused is counted as Send counts a failed send (PeerStats.SendErrors,
// and kept for the peer's HandshakeTimeoutError); Flush returns the first
// refusal that does not pass (see send), as Send would have.
func (ep *Endpoint[I]) Flush() error {
	if ep.batch == nil {
		return nil
	}
	ep.batch.Flush()
	err := ep.batchErr
	ep.batchErr = nil
	return err
}

// batchOf returns the Batch of c, if c can batch.
func batchOf(c transport.Conn) connhook.Batch {
	if connhook.UDPBatch == nil {
		return nil
	}
	b, _ := connhook.UDPBatch(c)
	return b
}

// refused takes back the count of a held datagram of n bytes to peer
// address to that the socket refused, and counts its error as send does.
func (ep *Endpoint[I]) refused(to transport.Addr, n int, err error) {
	i, ok := ep.lookup(to)
	if !ok {
		return // a peer the table no longer has
	}
	q := &ep.peers[i]
	q.st.PacketsSent--
	q.st.BytesSent -= uint64(n)
	q.st.SendErrors++
	q.sendErr = err
	if !transport.Transient(err) && !errors.Is(err, transport.ErrUnknownPeer) && ep.batchErr == nil {
		ep.batchErr = err
	}
}
