package hostile

import (
	"net"
	"os"
	"syscall"

	"github.com/rollstep/rollstep/transport"
)

// Unreachable is a transport.Conn whose sends fail with "network is
// unreachable", as a kernel's do while a link is down, whenever Down
// reports true; otherwise it passes them on.
type Unreachable struct {
	transport.Conn
	Down func() bool
}

// Send fails while u.Down() holds and sends p otherwise.
func (u *Unreachable) Send(to transport.Addr, p []byte) error {
	if u.Down() {
		return &net.OpError{Op: "write", Net: "udp", Err: os.NewSyscallError("sendto", syscall.ENETUNREACH)}
	}
	return u.Conn.Send(to, p)
}
