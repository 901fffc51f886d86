package transport

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"
)

func TestTransient(t *testing.T) {
	wrap := func(errno syscall.Errno) error {
		return &net.OpError{Op: "write", Net: "udp", Err: os.NewSyscallError("sendto", errno)}
	}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{wrap(syscall.ENETUNREACH), true},
		{wrap(syscall.EHOSTUNREACH), true},
		{wrap(syscall.ECONNREFUSED), true},
		{wrap(syscall.ENOBUFS), true},
		{wrap(syscall.EBADF), false},
		{ErrClosed, false},
		{fmt.Errorf("%w: 2000 bytes, over the 1200-byte limit", ErrDatagramTooLarge), false},
		{errors.New("something else"), false},
		{nil, false},
	} {
		if got := Transient(tc.err); got != tc.want {
			t.Errorf("Transient(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
