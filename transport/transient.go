package transport

import (
	"errors"
	"syscall"
)

// transientErrnos are the socket errors of a send that a later send may
// not meet: the network or the host is unreachable for a moment (a link
// or Wi-Fi drop, a route change), the peer's port refused an earlier
// datagram (ICMP port unreachable, as while a peer restarts), or the
// socket's buffer is full.
var transientErrnos = [...]syscall.Errno{
	syscall.ENETUNREACH, syscall.EHOSTUNREACH, syscall.ENETDOWN,
	syscall.ECONNREFUSED, syscall.ENOBUFS, syscall.EAGAIN,
}

// Transient reports whether err, returned by a Conn's Send, is a socket
// error that a later send may not meet: an unreachable network or host,
// a refused connection, a full buffer. A session counts such errors and
// goes on (its protocol repeats what was lost); every other error ends
// it.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	for _, e := range transientErrnos {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
