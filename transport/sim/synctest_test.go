package sim

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// TestSynctestPump shows how code with real timers uses a Network: inside
// a synctest bubble, a pump goroutine maps the bubble's fake clock onto
// virtual time, and a mutex guards the network. Latencies stay exact.
func TestSynctestPump(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		net, eps := newNetwork(t, Config{Link: LinkConfig{Latency: Latency{Base: 50 * time.Millisecond}}}, 2)
		var mu sync.Mutex
		start := time.Now()
		// Every use of the network first brings virtual time up to the
		// bubble's clock, so a Send leaves at the right virtual time.
		lock := func() {
			mu.Lock()
			net.RunUntil(time.Since(start))
		}
		stop, done := make(chan struct{}), make(chan struct{})
		defer func() { close(stop); <-done }()
		go func() { // the pump
			defer close(done)
			for {
				lock()
				wait := 10 * time.Millisecond // poll while nothing is in flight
				if next, ok := net.Next(); ok {
					wait = next - time.Since(start)
				}
				mu.Unlock()
				select {
				case <-stop:
					return
				case <-time.After(wait):
				}
			}
		}()
		receive := func() (string, bool) {
			synctest.Wait() // let the pump run first; the result is the same
			lock()
			defer mu.Unlock()
			buf := make([]byte, transport.MaxDatagram)
			n, _, ok, err := eps[1].Receive(buf)
			if err != nil {
				t.Fatal(err)
			}
			return string(buf[:n]), ok
		}

		time.Sleep(25 * time.Millisecond)
		lock()
		eps[0].Send(1, []byte("tick"))
		mu.Unlock()

		time.Sleep(50*time.Millisecond - 1)
		if _, ok := receive(); ok {
			t.Fatalf("received at %v, want nothing before 75ms", time.Since(start))
		}
		time.Sleep(time.Nanosecond)
		if got, ok := receive(); !ok || got != "tick" {
			t.Fatalf("at %v: got (%q, %v), want (\"tick\", true)", time.Since(start), got, ok)
		}
		if got := time.Since(start); got != 75*time.Millisecond {
			t.Fatalf("received at %v, want exactly 75ms", got)
		}
	})
}
