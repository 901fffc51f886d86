package stream

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
)

// The spectator stream
//
// Spectators are extra peers of the host's endpoint, after the players'
// peers, so they share its Conn, handshake and timers; the engine never
// hears of them and never waits for them. Every tick the host sends each
// spectator one input message (core.Message over wire's input packet)
// built from the engine's input log: for every player a run of confirmed
// inputs from the frame the spectator acknowledged, up to Run
// frames and never past the newest confirmed frame minus the stream
// delay. Message.Frame is that end; Held[p] is the end for a connected
// player and the agreed disconnect frame for a disconnected one, whose
// bit is set in Gone (its inputs from that frame on are
// InputDisconnected). A message whose Gone names every player ends the
// stream (the spectator was dropped). A spectator answers with input
// messages without inputs whose Held[0] is the number of frames it holds.

// Run is the most frames per player in one stream message.
const Run = 64

// endCopies is how many stream-ending messages a dropped spectator gets.
const endCopies = 8

// Config tunes the host side of the spectator stream.
type Config struct {
	// Delay holds every frame back this many frames after it is
	// confirmed, so a spectator cannot relay what it sees to a player in
	// time to matter.
	Delay int
	// MaxLag drops a spectator that acknowledges fewer frames than the
	// host's newest streamable frame minus MaxLag; 0 means ten seconds of
	// frames. The host never waits for a spectator.
	MaxLag int
}

// Stats describes one spectator of a host session.
type Stats struct {
	Joined  bool       // its handshake completed
	Left    bool       // it left, was lost, or was dropped
	Dropped bool       // it was dropped for lagging
	Acked   core.Frame // frames of inputs it acknowledged
}

// spectator is the host's view of one spectator.
type spectator struct {
	joined, left, dropped bool
	acked                 core.Frame
	sent                  core.Frame // the newest frame a message to it named
	ends                  int        // stream-ending messages still to send
}

// Streamer is the host side of the spectator stream, for slots of type I
// (core.Slot of the game's input). The zero Streamer streams to nobody.
type Streamer[I comparable] struct {
	players int
	base    int              // endpoint index of the first spectator
	sink    func(core.Event) // raises the stream's events
	delay   core.Frame
	maxLag  core.Frame
	specs   []spectator
	msgs    []engine.Message[I]
	out     []engine.Outgoing[I]
	runs    []engine.InputRun[I] // players runs per spectator
	vals    []I                  // Run values per run
	in      []I                  // one frame's slots
}

// Init prepares st to stream a match of players players to n spectators,
// the endpoint's peers base, base+1, ..., raising its events through
// sink.
func (st *Streamer[I]) Init(players, n int, c Config, base int, sink func(core.Event)) {
	if n == 0 {
		return
	}
	st.players, st.base, st.sink = players, base, sink
	st.delay, st.maxLag = core.Frame(c.Delay), core.Frame(c.MaxLag)
	st.specs = make([]spectator, n)
	st.msgs = make([]engine.Message[I], n)
	st.out = make([]engine.Outgoing[I], 0, n)
	st.runs = make([]engine.InputRun[I], n*players)
	st.vals = make([]I, n*players*Run)
	st.in = make([]I, 0, players)
	for i := range st.runs {
		st.runs[i].Values = st.vals[i*Run : i*Run : (i+1)*Run]
	}
}

// Receive takes spectator i's acknowledgement, up to the newest frame
// sent to it: a spectator cannot hold what it was never sent.
func (st *Streamer[I]) Receive(i int, m *engine.Message[I]) {
	if i < 0 || i >= len(st.specs) {
		return
	}
	sp := &st.specs[i]
	sp.acked = max(sp.acked, min(m.Held[0], sp.sent))
}

// PeerEvent handles an endpoint event of spectator i.
func (st *Streamer[I]) PeerEvent(i int, e endpoint.Event) {
	if i < 0 || i >= len(st.specs) {
		return
	}
	sp := &st.specs[i]
	switch e.Kind {
	case endpoint.EventConnected:
		sp.joined = true
		st.sink(core.SpectatorEvent{Spectator: i, Joined: true})
	case endpoint.EventRefused, endpoint.EventDisconnected, endpoint.EventLeft:
		if !sp.left {
			sp.left = true
			st.sink(core.SpectatorEvent{Spectator: i})
		}
	}
}

