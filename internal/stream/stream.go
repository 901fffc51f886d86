package stream

import (
	"errors"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/endpoint"
	"github.com/rollstep/rollstep/internal/engine"
	"github.com/rollstep/rollstep/internal/transfer"
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

// A spectator that joins a running match (the host's endpoint reports it
// once the match is past LateAfter frames, or the input log no longer
// holds frame 0) first gets a join record, the engine's JoinRecord of a
// confirmed frame S compressed and sent in chunks over Transfer packets
// (internal/transfer's Push, paced at Config.Rate), and then the stream
// from S. The record is taken when the spectator joins and offered only
// once the stream itself has reached S, so it shows nothing the stream
// delay holds back; spectators that join within LateAfter frames of each
// other share one record. A spectator's transfer that times out drops
// it. The host learns a spectator came (again) from the endpoint's
// EventConnected or EventRestarted: the endpoint's spectators are open
// peers. A host whose side yielded a split took another side's engine
// (Restart): every spectator in the stream gets a join record of it and
// its replay starts over, since what was streamed since the split was
// thrown away; while the host comes back, Hold keeps its spectators from
// taking the silence for its end.

// Run is the most frames per player in one stream message.
const Run = 64

// LateAfter is how far into the match a spectator joins with a join
// record rather than a replay from frame 0.
const LateAfter = 4 * Run

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
	// Join paces and times out the join records sent to spectators that
	// join a running match.
	Join transfer.SenderConfig
}

// Stats describes one spectator of a host session.
type Stats struct {
	Joined  bool       // its handshake completed
	Left    bool       // it left, was lost, or was dropped
	Dropped bool       // it was dropped for lagging
	Acked   core.Frame // frames of inputs it acknowledged
	// From is the frame its replay started from: 0, or the join record's
	// frame for a spectator that joined a running match.
	From core.Frame
	// JoinBytes is what the join record cost on the wire, chunk headers
	// and retransmissions included; JoinTook how long it took.
	JoinBytes int64
	JoinTook  time.Duration
}

// spectator is the host's view of one spectator.
type spectator struct {
	joined, left, dropped bool
	announced             bool // its joined event was raised
	acked                 core.Frame
	sent                  core.Frame // the newest frame a message to it named
	ends                  int        // stream-ending messages still to send
	joining               bool       // it joined a running match and waits for its record
	joinAt                time.Duration
	push                  *transfer.Push // its record's transfer, once offered
	from                  core.Frame
	joinBytes             int64
	joinTook              time.Duration
}

