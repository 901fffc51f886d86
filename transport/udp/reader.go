package udp

import (
	"errors"
	"net"
	"net/netip"

	"github.com/rollstep/rollstep/transport"
)

// maxReadErrors is how many socket read errors in a row stop the reader,
// so that a broken socket cannot make it spin.
const maxReadErrors = 64

// read is the reader goroutine: it reads datagrams from the socket into a
// scratch buffer one byte longer than transport.MaxDatagram (so that an
// oversized datagram is seen, truncated, and dropped) and queues them
// under the sender's Addr. It returns when the socket is closed.
func (c *Conn) read() {
	defer close(c.done)
	scratch := make([]byte, transport.MaxDatagram+1)
	failures := 0
	for {
		n, from, err := c.readFrom(scratch)
		if err != nil {
			c.mu.Lock()
			stop := c.closed || errors.Is(err, net.ErrClosed) || failures >= maxReadErrors
			if stop && !c.closed {
				c.readErr = err
			}
			if !stop {
				c.stats.ReadErrors++
			}
			c.mu.Unlock()
			if stop {
				c.notify()
				return
			}
			failures++
			continue
		}
		failures = 0
		c.mu.Lock()
		c.deliver(scratch[:n], from)
		c.mu.Unlock()
		c.notify()
	}
}

// readFrom reads one datagram, without allocating when the socket is a
// *net.UDPConn. A sender address that is not a UDP address yields an
// invalid AddrPort, which deliver treats as unknown.
func (c *Conn) readFrom(b []byte) (int, netip.AddrPort, error) {
	if c.udp != nil {
		return c.udp.ReadFromUDPAddrPort(b)
	}
	n, addr, err := c.pc.ReadFrom(b)
	if ua, ok := addr.(*net.UDPAddr); ok {
		return n, ua.AddrPort(), err
	}
	return n, netip.AddrPort{}, err
}

// deliver classifies and queues one datagram; c.mu must be held.
func (c *Conn) deliver(p []byte, from netip.AddrPort) {
	if c.closed {
		return
	}
	if len(p) > transport.MaxDatagram {
		c.stats.DroppedOversize++
		return
	}
	id, ok := c.peers.lookup(from)
	if !ok {
		c.stats.DroppedUnknown++
		return
	}
	if c.queue.Push(p, id) {
		c.stats.DroppedFull++
	}
	c.stats.DatagramsIn++
	c.stats.BytesIn += uint64(len(p))
}

// notify wakes a test waiting on c.arrived, without blocking.
func (c *Conn) notify() {
	select {
	case c.arrived <- struct{}{}:
	default:
	}
}