// logSource is the part of the engine the stream reads: I is the slot
// type (core.Slot of the game's input), which the stream relays as it is.
type Log[I comparable] interface {
	LogRange() (start, end core.Frame)
	ReadSlots(f core.Frame, dst []I) ([]I, error)
	Disconnected(p core.PlayerHandle) (core.Frame, bool)
}

// Send builds one message for every joined spectator from the input log
// and sends them through ep; it drops spectators that lag too far.
func (st *Streamer[I]) Send(now time.Duration, log Log[I], ep *endpoint.Endpoint[I]) error {
	if len(st.specs) == 0 {
		return nil
	}
	start, end := log.LogRange()
	end = max(end-st.delay, 0)
	st.out = st.out[:0]
	for i := range st.specs {
		sp := &st.specs[i]
		if !sp.joined || sp.left {
			continue
		}
		m := &st.msgs[i]
		if !sp.dropped {
			sp.acked = min(sp.acked, end)
			if lag := end - sp.acked; lag > st.maxLag || sp.acked < start {
				sp.dropped, sp.ends = true, endCopies
				st.sink(core.SpectatorEvent{Spectator: i, Dropped: true, Lag: lag})
			}
		}
		if sp.dropped {
			if sp.ends == 0 {
				// Every end message is sent: stop the keep-alives too.
				_ = ep.Disconnect(core.PeerID(st.base + i)) // in the table
				sp.left = true
				continue
			}
			sp.ends--
			*m = engine.Message[I]{Frame: end, Gone: uint16(1)<<st.players - 1, Stamp: now, Inputs: m.Inputs[:0]}
		} else {
			st.build(i, m, sp.acked, end, log)
			m.Stamp = now
			sp.sent = max(sp.sent, end)
		}
		st.out = append(st.out, engine.Outgoing[I]{To: core.PeerID(st.base + i), Message: m})
	}
	return ep.Send(now, st.out)
}

// build fills m with the confirmed inputs of frames from..end-1 (at most
// Run of them) for spectator i.
func (st *Streamer[I]) build(i int, m *engine.Message[I], from, end core.Frame, log Log[I]) {
	to := min(end, from+Run)
	runs := st.runs[i*st.players : (i+1)*st.players]
	m.Frame, m.Gone, m.Held = end, 0, [core.MaxPlayers]core.Frame{}
	var gone [core.MaxPlayers]core.Frame
	for p := range st.players {
		runs[p].Player, runs[p].Start, runs[p].Values = core.PlayerHandle(p), from, runs[p].Values[:0]
		m.Held[p] = end
		gone[p] = to
		if g, ok := log.Disconnected(core.PlayerHandle(p)); ok && g <= end {
			m.Gone |= 1 << p
			m.Held[p], gone[p] = g, min(g, to)
		}
	}
	for f := from; f < to; f++ {
		in, err := log.ReadSlots(f, st.in[:0])
		if err != nil {
			break
		}
		for p := range st.players {
			if f < gone[p] {
				runs[p].Values = append(runs[p].Values, in[p])
			}
		}
	}
	m.Inputs = m.Inputs[:0]
	if cap(m.Inputs) < st.players {
		m.Inputs = make([]engine.InputRun[I], 0, st.players)
	}
	for p := range st.players {
		if len(runs[p].Values) > 0 {
			m.Inputs = append(m.Inputs, runs[p])
		}
	}
}

// Stats appends one entry per spectator to dst.
func (st *Streamer[I]) Stats(dst []Stats) []Stats {
	for _, sp := range st.specs {
		dst = append(dst, Stats{Joined: sp.joined, Left: sp.left || sp.dropped, Dropped: sp.dropped, Acked: sp.acked})
	}
	return dst
}
