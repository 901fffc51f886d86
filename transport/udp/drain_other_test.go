//go:build !linux

package udp

import "time"

func pollReadable(*Conn, time.Duration) {}
