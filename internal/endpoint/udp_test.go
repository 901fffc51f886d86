package endpoint

import (
	"net"
	"testing"

	"github.com/rollstep/rollstep/transport/udp"
)

// TestUDPPeerTable checks that the endpoint finds the peer table of a
// transport/udp Conn, whose provisional peers are what Forgetter and
// Rebinder exist for, although the Conn does not export Forget and Rebind.
func TestUDPPeerTable(t *testing.T) {
	pc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := udp.New(pc, udp.Config{AcceptUnknown: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if f, rb := peerTable(c); f == nil || rb == nil {
		t.Fatalf("peerTable(*udp.Conn) = %v, %v; want a Forgetter and a Rebinder", f, rb)
	}
}
