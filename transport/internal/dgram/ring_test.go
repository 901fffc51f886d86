package dgram

import (
	"errors"
	"testing"

	"github.com/rollstep/rollstep/transport"
)

func TestRingIsAFIFOThatDropsTheOldest(t *testing.T) {
	r := NewRing(3)
	for i := range 5 {
		dropped := r.Push([]byte{byte(i)}, transport.Addr(i))
		if want := i >= 3; dropped != want {
			t.Errorf("Push #%d dropped = %v, want %v", i, dropped, want)
		}
	}
	if r.Len() != 3 {
		t.Fatalf("Len = %d, want 3", r.Len())
	}
	for want := 2; want < 5; want++ {
		s, ok := r.Peek()
		if !ok || s.N != 1 || s.Buf[0] != byte(want) || s.From != transport.Addr(want) {
			t.Fatalf("Peek = %+v, %v; want datagram %d", s, ok, want)
		}
		r.Pop()
	}
	if _, ok := r.Peek(); ok || r.Len() != 0 {
		t.Error("the ring is not empty after popping everything")
	}
	r.Push(make([]byte, transport.MaxDatagram+10), 1)
	if s, _ := r.Peek(); s.N != transport.MaxDatagram {
		t.Errorf("an oversized datagram kept %d bytes, want %d", s.N, transport.MaxDatagram)
	}
	r.Clear()
	if r.Len() != 0 {
		t.Error("Clear left datagrams")
	}
	if z := NewRing(0); z.Push([]byte{1}, 0) || z.Len() != 1 {
		t.Error("NewRing(0) holds no datagram, want one")
	}
}

func TestRingAllocatesNothing(t *testing.T) {
	r := NewRing(4)
	p := []byte("hello")
	if n := testing.AllocsPerRun(100, func() {
		r.Push(p, 2)
		r.Peek()
		r.Pop()
	}); n != 0 {
		t.Errorf("Push/Peek/Pop allocate %v times, want 0", n)
	}
}

func TestRingReceive(t *testing.T) {
	r := NewRing(2)
	buf := make([]byte, 4)
	if _, _, ok, err := r.Receive(buf); ok || err != nil {
		t.Fatalf("Receive on an empty ring = %v, %v; want false, nil", ok, err)
	}
	r.Push([]byte("too long"), 7)
	_, _, ok, err := r.Receive(buf)
	if want := "transport: receive buffer too small: 4 bytes for a datagram of 8 bytes"; ok || !errors.Is(err, transport.ErrShortBuffer) || err.Error() != want {
		t.Fatalf("Receive into a short buffer = %v, %v; want false, %q", ok, err, want)
	}
	if r.Len() != 1 {
		t.Fatal("a short buffer dropped the datagram")
	}
	big := make([]byte, transport.MaxDatagram)
	n, from, ok, err := r.Receive(big)
	if !ok || err != nil || from != 7 || string(big[:n]) != "too long" {
		t.Errorf("Receive = %q from %v, %v, %v; want \"too long\" from 7", big[:n], from, ok, err)
	}
}