// record is a join record shared by the spectators that join close
// together.
type record struct {
	frame core.Frame
	blob  []byte // compressed
	raw   int
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
	join    transfer.SenderConfig
	rec     *record
	nextID  uint32
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
	st.join = c.Join
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
// sent to it: a spectator cannot hold what it was never sent. The newest
// one counts, even if it says less than an earlier one (reordered, the
// stream resends a little), since one from before a Restart may name a
// frame of the history thrown away; one below the stream's first frame
// is from before it.
func (st *Streamer[I]) Receive(i int, m *engine.Message[I]) {
	if i < 0 || i >= len(st.specs) {
		return
	}
	if sp := &st.specs[i]; m.Held[0] >= sp.from {
		sp.acked = min(m.Held[0], sp.sent)
	}
}

// Restart starts the stream of every spectator in it over, from a join
// record of the host's engine, which replaced the one streamed: the host's
// side yielded a split and took another side's engine, so what it streamed
// since the split was thrown away. Each spectator replays the match kept
// from the record on (raising its core.SpectatorEvent Joined again).
func (st *Streamer[I]) Restart(now time.Duration) {
	st.rec = nil
	for i := range st.specs {
		if sp := &st.specs[i]; sp.joined && !sp.left && !sp.dropped {
			*sp = spectator{joined: true, joining: true, joinAt: now}
		}
	}
}

// Hold tells every spectator in the stream that the host is alive while
// it has nothing to stream (its session is coming back into the match),
// with a message of no inputs, so that none takes the silence for a host
// gone. It returns the Conn's errors.
func (st *Streamer[I]) Hold(now time.Duration, ep *endpoint.Endpoint[I]) error {
	st.out = st.out[:0]
	for i := range st.specs {
		if sp := &st.specs[i]; sp.joined && !sp.left && !sp.dropped {
			m := &st.msgs[i]
			*m = engine.Message[I]{Frame: sp.sent, Stamp: now, Inputs: m.Inputs[:0]}
			st.out = append(st.out, engine.Outgoing[I]{To: core.PeerID(st.base + i), Message: m})
		}
	}
	return ep.Send(now, st.out)
}

// PeerEvent handles an endpoint event of spectator i.
func (st *Streamer[I]) PeerEvent(i int, e endpoint.Event) {
	if i < 0 || i >= len(st.specs) {
		return
	}
	sp := &st.specs[i]
	switch e.Kind {
	case endpoint.EventConnected, endpoint.EventRestarted:
		// A spectator's process that comes (again) starts from nothing.
		if sp.joined && !sp.left {
			st.sink(core.SpectatorEvent{Spectator: i}) // its earlier process is gone
		}
		*sp = spectator{joined: true, joinAt: e.At}
	case endpoint.EventRefused, endpoint.EventDisconnected, endpoint.EventLeft:
		if !sp.left {
			sp.left, sp.push, sp.joining = true, nil, false
			st.sink(core.SpectatorEvent{Spectator: i})
			st.release()
		}
	}
}

// End lifts the stream delay, since at the end of the match nothing a
// spectator sees can reach a player in time, and reports whether every
// spectator still in the stream holds every frame before f, so that the
// host may leave.
func (st *Streamer[I]) End(f core.Frame) bool {
	st.maxLag, st.delay = st.maxLag+st.delay, 0 // the frames let out at once are no lag
	for i := range st.specs {
		if sp := &st.specs[i]; sp.joined && !sp.left && !sp.dropped && sp.acked < f {
			return false
		}
	}
	return true
}

// ReceiveTransfer takes a Transfer payload of spectator i: the acks of its
// join record.
func (st *Streamer[I]) ReceiveTransfer(now time.Duration, i int, p []byte) {
	if i < 0 || i >= len(st.specs) || st.specs[i].push == nil {
		return
	}
	st.specs[i].push.OnAck(now, p)
}

// logSource is the part of the engine the stream reads: I is the slot
// type (core.Slot of the game's input), which the stream relays as it is.
type Log[I comparable] interface {
	LogRange() (start, end core.Frame)
	ReadSlots(f core.Frame, dst []I) ([]I, error)
	Disconnected(p core.PlayerHandle) (core.Frame, bool)
	JoinRecord(dst []byte) (core.Frame, []byte, error)
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
		if !sp.announced && !sp.dropped {
			if done, err := st.admit(now, i, sp, start, end, log, ep); err != nil {
				return err
			} else if !done {
				continue
			}
		}
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

// admit moves spectator i, joined and not streamed to yet, toward its
// stream: at once for one that joins near the start of the match;
// otherwise through its join record, taken now, offered once the stream
// reached its frame, and sent (by pump, here or in Pump, whichever sees
// the last chunk acknowledged). It reports whether the stream may start
// (sp.acked is its first frame) or the spectator was dropped, and returns
// the Conn's errors; a transfer that fails drops the spectator.
func (st *Streamer[I]) admit(now time.Duration, i int, sp *spectator, start, end core.Frame, log Log[I], ep *endpoint.Endpoint[I]) (bool, error) {
	if !sp.joining && (start > 0 || end > LateAfter) {
		sp.joining = true
	}
	if sp.joining {
		if sp.push == nil {
			r := st.rec
			if r == nil || r.frame < start+Run || end-r.frame > LateAfter {
				f, raw, err := log.JoinRecord(nil)
				if err != nil {
					return false, nil // not held now: the next Send tries again
				}
				r = &record{frame: f, blob: transfer.Compress(raw), raw: len(raw)}
				st.rec = r
			}
			if end < r.frame {
				return false, nil // the stream delay holds this frame back still
			}
			st.nextID++
			push, err := transfer.NewPush(st.join, st.nextID, r.blob, r.raw)
			if err != nil {
				return false, err
			}
			if ps, ok := ep.Peer(core.PeerID(st.base + i)); ok && ps.RTTSamples > 0 {
				push.SetRTT(ps.RTT)
			}
			sp.push, sp.from = push, r.frame
		}
		err := st.pump(now, i, ep)
		return sp.announced || sp.dropped, err
	}
	sp.announced = true
	st.sink(core.SpectatorEvent{Spectator: i, Joined: true})
	return true, nil
}

// Pump moves on the join records under way; the session calls it every
// Update, so that their pace does not depend on how often the stream is
// sent. It returns the Conn's errors.
func (st *Streamer[I]) Pump(now time.Duration, ep *endpoint.Endpoint[I]) error {
	var first error
	for i := range st.specs {
		if st.specs[i].push == nil {
			continue
		}
		if err := st.pump(now, i, ep); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// pump moves spectator i's join record on. Once every chunk is
// acknowledged the spectator stops joining and streams from the record's
// frame; a transfer that times out drops it.
func (st *Streamer[I]) pump(now time.Duration, i int, ep *endpoint.Endpoint[I]) error {
	sp := &st.specs[i]
	to := core.PeerID(st.base + i)
	done, err := sp.push.Pump(now, func(b []byte) error { return ep.SendTransfer(now, to, b) })
	sp.joinBytes, sp.joinTook = sp.push.Stats().BytesSent, now-sp.joinAt
	switch {
	case errors.Is(err, transfer.ErrTimeout):
		sp.push, sp.joining, sp.dropped, sp.ends = nil, false, true, endCopies
		st.sink(core.SpectatorEvent{Spectator: i, Dropped: true}) // Lag 0: it never got its first frame
		st.release()
		return nil
	case err != nil:
		return err
	case done:
		sp.push, sp.joining, sp.announced = nil, false, true
		sp.acked, sp.sent = sp.from, sp.from
		st.sink(core.SpectatorEvent{Spectator: i, Joined: true, From: sp.from})
		st.release()
	}
	return nil
}

// release lets the shared join record go once no spectator joins: it may
// be as large as the state.
func (st *Streamer[I]) release() {
	for i := range st.specs {
		if st.specs[i].joining {
			return
		}
	}
	st.rec = nil
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
		dst = append(dst, Stats{Joined: sp.joined, Left: sp.left || sp.dropped, Dropped: sp.dropped, Acked: sp.acked,
			From: sp.from, JoinBytes: sp.joinBytes, JoinTook: sp.joinTook})
	}
	return dst
}
