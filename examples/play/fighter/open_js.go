//go:build js

package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"syscall/js"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/play/internal/duel"
	"github.com/rollstep/rollstep/lobby"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/webrtc"
)

// openDuel is the browser's match: it joins the room the page's URL names
// (?room=, default "fighter") on the lobby of the server that served the
// page, connects to the other member over WebRTC and plays its seat; with
// ?bot=1 a bot plays it, ?overlay=1 shows the network overlay from the
// start, and ?frames=N ends the match at frame N. The browser has no flags: the query is its command line.
func openDuel(o *options, voices duel.Voices, stdout io.Writer) (*duel.Duel, error) {
	loc := js.Global().Get("location")
	q, _ := url.ParseQuery(trimQuery(loc.Get("search").String()))
	room := q.Get("room")
	if room == "" {
		room = "fighter"
	}
	scheme := "ws"
	if loc.Get("protocol").String() == "https:" {
		scheme = "wss"
	}
	fmt.Fprintf(stdout, "joining room %q\n", room)
	m, err := lobby.Join(context.Background(), scheme+"://"+loc.Get("host").String()+"/ws", room, 2)
	if err != nil {
		return nil, fmt.Errorf("lobby: %w", err)
	}
	conn, err := webrtc.New(webrtc.Config{Self: transport.Addr(m.Seat), Peers: m.Peers(), Signaler: m})
	if err != nil {
		_ = m.Close()
		return nil, fmt.Errorf("webrtc: %w", err)
	}
	d, err := duel.Remote(m.Seat, q.Get("bot") != "1", conn, transport.Addr(1-m.Seat), m.Token, m.Token, voices)
	if err != nil {
		_ = conn.Close()
		_ = m.Close()
		return nil, err
	}
	if n, _ := strconv.Atoi(q.Get("frames")); n > 0 {
		if err := d.View().EndAt(core.Frame(n)); err != nil {
			d.Close()
			return nil, err
		}
	}
	return d, nil
}

// report shows the page's progress to whoever drives it (the browser
// test): the frame on <body data-frame>, and once the match ended (at
// ?frames=N) the checksum of its final state on data-checksum.
func report(s *duel.Session) {
	data := js.Global().Get("document").Get("body").Get("dataset")
	data.Set("frame", strconv.Itoa(int(s.Frame())))
	if s.Ended() && data.Get("checksum").IsUndefined() {
		data.Set("checksum", fmt.Sprintf("%016x", state.Checksum(s.State())))
	}
}

// browserOptions reads the page's query into the options the browser
// build honours.
func browserOptions(o *options) {
	q, _ := url.ParseQuery(trimQuery(js.Global().Get("location").Get("search").String()))
	o.autoplay = q.Get("bot") == "1"
	o.overlay = q.Get("overlay") == "1"
}

// trimQuery drops the "?" of a location's search string.
func trimQuery(s string) string {
	if len(s) > 0 && s[0] == '?' {
		return s[1:]
	}
	return s
}
