package udp

import (
	"encoding/binary"
	"net/netip"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/rollstep/rollstep/transport"
)

// drainBatch is how many datagrams one recvmmsg call takes off the socket.
// A 2-player match at 60 Hz gets about one per frame; 16 covers a frame
// of a 16-peer match, or a backlog, in one call.
const drainBatch = 16

// drainer reads datagrams from the socket in the game loop's own Receive
// calls, with one non-blocking recvmmsg(2) for up to drainBatch of them:
// no goroutine hands datagrams over, so no wake-up or lock hand-off is
// paid per datagram. It is the Conn's path on Linux for a *net.UDPConn.
//
// Its arrays are allocated once. The kernel writes each datagram into
// bufs[i] (one byte longer than transport.MaxDatagram, so an oversized
// datagram shows as too long and is dropped) and its source address into
// names[i], a raw sockaddr parsed by sourceOf.
//
// This file holds the package's only use of unsafe: the address of hdrs
// passed to the system call, as x/sys/unix's own wrappers pass theirs.
// golang.org/x/net/ipv4's ReadBatch would do the same call, but it
// allocates a net.UDPAddr per datagram.
type drainer struct {
	raw   syscall.RawConn
	read  func(fd uintptr) bool // d.recv as a method value, made once
	hdrs  [drainBatch]unix.Mmsghdr
	iovs  [drainBatch]unix.Iovec
	names [drainBatch][unix.SizeofSockaddrInet6]byte
	bufs  [drainBatch][transport.MaxDatagram + 1]byte
	n     int           // datagrams the last call returned
	errno syscall.Errno // the last call's error, 0 if none
}

// newDrainer returns the drainer of c's socket, or nil when the socket is
// not a *net.UDPConn and the reader goroutine must serve it.
func newDrainer(c *Conn) *drainer {
	if c.udp == nil {
		return nil
	}
	raw, err := c.udp.SyscallConn()
	if err != nil {
		return nil
	}
	d := &drainer{raw: raw}
	for i := range d.hdrs {
		d.iovs[i].Base = &d.bufs[i][0]
		d.iovs[i].SetLen(len(d.bufs[i]))
		d.hdrs[i].Hdr.Iov = &d.iovs[i]
		d.hdrs[i].Hdr.SetIovlen(1)
		d.hdrs[i].Hdr.Name = &d.names[i][0]
	}
	d.read = d.recv
	return d
}

// recv is the RawConn.Read callback: one recvmmsg call that never waits.
// It returns true so that RawConn.Read never parks the goroutine.
func (d *drainer) recv(fd uintptr) bool {
	for i := range d.hdrs {
		d.hdrs[i].Hdr.Namelen = uint32(len(d.names[i]))
		d.hdrs[i].Hdr.Flags = 0
		d.hdrs[i].Len = 0
	}
	n, _, errno := unix.Syscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&d.hdrs[0])), drainBatch,
		unix.MSG_DONTWAIT, 0, 0)
	d.n, d.errno = 0, errno
	if errno == 0 {
		d.n = int(n)
	}
	return true
}

// fill takes the datagrams waiting on the socket, up to drainBatch, and
// delivers them into the queue; c.mu must be held. A socket error is counted in
// ReadErrors; after maxReadErrors in a row, or when the socket is closed,
// the Conn stops receiving as a failed reader goroutine does.
func (c *Conn) fill() {
	d := c.drain
	if err := d.raw.Read(d.read); err != nil {
		c.readErr = err // the socket was closed behind the Conn's back
		return
	}
	switch {
	case d.errno == unix.EAGAIN || d.errno == unix.EINTR:
		c.readFailures = 0
		return
	case d.errno != 0:
		c.stats.ReadErrors++
		if c.readFailures++; c.readFailures >= maxReadErrors {
			c.readErr = d.errno
		}
		return
	}
	c.readFailures = 0
	for i := range d.n {
		c.deliver(d.bufs[i][:d.hdrs[i].Len], sourceOf(d.names[i][:d.hdrs[i].Hdr.Namelen]))
	}
}

// sourceOf parses a raw IPv4 or IPv6 sockaddr. Anything else yields the
// invalid AddrPort, which deliver counts as unknown. The IPv6 scope is
// dropped: the peer table ignores zones.
func sourceOf(sa []byte) netip.AddrPort {
	if len(sa) < 4 {
		return netip.AddrPort{}
	}
	port := binary.BigEndian.Uint16(sa[2:4])
	switch binary.NativeEndian.Uint16(sa[0:2]) {
	case unix.AF_INET:
		if len(sa) >= unix.SizeofSockaddrInet4 {
			return netip.AddrPortFrom(netip.AddrFrom4([4]byte(sa[4:8])), port)
		}
	case unix.AF_INET6:
		if len(sa) >= unix.SizeofSockaddrInet6 {
			return netip.AddrPortFrom(netip.AddrFrom16([16]byte(sa[8:24])), port)
		}
	}
	return netip.AddrPort{}
}
