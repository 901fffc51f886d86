//go:build !linux

package udp

// drainer is the Linux batch reader (drain_linux.go); elsewhere every
// Conn has a reader goroutine.
type drainer struct{}

func newDrainer(*Conn) *drainer { return nil }

func (c *Conn) fill() {}
