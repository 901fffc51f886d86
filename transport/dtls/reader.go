package dtls

import (
	"crypto/sha256"
	"errors"
	"io"
	"net"

	piondtls "github.com/pion/dtls/v3"

	"github.com/rollstep/rollstep/transport"
)

// readBufSize is the reader's plaintext buffer: larger than
// transport.MaxDatagram, so that an oversized record from an
// authenticated but misbehaving peer is seen, and dropped, whole.
const readBufSize = 8192

// read is the reader goroutine of association a. It queues each decrypted
// datagram under a's Addr until the association ends (close_notify,
// fatal alert, Forget or Close), then removes the peer.
func (c *Conn) read(a *association) {
	defer c.wg.Done()
	buf := make([]byte, readBufSize)
	for {
		n, err := a.conn.Read(buf)
		if err != nil {
			if associationEnded(err) {
				break
			}
			c.mu.Lock()
			c.stats.ReadErrors++
			c.mu.Unlock()
			continue
		}
		c.mu.Lock()
		switch {
		case c.closed:
		case n > transport.MaxDatagram:
			c.stats.DroppedOversize++
		default:
			if c.queue.Push(buf[:n], a.id) {
				c.stats.DroppedFull++
			}
			c.stats.DatagramsIn++
			c.stats.BytesIn += uint64(n)
		}
		c.mu.Unlock()
		c.notify()
	}
	c.mu.Lock()
	if c.peers[a.id] == a {
		delete(c.peers, a.id)
		c.stats.PeersClosed++
	}
	c.mu.Unlock()
	_ = a.conn.Close()
	c.notify()
}

// associationEnded reports whether err, returned by a read of an
// established association, means that the association has ended: pion
// returns io.EOF once its read loop has stopped (a close_notify or fatal
// alert from the peer, Close) and net.ErrClosed or ErrConnClosed after
// Close. Every other error (a non-fatal alert, a record pion could not
// use) leaves the association running, and its reads go on.
func associationEnded(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || errors.Is(err, piondtls.ErrConnClosed)
}

func sha256Sum(b []byte) [sha256.Size]byte { return sha256.Sum256(b) }
