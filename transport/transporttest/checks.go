package transporttest

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/rollstep/rollstep/transport"
)

// checks lists the subtests of TestConn in the order they run.
var checks = []check{
	{"RoundTrip", checkRoundTrip},
	{"Order", checkOrder},
	{"EmptyDatagram", checkEmptyDatagram},
	{"MaxDatagram", checkMaxDatagram},
	{"TooLarge", checkTooLarge},
	{"SendDoesNotRetain", checkSendDoesNotRetain},
	{"ReceiveDoesNotRetain", checkReceiveDoesNotRetain},
	{"ReceiveOnEmpty", checkReceiveOnEmpty},
	{"ShortBuffer", checkShortBuffer},
	{"Close", checkClose},
	{"CloseDiscardsPending", checkCloseDiscardsPending},
	{"PeerClosed", checkPeerClosed},
}

func checkRoundTrip(t *testing.T, p Pair) {
	send(t, p.A, p.ToB, []byte("ping"))
	got := receive(t, p, p.B)
	if string(got.data) != "ping" || got.from != p.ToA {
		t.Fatalf("B received (%q from %v), want (\"ping\" from %v)", got.data, got.from, p.ToA)
	}
	send(t, p.B, p.ToA, []byte("pong"))
	got = receive(t, p, p.A)
	if string(got.data) != "pong" || got.from != p.ToB {
		t.Fatalf("A received (%q from %v), want (\"pong\" from %v)", got.data, got.from, p.ToB)
	}
	expectNothing(t, p, p.A)
	expectNothing(t, p, p.B)
}

func checkOrder(t *testing.T, p Pair) {
	const count = 16
	for i := range count {
		send(t, p.A, p.ToB, pattern(1+i*50, byte(i)))
	}
	for i := range count {
		got := receive(t, p, p.B)
		if want := pattern(1+i*50, byte(i)); !bytes.Equal(got.data, want) {
			t.Fatalf("datagram %d: got %d bytes starting %x, want %d bytes starting %x", i, len(got.data), got.data[:1], len(want), want[:1])
		}
	}
	expectNothing(t, p, p.B)
}

func checkEmptyDatagram(t *testing.T, p Pair) {
	send(t, p.A, p.ToB, nil)
	send(t, p.A, p.ToB, []byte{})
	for i := range 2 {
		if got := receive(t, p, p.B); len(got.data) != 0 || got.from != p.ToA {
			t.Fatalf("datagram %d: got (%d bytes from %v), want (0 bytes from %v)", i, len(got.data), got.from, p.ToA)
		}
	}
	// An empty datagram fits a nil buffer.
	send(t, p.A, p.ToB, nil)
	for range SettleAttempts {
		n, from, ok, err := p.B.Receive(nil)
		if err != nil {
			t.Fatalf("Receive(nil) of an empty datagram: got error %v, want nil", err)
		}
		if ok {
			if n != 0 || from != p.ToA {
				t.Fatalf("Receive(nil): got (n=%d, from=%v), want (0, %v)", n, from, p.ToA)
			}
			return
		}
		p.Settle()
	}
	t.Fatal("Receive(nil): the empty datagram never arrived")
}

func checkMaxDatagram(t *testing.T, p Pair) {
	want := pattern(transport.MaxDatagram, 3)
	send(t, p.A, p.ToB, want)
	if got := receive(t, p, p.B); !bytes.Equal(got.data, want) {
		t.Fatalf("got %d bytes, want the %d bytes sent", len(got.data), len(want))
	}
}

func checkTooLarge(t *testing.T, p Pair) {
	for _, size := range []int{transport.MaxDatagram + 1, 2 * transport.MaxDatagram, 65536} {
		err := p.A.Send(p.ToB, make([]byte, size))
		if !errors.Is(err, transport.ErrDatagramTooLarge) {
			t.Fatalf("Send(%d bytes): got error %v, want ErrDatagramTooLarge", size, err)
		}
		if !mentions(err, size) {
			t.Fatalf("Send(%d bytes): got error %q, want its message to give the size %d", size, err, size)
		}
	}
	expectNothing(t, p, p.B)
	// The Conn still works after rejecting a datagram.
	send(t, p.A, p.ToB, []byte("after"))
	if got := receive(t, p, p.B); string(got.data) != "after" {
		t.Fatalf("after a rejected Send: got %q, want \"after\"", got.data)
	}
}

func checkSendDoesNotRetain(t *testing.T, p Pair) {
	buf := []byte("first")
	original := append([]byte{}, buf...)
	send(t, p.A, p.ToB, buf)
	copy(buf, "XXXXX") // the caller reuses its buffer at once
	send(t, p.A, p.ToB, buf)
	if !bytes.Equal(buf, []byte("XXXXX")) {
		t.Fatalf("Send modified the caller's slice: got %q, want \"XXXXX\"", buf)
	}
	for i := range buf {
		buf[i] = 0
	}
	if got := receive(t, p, p.B); !bytes.Equal(got.data, original) {
		t.Fatalf("first datagram: got %q, want %q: Send retained the caller's slice", got.data, original)
	}
	if got := receive(t, p, p.B); string(got.data) != "XXXXX" {
		t.Fatalf("second datagram: got %q, want \"XXXXX\": Send retained the caller's slice", got.data)
	}
}

