package udp

import (
	"encoding/binary"
	"net/netip"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/rollstep/rollstep/transport"
)

// drainBatch is how many datagrams one recvmmsg call takes off the socket.
// A 2-player match at 60 Hz gets about one per frame; 16 covers a frame
// of a 16-peer match, or a backlog, in one call.
const drainBatch = 16

// drainer is the Conn's socket path on Linux for a *net.UDPConn: the game
// loop's own Receive and Send calls make the system calls, and nothing
// else touches the socket.
//
//   - No goroutine hands datagrams over, so no wake-up or lock hand-off is
//     paid per datagram. Receive takes what waits with one non-blocking
//     recvmmsg(2) for up to drainBatch datagrams.
//   - The socket is out of Go's network poller: New duplicates its
//     descriptor and closes the *net.UDPConn, which removes the original
//     from epoll. Otherwise every arriving datagram would wake an idle
//     runtime thread blocked in epoll_wait, for nothing: no goroutine ever
//     waits on this socket.
//   - c.mu is held around every system call on fd, so Close cannot close
//     it under one.
//   - The calls are raw system calls (unix.RawSyscall6), which do not tell
//     the Go scheduler they are under way: with MSG_DONTWAIT none can
//     block. A scheduled system call (unix.Syscall6, which
//     x/sys/unix's Sendto uses) wakes the runtime's sysmon thread from its
//     deep sleep if the process was idle, and sysmon then polls every 20
//     µs for a while: a 60 Hz game loop that sleeps between frames paid
//     40 to 90 µs of CPU a frame for it on a 2-core VM, many times the
//     session's own work in a frame.
//
// Its arrays are allocated once. The kernel writes each datagram into
// bufs[i] (one byte longer than transport.MaxDatagram, so an oversized
// datagram shows as too long and is dropped) and its source address into
// names[i], a raw sockaddr parsed by sourceOf.
//
// This file and batch_linux.go hold the package's only uses of unsafe:
// the addresses of message headers, raw sockaddrs and datagrams passed to
// the system calls, as x/sys/unix's own wrappers pass theirs.
// golang.org/x/net/ipv4's ReadBatch would do the same call, but it
// allocates a net.UDPAddr per datagram.
type drainer struct {
	// failures counts socket errors in a row.
	failures int
	// emptyAt is when the socket was last found empty: a batch that came
	// back short (recvmmsg stops at an empty socket). Within emptyFor of
	// it, a Receive that finds the queue empty reports so without another
	// system call: the rest of one game-loop poll costs no second
	// recvmmsg. Zero when not known empty.
	emptyAt time.Time
	fd      int
	inet6   bool                  // an AF_INET6 socket: IPv4 peers are sent to as ::ffff:a.b.c.d
	to      unix.RawSockaddrInet6 // send's destination; an IPv4 one fills its start
	hdrs    [drainBatch]unix.Mmsghdr
	iovs    [drainBatch]unix.Iovec
	names   [drainBatch][unix.SizeofSockaddrInet6]byte
	bufs    [drainBatch][transport.MaxDatagram + 1]byte
	out     batch // held sends (batch_linux.go)
}

// newDrainer takes c's socket out of Go's poller and returns its drainer,
// or nil, leaving the socket as it was, when the socket is not a
// *net.UDPConn (or cannot be duplicated) and the reader goroutine must
// serve it.
func newDrainer(c *Conn) *drainer {
	if c.udp == nil {
		return nil
	}
	raw, err := c.udp.SyscallConn()
	if err != nil {
		return nil
	}
	fd, derr := -1, error(nil)
	if err := raw.Control(func(s uintptr) { fd, derr = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0) }); err != nil || derr != nil {
		return nil
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		_ = unix.Close(fd)
		return nil
	}
	_ = c.udp.Close() // the duplicate keeps the socket open, outside epoll
	d := &drainer{fd: fd}
	_, d.inet6 = sa.(*unix.SockaddrInet6)
	for i := range d.hdrs {
		d.iovs[i].Base = &d.bufs[i][0]
		d.iovs[i].SetLen(len(d.bufs[i]))
		d.hdrs[i].Hdr.Iov = &d.iovs[i]
		d.hdrs[i].Hdr.SetIovlen(1)
		d.hdrs[i].Hdr.Name = &d.names[i][0]
	}
	return d
}

// recv makes one recvmmsg call that never waits and returns the number
// of datagrams it took and its error.
func (d *drainer) recv() (int, unix.Errno) {
	for i := range d.hdrs {
		d.hdrs[i].Hdr.Namelen = uint32(len(d.names[i]))
		d.hdrs[i].Hdr.Flags = 0
		d.hdrs[i].Len = 0
	}
	n, _, errno := unix.RawSyscall6(unix.SYS_RECVMMSG, uintptr(d.fd), uintptr(unsafe.Pointer(&d.hdrs[0])), drainBatch,
		unix.MSG_DONTWAIT, 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), 0
}

// send writes p to addr with one sendto(2) that never waits: a full
// socket buffer is an error (EAGAIN), as loss would be, not a wait.
// c.mu must be held.
func (d *drainer) send(addr netip.AddrPort, p []byte) error {
	n := d.rawName(&d.to, addr)
	_, _, errno := unix.RawSyscall6(unix.SYS_SENDTO, uintptr(d.fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)),
		unix.MSG_DONTWAIT, uintptr(unsafe.Pointer(&d.to)), uintptr(n))
	if errno != 0 {
		return errno
	}
	return nil
}

// holding reports whether Send queues datagrams for a batch (see hold).
func (d *drainer) holding() bool { return d.out.held }

// close closes the socket; c.mu must be held.
func (d *drainer) close() error { return unix.Close(d.fd) }

// emptyFor is how long a short batch vouches for an empty socket; see
// drainer.emptyAt. A datagram that arrives within it waits for the next poll,
// as one would that arrived just after it.
const emptyFor = 100 * time.Microsecond

// refill fills the empty queue unless the socket was found empty less
// than emptyFor ago; c.mu must be held.
func (c *Conn) refill() {
	d := c.drain
	if !d.emptyAt.IsZero() && time.Since(d.emptyAt) < emptyFor {
		d.emptyAt = time.Time{}
		return
	}
	if n := c.fill(); n > 0 && n < drainBatch {
		d.emptyAt = time.Now()
	} else {
		d.emptyAt = time.Time{}
	}
}

// fill takes the datagrams waiting on the socket, up to drainBatch, and
// delivers them into the queue; c.mu must be held. It returns how many it
// took. A socket error is counted in ReadErrors; a closed descriptor, or
// maxReadErrors errors in a row, stop the Conn receiving, as a failed
// reader goroutine does.
func (c *Conn) fill() int {
	d := c.drain
	n, errno := d.recv()
	switch errno {
	case 0:
	case unix.EAGAIN, unix.EINTR:
		d.failures = 0
		return 0
	case unix.EBADF, unix.ENOTSOCK:
		c.readErr = errno
		return 0
	default:
		c.stats.ReadErrors++
		if d.failures++; d.failures >= maxReadErrors {
			c.readErr = errno
		}
		return 0
	}
	d.failures = 0
	for i := range n {
		c.deliver(d.bufs[i][:d.hdrs[i].Len], sourceOf(d.names[i][:d.hdrs[i].Hdr.Namelen]))
	}
	return n
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
