package rollback

import (
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/transport/endpoint"
)

// The spectator stream
//
// Spectators are extra peers of the host's endpoint, after the players'
// peers, so they share its Conn, handshake and timers; the engine never
// hears of them and never waits for them. Every tick the host sends each
// spectator one input message (core.Message over wire's input packet)
// built from the engine's input log: for every player a run of confirmed
// inputs from the frame the spectator acknowledged, up to streamRun
// frames and never past the newest confirmed frame minus the stream
// delay. Message.Frame is that end; Held[p] is the end for a connected
// player and the agreed disconnect frame for a disconnected one, whose
// bit is set in Gone (its inputs from that frame on are
// InputDisconnected). A message whose Gone names every player ends the
// stream (the spectator was dropped). A spectator answers with input
// messages without inputs whose Held[0] is the number of frames it holds.

// streamRun is the most frames per player in one stream message.
const streamRun = 64

// endCopies is how many stream-ending messages a dropped spectator gets.
const endCopies = 8

// spectator is the host's view of one spectator.
type spectator struct {
	joined, left, dropped bool
	acked                 core.Frame
	sent                  core.Frame // the newest frame a message to it named
	ends                  int        // stream-ending messages still to send
}

// streamer is the host side of the spectator stream.
type streamer[I comparable] struct {
	players int
	base    int // endpoint index of the first spectator
	delay   core.Frame
	maxLag  core.Frame
	specs   []spectator
	msgs    []core.Message[I]
	out     []core.Outgoing[I]
	runs    []core.InputRun[I] // players runs per spectator
	vals    []I                // streamRun values per run
	in      []I                // one frame's slots
}

func (st *streamer[I]) init(c Config, base int) {
	n := len(c.Spectators)
	if n == 0 {
		return
	}
	st.players, st.base = c.Players, base
	st.delay, st.maxLag = core.Frame(c.Spectate.Delay), core.Frame(c.Spectate.MaxLag)
	st.specs = make([]spectator, n)
	st.msgs = make([]core.Message[I], n)
	st.out = make([]core.Outgoing[I], 0, n)
	st.runs = make([]core.InputRun[I], n*c.Players)
	st.vals = make([]I, n*c.Players*streamRun)
	st.in = make([]I, 0, c.Players)
	for i := range st.runs {
		st.runs[i].Values = st.vals[i*streamRun : i*streamRun : (i+1)*streamRun]
	}
}

// receive takes spectator i's acknowledgement, up to the newest frame
// sent to it: a spectator cannot hold what it was never sent.
func (st *streamer[I]) receive(i int, m *core.Message[I]) {
	if i < 0 || i >= len(st.specs) {
		return
	}
	sp := &st.specs[i]
	sp.acked = max(sp.acked, min(m.Held[0], sp.sent))
}

// peerEvent handles an endpoint event of spectator i.
func (st *streamer[I]) peerEvent(s eventSink, i int, e endpoint.Event) {
	if i < 0 || i >= len(st.specs) {
		return
	}
	sp := &st.specs[i]
	switch e.Kind {
	case endpoint.EventConnected:
		sp.joined = true
		s.event(SpectatorJoinedEvent{Spectator: i})
	case endpoint.EventRefused, endpoint.EventDisconnected, endpoint.EventLeft:
		if !sp.left {
			sp.left = true
			s.event(SpectatorLeftEvent{Spectator: i})
		}
	}
}

// eventSink queues events.
type eventSink interface{ event(Event) }

// logSource is the part of the engine the stream reads: I is the slot
// type (core.Slot of the game's input), which the stream relays as it is.
type logSource[I comparable] interface {
	LogRange() (start, end core.Frame)
	ReadSlots(f core.Frame, dst []I) ([]I, error)
	Disconnected(p core.PlayerHandle) (core.Frame, bool)
}

// send builds one message for every joined spectator from the input
// log and sends them through ep; it drops spectators that lag too far.
func (st *streamer[I]) send(now time.Duration, log logSource[I], sink eventSink, ep *endpoint.Endpoint[I]) error {
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
				sink.event(SpectatorLeftEvent{Spectator: i, Dropped: true, Lag: lag})
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
			*m = core.Message[I]{Frame: end, Gone: uint16(1)<<st.players - 1, Stamp: now, Inputs: m.Inputs[:0]}
		} else {
			st.build(i, m, sp.acked, end, log)
			m.Stamp = now
			sp.sent = max(sp.sent, end)
		}
		st.out = append(st.out, core.Outgoing[I]{To: core.PeerID(st.base + i), Message: m})
	}
	return ep.Send(now, st.out)
}

// build fills m with the confirmed inputs of frames from..end-1 (at most
// streamRun of them) for spectator i.
func (st *streamer[I]) build(i int, m *core.Message[I], from, end core.Frame, log logSource[I]) {
	to := min(end, from+streamRun)
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
		m.Inputs = make([]core.InputRun[I], 0, st.players)
	}
	for p := range st.players {
		if len(runs[p].Values) > 0 {
			m.Inputs = append(m.Inputs, runs[p])
		}
	}
}

// stats appends one entry per spectator to dst.
func (st *streamer[I]) stats(dst []SpectatorStats) []SpectatorStats {
	for _, sp := range st.specs {
		dst = append(dst, SpectatorStats{Joined: sp.joined, Left: sp.left || sp.dropped, Dropped: sp.dropped, Acked: sp.acked})
	}
	return dst
}