func checkReceiveDoesNotRetain(t *testing.T, p Pair) {
	send(t, p.A, p.ToB, []byte("one"))
	send(t, p.A, p.ToB, []byte("two"))
	first := bytes.Repeat([]byte{0xAA}, 64)
	n := receiveInto(t, p, p.B, first)
	if string(first[:n]) != "one" {
		t.Fatalf("first Receive: got %q, want \"one\"", first[:n])
	}
	if !bytes.Equal(first[n:], bytes.Repeat([]byte{0xAA}, len(first)-n)) {
		t.Fatalf("Receive wrote past the datagram: buf[%d:] = %x, want it untouched", n, first[n:])
	}
	copy(first, "zzz")
	second := make([]byte, 64)
	m := receiveInto(t, p, p.B, second)
	if string(second[:m]) != "two" {
		t.Fatalf("second Receive: got %q, want \"two\"", second[:m])
	}
	if string(first[:3]) != "zzz" {
		t.Fatalf("second Receive wrote into the first buffer: got %q, want \"zzz\"", first[:3])
	}
}

// receiveInto waits for one datagram on c and receives it into buf.
func receiveInto(t *testing.T, p Pair, c transport.Conn, buf []byte) int {
	t.Helper()
	for range SettleAttempts {
		n, _, ok, err := c.Receive(buf)
		if err != nil {
			t.Fatalf("Receive: %v", err)
		}
		if ok {
			return n
		}
		p.Settle()
	}
	t.Fatalf("Receive: no datagram after %d calls to Settle", SettleAttempts)
	return 0
}

func checkReceiveOnEmpty(t *testing.T, p Pair) {
	for _, buf := range [][]byte{nil, {}, make([]byte, transport.MaxDatagram)} {
		n, _, ok, err := p.A.Receive(buf)
		if n != 0 || ok || err != nil {
			t.Fatalf("Receive(len %d) with nothing sent: got (n=%d, ok=%v, err=%v), want (0, false, nil)", len(buf), n, ok, err)
		}
	}
	expectNothing(t, p, p.B)
}

func checkShortBuffer(t *testing.T, p Pair) {
	want := pattern(100, 9)
	send(t, p.A, p.ToB, want)
	small := bytes.Repeat([]byte{0xAA}, 10)
	var err error
	for range SettleAttempts {
		var ok bool
		_, _, ok, err = p.B.Receive(small)
		if ok {
			t.Fatal("Receive into 10 bytes returned a 100-byte datagram")
		}
		if err != nil {
			break
		}
		p.Settle()
	}
	if !errors.Is(err, transport.ErrShortBuffer) {
		t.Fatalf("Receive into 10 bytes: got error %v, want ErrShortBuffer", err)
	}
	if !mentions(err, 100) || !mentions(err, 10) {
		t.Fatalf("Receive into 10 bytes: got error %q, want its message to give both lengths, 100 and 10", err)
	}
	if !bytes.Equal(small, bytes.Repeat([]byte{0xAA}, 10)) {
		t.Fatalf("Receive wrote a short buffer: got %x, want it untouched", small)
	}
	if _, _, _, err := p.B.Receive(nil); !errors.Is(err, transport.ErrShortBuffer) {
		t.Fatalf("Receive(nil) with a 100-byte datagram queued: got error %v, want ErrShortBuffer", err)
	}
	if got := receive(t, p, p.B); !bytes.Equal(got.data, want) {
		t.Fatalf("after ErrShortBuffer: got %d bytes, want the queued 100-byte datagram", len(got.data))
	}
}

func checkClose(t *testing.T, p Pair) {
	if err := p.A.Close(); err != nil {
		t.Fatalf("first Close: got error %v, want nil", err)
	}
	if err := p.A.Close(); !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("second Close: got error %v, want ErrClosed", err)
	}
	for _, b := range [][]byte{nil, []byte("x"), make([]byte, transport.MaxDatagram+1)} {
		if err := p.A.Send(p.ToB, b); !errors.Is(err, transport.ErrClosed) {
			t.Fatalf("Send(%d bytes) after Close: got error %v, want ErrClosed", len(b), err)
		}
	}
	for _, b := range [][]byte{nil, make([]byte, transport.MaxDatagram)} {
		n, _, ok, err := p.A.Receive(b)
		if n != 0 || ok || !errors.Is(err, transport.ErrClosed) {
			t.Fatalf("Receive after Close: got (n=%d, ok=%v, err=%v), want (0, false, ErrClosed)", n, ok, err)
		}
	}
	expectNothing(t, p, p.B)
}

func checkCloseDiscardsPending(t *testing.T, p Pair) {
	send(t, p.A, p.ToB, []byte("lost"))
	for range SettleAttempts {
		p.Settle()
	}
	if err := p.B.Close(); err != nil {
		t.Fatalf("Close: got error %v, want nil", err)
	}
	n, _, ok, err := p.B.Receive(make([]byte, transport.MaxDatagram))
	if n != 0 || ok || !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("Receive after Close with a datagram pending: got (n=%d, ok=%v, err=%v), want (0, false, ErrClosed)", n, ok, err)
	}
}

func checkPeerClosed(t *testing.T, p Pair) {
	if err := p.B.Close(); err != nil {
		t.Fatalf("Close B: got error %v, want nil", err)
	}
	// A cannot know that B is gone: Send may succeed or fail, but must not
	// panic, and A keeps working.
	_ = p.A.Send(p.ToB, []byte("to a closed peer"))
	expectNothing(t, p, p.A)
	if err := p.A.Close(); err != nil {
		t.Fatalf("Close A after B: got error %v, want nil", err)
	}
}

// mentions reports whether err's message contains n as a whole number,
// not as part of a longer one.
func mentions(err error, n int) bool {
	msg, num := err.Error(), strconv.Itoa(n)
	for i := strings.Index(msg, num); i >= 0; {
		end := i + len(num)
		if (i == 0 || !isDigit(msg[i-1])) && (end == len(msg) || !isDigit(msg[end])) {
			return true
		}
		j := strings.Index(msg[i+1:], num)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }
