package lobby_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/rollstep/rollstep/lobby"
)

// Two players join one room; the room makes them a match, and one relays
// a set-up message to the other by seat.
func Example() {
	srv, err := lobby.NewServer(lobby.Config{})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	url := "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws"

	ctx := context.Background()
	joined := make(chan *lobby.Match)
	for range 2 {
		go func() {
			m, err := lobby.Join(ctx, url, "duel", 2)
			if err != nil {
				panic(err)
			}
			joined <- m
		}()
	}
	a, b := <-joined, <-joined
	if a.Seat == 1 {
		a, b = b, a
	}
	defer a.Close()
	defer b.Close()
	fmt.Println("seats:", a.Seat, b.Seat, "of", a.Size, "- same secret:", a.Token == b.Token)

	if err := a.Send(1, []byte("offer")); err != nil {
		panic(err)
	}
	from, msg, err := b.Receive(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Printf("seat 1 got %q from seat %d\n", msg, from)
	// Output:
	// seats: 0 1 of 2 - same secret: true
	// seat 1 got "offer" from seat 0
}
