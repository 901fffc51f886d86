//go:build !linux

package udp

import (
	"errors"
	"net/netip"

	"github.com/rollstep/rollstep/transport"
)

// drainer is the Linux socket path (drain_linux.go); elsewhere every Conn
// has a reader goroutine, and these are never called.
type drainer struct{}

var errNoDrainer = errors.New("udp: no drainer on this platform")

func newDrainer(*Conn) *drainer                       { return nil }
func (*drainer) send(netip.AddrPort, []byte) error    { return errNoDrainer }
func (*drainer) close() error                         { return errNoDrainer }
func (c *Conn) refill()                               {}
func (c *Conn) fill() int                             { return 0 }
func (*drainer) holding() bool                        { return false }
func (c *Conn) hold(func(transport.Addr, int, error)) {}
func (c *Conn) flush()                                {}
func (c *Conn) queueHeld(transport.Addr, netip.AddrPort, []byte) error {
	return errNoDrainer
}
