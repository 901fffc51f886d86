package endpoint_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

// printer is a Receiver that prints the messages it gets; a front end
// passes its *core.Engine instead.
type printer struct{ self int }

func (p printer) Receive(now time.Duration, from core.PeerID, m *engine.Message[uint16]) error {
	for _, r := range m.Inputs {
		fmt.Printf("%v: endpoint %d: player %d inputs %v from frame %d\n", now, p.self, r.Player, r.Values, r.Start)
	}
	return nil
}

// Two endpoints on a simulated network with 10 ms of latency complete the
// handshake, then endpoint 0 sends one input message to endpoint 1.
func Example() {
	nw, _ := sim.New(sim.Config{Link: sim.LinkConfig{Latency: sim.Latency{Base: 10 * time.Millisecond}}})
	digest, _ := wire.DigestOf[uint16](2, 60, 1, [16]byte{'d', 'e', 'm', 'o'})
	var eps [2]*endpoint.Endpoint[uint16]
	for i := range eps {
		cfg := endpoint.Config{
			Token:  0xC0FFEE,
			Digest: digest,
			Rand:   rand.NewChaCha8([32]byte{byte(i)}), // crypto/rand when nil
		}
		var err error
		eps[i], err = endpoint.New[uint16](cfg, nw.NewEndpoint(), []transport.Addr{transport.Addr(1 - i)})
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	msg := engine.Message[uint16]{Inputs: []engine.InputRun[uint16]{{Player: 0, Start: 0, Values: []uint16{7, 7, 9}}}}
	sent := false
	for now := time.Duration(0); now <= 60*time.Millisecond; now += 5 * time.Millisecond {
		nw.RunUntil(now)
		for i, ep := range eps {
			ep.Poll(now, printer{i})
			if i == 0 && !sent && ep.State(0) == endpoint.StateConnected {
				msg.Stamp = now
				ep.Send(now, []engine.Outgoing[uint16]{{To: 0, Message: &msg}})
				sent = true
			}
			ep.Tick(now)
			for _, ev := range ep.Events() {
				fmt.Printf("%v: endpoint %d: peer %d %v\n", ev.At, i, ev.Peer, ev.Kind)
			}
		}
	}
	s, _ := eps[0].Peer(0)
	fmt.Printf("endpoint 0 sent %d packets, %d bytes (%d with IP and UDP headers)\n", s.PacketsSent, s.BytesSent, s.WireBytesSent())
	// Output:
	// 20ms: endpoint 0: peer 0 connected
	// 20ms: endpoint 1: peer 0 connected
	// 30ms: endpoint 1: player 0 inputs [7 7 9] from frame 0
	// endpoint 0 sent 3 packets, 172 bytes (256 with IP and UDP headers)
}
