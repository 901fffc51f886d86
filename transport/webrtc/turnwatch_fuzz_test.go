//go:build !js

package webrtc

import (
	"net"
	"testing"

	"github.com/pion/stun/v4"
)

// FuzzTurnSocketCheck feeds arbitrary datagrams, as if from a TURN
// server, to the TURN socket's response check: nothing may panic, and
// only an error response to a remembered authenticated Allocate may
// report a refusal.
func FuzzTurnSocketCheck(f *testing.F) {
	id := [stun.TransactionIDSize]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	refusal := stun.MustBuild(stun.NewTransactionIDSetter(id), stun.NewType(stun.MethodAllocate, stun.ClassErrorResponse),
		stun.CodeUnauthorized)
	success := stun.MustBuild(stun.NewTransactionIDSetter(id), stun.NewType(stun.MethodAllocate, stun.ClassSuccessResponse))
	f.Add(refusal.Raw)
	f.Add(success.Raw)
	f.Add(refusal.Raw[:len(refusal.Raw)-3])
	f.Add([]byte{0x40, 0x00, 0x00, 0x04, 1, 2, 3, 4}) // TURN ChannelData
	f.Add([]byte{})
	addr := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 3478}
	f.Fuzz(func(t *testing.T, p []byte) {
		reported := false
		c := &turnSocket{refused: func(error) { reported = true },
			signed: map[[stun.TransactionIDSize]byte]struct{}{id: {}}}
		typ, ok := stunType(p)
		if !ok {
			return
		}
		m, decoded := decode(p)
		c.check(p, typ, addr)
		if reported && (!decoded || m.TransactionID != id || typ.Class != stun.ClassErrorResponse) {
			t.Fatalf("a refusal reported for %x, which is no error response to the remembered request", p)
		}
	})
}
