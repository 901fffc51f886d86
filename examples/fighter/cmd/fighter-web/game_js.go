//go:build js

package main

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"syscall/js"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/lobby"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/webrtc"
)

// main is the browser's side: join the room the page's URL names on the
// server that served it, connect to the other player over WebRTC, and play
// on the canvas from requestAnimationFrame, with the keyboard or, with
// ?bot=1, the bot. The page shows the state; when the match ends (after
// ?frames=N frames, if given) it sets data-checksum on <body>.
func main() {
	doc := js.Global().Get("document")
	status := func(s string) { doc.Call("getElementById", "status").Set("textContent", s) }
	loc := js.Global().Get("location")
	q, _ := url.ParseQuery(loc.Get("search").String()[min(1, len(loc.Get("search").String())):])
	room := q.Get("room")
	if room == "" {
		room = "fighter"
	}
	frames, _ := strconv.Atoi(q.Get("frames"))
	useBot := q.Get("bot") == "1"
	scheme := "ws"
	if loc.Get("protocol").String() == "https:" {
		scheme = "wss"
	}
	ws := scheme + "://" + loc.Get("host").String() + "/ws"

	status("waiting in room " + room + " for a second player...")
	ctx := context.Background()
	m, err := lobby.Join(ctx, ws, room, 2)
	if err != nil {
		status("lobby: " + err.Error())
		return
	}
	status(fmt.Sprintf("seat %d: connecting...", m.Seat))
	conn, err := webrtc.New(webrtc.Config{Self: transport.Addr(m.Seat), Peers: m.Peers(), Signaler: m})
	if err != nil {
		status("webrtc: " + err.Error())
		return
	}
	s, err := newSession(m, conn, core.Frame(frames))
	if err != nil {
		status("session: " + err.Error())
		return
	}
	me := core.PlayerHandle(m.Seat)

	var held fighter.Buttons
	keys := map[string]fighter.Buttons{"ArrowLeft": fighter.Left, "ArrowRight": fighter.Right, "ArrowUp": fighter.Up,
		"ArrowDown": fighter.Down, "KeyZ": fighter.Attack, "KeyX": fighter.Block}
	onKey := func(down bool) js.Func {
		return js.FuncOf(func(_ js.Value, args []js.Value) any {
			if b, ok := keys[args[0].Get("code").String()]; ok {
				if down {
					held |= b
				} else {
					held &^= b
				}
				args[0].Call("preventDefault")
			}
			return nil
		})
	}
	doc.Call("addEventListener", "keydown", onKey(true))
	doc.Call("addEventListener", "keyup", onKey(false))
	bots := fighter.BotInputs(m.Token)

	canvas := doc.Call("getElementById", "arena")
	g := canvas.Call("getContext", "2d")
	start := time.Now()
	var frame js.Func
	frame = js.FuncOf(func(js.Value, []js.Value) any {
		in := fighter.Input{Buttons: held}
		if useBot {
			in = bots(me, s.Frame())
		}
		_ = s.AddLocalInput(me, in)
		if err := s.Update(time.Since(start)); err != nil {
			status("match ended: " + err.Error())
			return nil
		}
		draw(g, s.State(), m.Seat)
		st := s.Stats()
		status(fmt.Sprintf("seat %d, frame %d, round %d, rollbacks %d", m.Seat, s.Frame(), s.State().Round, st.Rollbacks))
		if s.Ended() {
			sum := fmt.Sprintf("%016x", state.Checksum(s.State()))
			doc.Get("body").Get("dataset").Set("checksum", sum)
			doc.Get("body").Get("dataset").Set("frame", strconv.Itoa(int(s.Frame())))
			status(fmt.Sprintf("match over at frame %d: checksum %s", s.Frame(), sum))
			return nil
		}
		js.Global().Call("requestAnimationFrame", frame)
		return nil
	})
	js.Global().Call("requestAnimationFrame", frame)
	select {} // the page's callbacks run the game
}

// draw paints the arena: ground, the two fighters (player 0 blue, player
// 1 red, this seat's outlined), their attacks and health bars.
func draw(g js.Value, st *fighter.State, seat int) {
	const w, h, ground, scale = 640, 240, 200, 2
	g.Set("fillStyle", "#111")
	g.Call("fillRect", 0, 0, w, h)
	g.Set("fillStyle", "#444")
	g.Call("fillRect", 0, ground, w, h-ground)
	colors := [2]string{"#4a8cff", "#ff5a4a"}
	for p, f := range st.Fighters {
		height := int64(fighter.StandHeight)
		if f.Crouching {
			height = fighter.CrouchHeight
		}
		x := int(f.Pos.X.Int()) * scale
		y := ground - int(f.Pos.Y.Int())*scale
		g.Set("fillStyle", colors[p])
		g.Call("fillRect", x-12, y-int(height)*scale, 24, int(height)*scale)
		if f.Action == fighter.ActionAttack {
			g.Set("fillStyle", "#ffd24a")
			g.Call("fillRect", x+int(f.Facing)*12, y-int(height)*scale+8, int(f.Facing)*28, 8)
		}
		if p == seat {
			g.Set("strokeStyle", "#fff")
			g.Call("strokeRect", x-13, y-int(height)*scale-1, 26, int(height)*scale+2)
		}
		g.Set("fillStyle", colors[p])
		bar := int(f.Health) * 250 / fighter.MaxHealth
		if p == 0 {
			g.Call("fillRect", 20, 16, bar, 10)
		} else {
			g.Call("fillRect", w-20-bar, 16, bar, 10)
		}
	}
}
