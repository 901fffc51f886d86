package udp

import (
	"net/netip"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/rollstep/rollstep/transport"
)

// batch holds the datagrams of one round of sends (hold to flush) so that
// they go out with one sendmmsg(2) instead of a sendto(2) each: a
// lockstep match of 8 peers sends 7 datagrams a turn, and on a virtual
// machine every system call costs microseconds. It belongs to the
// drainer, so only a Conn that owns its socket batches; its arrays are
// allocated once, with the drainer.
type batch struct {
	held bool
	fail func(to transport.Addr, n int, err error)
	n    int // datagrams held
	to   [drainBatch]transport.Addr
	addr [drainBatch]netip.AddrPort
	hdrs [drainBatch]unix.Mmsghdr
	iovs [drainBatch]unix.Iovec
	// names are raw sockaddrs; an IPv4 one fills the start of its slot.
	names [drainBatch]unix.RawSockaddrInet6
	bufs  [drainBatch][transport.MaxDatagram]byte
	// failed are the refusals of the last write, for fail once c.mu is
	// released.
	failed  [drainBatch]refusal
	nfailed int
}

// refusal is a held datagram the socket refused.
type refusal struct {
	to  transport.Addr
	n   int
	err error
}

// hold starts holding c's datagrams: Send queues them until flush (and
// writes the batch when it is full). fail is called for each held
// datagram the socket refuses, with its peer, its length and the error,
// outside c.mu but within the Send or flush that wrote it, so it should
// only count. Without a drainer, hold does nothing and Send writes at
// once, as always.
func (c *Conn) hold(fail func(to transport.Addr, n int, err error)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.drain != nil && !c.closed {
		c.drain.out.held, c.drain.out.fail = true, fail
	}
}

// flush writes the held datagrams, stops holding and reports refusals.
// After Close it drops them.
func (c *Conn) flush() {
	c.mu.Lock()
	d := c.drain
	if d == nil || !d.out.held {
		c.mu.Unlock()
		return
	}
	if c.closed {
		d.out.n = 0
	} else {
		c.writeHeld()
	}
	fail := d.out.fail
	d.out.held, d.out.fail = false, nil
	c.release(fail)
}

// queueHeld adds p for to, at addr, to the held batch, writing the batch
// first when it is full; c.mu must be held, and is released. It returns
// nil: the datagram's fate is reported through the hold's fail.
func (c *Conn) queueHeld(to transport.Addr, addr netip.AddrPort, p []byte) error {
	b := &c.drain.out
	if b.n == drainBatch {
		c.writeHeld()
	}
	i := b.n
	b.n++
	b.to[i], b.addr[i] = to, addr
	k := copy(b.bufs[i][:], p)
	b.iovs[i].Base = &b.bufs[i][0]
	b.iovs[i].SetLen(k)
	b.hdrs[i].Hdr.Iov = &b.iovs[i]
	b.hdrs[i].Hdr.SetIovlen(1)
	b.hdrs[i].Hdr.Name = (*byte)(unsafe.Pointer(&b.names[i]))
	b.hdrs[i].Hdr.Namelen = c.drain.rawName(&b.names[i], addr)
	b.hdrs[i].Len = 0
	c.release(b.fail)
	return nil
}

// rawName writes addr into name as the socket's address family wants it
// (an IPv4 peer of an IPv6 socket as ::ffff:a.b.c.d) and returns its
// length.
func (d *drainer) rawName(name *unix.RawSockaddrInet6, addr netip.AddrPort) uint32 {
	a, port := addr.Addr(), addr.Port()
	if a.Is4() && !d.inet6 {
		sa := (*unix.RawSockaddrInet4)(unsafe.Pointer(name))
		*sa = unix.RawSockaddrInet4{Family: unix.AF_INET, Addr: a.As4()}
		putPort((*[2]byte)(unsafe.Pointer(&sa.Port)), port)
		return unix.SizeofSockaddrInet4
	}
	*name = unix.RawSockaddrInet6{Family: unix.AF_INET6, Addr: a.As16()}
	putPort((*[2]byte)(unsafe.Pointer(&name.Port)), port)
	return unix.SizeofSockaddrInet6
}

// putPort stores port in network byte order.
func putPort(b *[2]byte, port uint16) { b[0], b[1] = byte(port>>8), byte(port) }

// writeHeld writes every held datagram, one sendto for a lone datagram
// and sendmmsg for more, and empties the batch. A datagram the socket
// refuses is counted (WriteErrors) and recorded for release, and
// the rest are still written. c.mu must be held.
func (c *Conn) writeHeld() {
	d := c.drain
	b := &d.out
	for i := 0; i < b.n; {
		if b.n-i == 1 {
			p := b.bufs[i][:b.iovs[i].Len]
			err := d.send(b.addr[i], p)
			c.wrote(i, len(p), err)
			c.stats.SendCalls++
			i++
			continue
		}
		sent, _, errno := unix.RawSyscall6(unix.SYS_SENDMMSG, uintptr(d.fd), uintptr(unsafe.Pointer(&b.hdrs[i])),
			uintptr(b.n-i), unix.MSG_DONTWAIT, 0, 0)
		c.stats.SendCalls++
		if errno != 0 || sent == 0 { // the first datagram was refused: it goes, the rest are tried again
			err := error(errno)
			if errno == 0 {
				err = unix.EIO
			}
			c.wrote(i, int(b.iovs[i].Len), err)
			i++
			continue
		}
		for k := i; k < i+int(sent); k++ {
			c.wrote(k, int(b.iovs[k].Len), nil)
		}
		i += int(sent)
	}
	b.n = 0
}

// wrote counts held datagram i of n bytes as written, or records its
// refusal; c.mu must be held.
func (c *Conn) wrote(i, n int, err error) {
	c.sent(n, err)
	b := &c.drain.out
	if err != nil && b.nfailed < len(b.failed) {
		b.failed[b.nfailed] = refusal{to: b.to[i], n: n, err: err}
		b.nfailed++
	}
}

// release releases c.mu and passes the refusals recorded since the last
// call to fail.
func (c *Conn) release(fail func(to transport.Addr, n int, err error)) {
	b := &c.drain.out
	if b.nfailed == 0 || fail == nil {
		b.nfailed = 0
		c.mu.Unlock()
		return
	}
	var failed [drainBatch]refusal
	n := copy(failed[:], b.failed[:b.nfailed])
	b.nfailed = 0
	c.mu.Unlock()
	for _, r := range failed[:n] {
		fail(r.to, r.n, r.err)
	}
}
