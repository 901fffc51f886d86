// Package match drives fighter matches over rollback sessions: between
// two peers on a simulated network (RunSim) or as one peer of a match over
// real sockets (RunNet, RunSpectator). The command examples/fighter/cmd/fighter
// is a thin flag parser over it, and the fighter tests run the same code.
package match

import (
	"errors"
	"time"

	"github.com/rollstep/rollstep"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
)

// GameID is fighter.GameID, the build identity in handshakes and replays.
var GameID = fighter.GameID

// Token returns the session token of a simulated match seeded with seed,
// so that a simulation is reproducible from its seed alone. The seed is
// public, so this token is no secret: a match over a real network draws
// its token from crypto/rand instead (package examples/internal/secret).
func Token(seed uint64) uint64 { return seed*0x9e3779b97f4a7c15 + 1 }

// TickRate is the frame rate of every match, in frames per second.
const TickRate = 60

// Recorder is fighter.Game that also records the inputs and the checksum
// of the state of every simulation of frames 0 to len(Sums)-1, and a copy of
// the state after frame Final. A later simulation of a frame overwrites the
// record, so once a frame is confirmed its record is the confirmed one.
type Recorder struct {
	// Sums[f] is the checksum of the state after frame f.
	Sums []uint64
	// Inputs[f] are the buttons frame f was simulated with.
	Inputs [][2]fighter.Input
	// Final is the frame whose state is kept in Last.
	Final core.Frame
	// Last is the state after frame Final, valid if HasLast.
	Last    fighter.State
	HasLast bool // Last is set
}

// NewRecorder returns a Recorder of frames frames whose final frame is
// frames-1.
func NewRecorder(frames int) *Recorder {
	return &Recorder{Sums: make([]uint64, frames), Inputs: make([][2]fighter.Input, frames), Final: core.Frame(frames - 1)}
}

// Step runs fighter.Game's step and records the result.
func (r *Recorder) Step(s *fighter.State, in []core.Input[fighter.Input], fx core.Effects) {
	fighter.Game{}.Step(s, in, fx)
	f := core.Frame(s.Frame - 1)
	if f >= 0 && int(f) < len(r.Sums) {
		r.Sums[f] = state.Checksum(s)
		for p := range min(len(in), 2) {
			r.Inputs[f][p] = in[p].Value
		}
	}
	if f == r.Final {
		r.Last, r.HasLast = *s, true
	}
}

// Counts are the events a peer saw and the effects of the match's frames
// it played, net of those a rollback cancelled afterwards (so they match
// the confirmed frames').
type Counts struct {
	Desyncs   int // core.DesyncEvent
	SyncTests int // core.SyncTestEvent (rollstep_synctest builds)
	Lost      int // core.PeerLostEvent before every frame was confirmed
	Rejoined  int // core.RejoinEvent that succeeded: a restarted process came back
	Hits      int // EffectHit
	Blocks    int // EffectBlock
	KOs       int // EffectKO
	Cancelled int // effects played, then cancelled by a rollback
}

// Peer is one player's side of a match: its session, its bot and its
// recorder.
type Peer struct {
	Player  int                                             // the player it plays, 0 or 1
	Session *rollstep.Session[fighter.State, fighter.Input] // its session
	Bot     *fighter.Bot                                    // its hands
	Rec     *Recorder                                       // its game, recording
	Counts  Counts                                          // what it saw so far
	frames  core.Frame                                      // the bot stops feeding new inputs at this frame
	fed     core.Frame                                      // the next frame the bot has not given an input for
}

// Config returns the rollback configuration of player (0 or 1) in a
// two-player match whose other peer is at addr, with token, streaming to
// the given spectators. Handshake nonces come from crypto/rand unless the
// caller sets Transport.Rand.
func Config(player int, addr transport.Addr, token uint64, spectators []transport.Addr) rollstep.Config {
	c := rollstep.Config{
		Mode:       rollstep.Rollback,
		Players:    2,
		Local:      []core.PlayerHandle{core.PlayerHandle(player)},
		Peers:      []rollstep.Peer{{Addr: addr, Players: []core.PlayerHandle{core.PlayerHandle(1 - player)}}},
		TickRate:   TickRate,
		Game:       GameID,
		Spectators: spectators,
	}
	c.Transport.Token = token
	return c
}

// NewPeer builds player's session over conn, playing frames frames with a
// bot seeded with seed from fighter.New(seed).
func NewPeer(cfg rollstep.Config, conn transport.Conn, frames int, seed uint64) (*Peer, error) {
	player := int(cfg.Local[0])
	p := &Peer{Player: player, Bot: fighter.NewBot(player, seed), Rec: NewRecorder(frames), frames: core.Frame(frames)}
	var err error
	p.Session, err = rollstep.NewSession[fighter.State, fighter.Input](cfg, p.Rec, fighter.New(seed), conn)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Tick runs one iteration of the peer's game loop at now: the bot's input
// for a new frame, Update, then the effects and events.
func (p *Peer) Tick(now time.Duration) error {
	s := p.Session
	if f := s.Frame(); f >= p.fed && f < p.frames {
		if err := s.AddLocalInput(core.PlayerHandle(p.Player), p.Bot.Next(s.State())); err != nil {
			return err
		}
		p.fed = f + 1
	}
	if err := s.Update(now); err != nil {
		return err
	}
	play, cancel := s.Effects()
	p.Counts.count(play, 1, p.frames)
	p.Counts.count(cancel, -1, p.frames)
	for _, ev := range s.Events() {
		switch e := ev.(type) {
		case core.DesyncEvent[fighter.State]:
			p.Counts.Desyncs++
		case core.SyncTestEvent:
			p.Counts.SyncTests++
		case core.PeerLostEvent:
			if !p.Done() { // a peer that leaves after the last frame was not lost
				p.Counts.Lost++
			}
		case core.RejoinEvent:
			if e.Err == nil {
				p.Counts.Rejoined++
			}
		}
	}
	return nil
}

// count adds d (1: played, -1: cancelled) for each effect of a frame
// before end.
func (c *Counts) count(fx []core.FrameEffect, d int, end core.Frame) {
	for _, e := range fx {
		if e.Frame >= end {
			continue
		}
		if d < 0 {
			c.Cancelled++
		}
		switch e.Effect.Kind {
		case fighter.EffectHit:
			c.Hits += d
		case fighter.EffectBlock:
			c.Blocks += d
		case fighter.EffectKO:
			c.KOs += d
		}
	}
}

// Done reports whether every frame of the match is confirmed.
func (p *Peer) Done() bool {
	c, ok := p.Session.ConfirmedFrame()
	return ok && c >= p.frames-1 && p.Rec.HasLast
}

// Summary is what a peer reports at the end of a match.
type Summary struct {
	Frames      int           // frames played and confirmed
	Rollbacks   uint64        // loads of a saved state
	ResimFrames uint64        // frames re-simulated by them
	Stalls      uint64        // frames that waited for remote inputs
	StallTime   time.Duration // time spent stalled
	Delay       int           // the input delay D at the end
	RTT         time.Duration // the smoothed round trip to the other peer
	Checksum    uint64        // state.Checksum of the state after the last frame
	Final       fighter.State // the state after the last frame
	Counts      Counts        // events and effects seen
}

// Summary returns the peer's summary; call it once Done.
func (p *Peer) Summary() Summary {
	st := p.Session.Stats()
	sum := Summary{
		Frames: int(p.frames), Rollbacks: st.Rollbacks, ResimFrames: st.ResimFrames,
		Stalls: st.StalledFrames, StallTime: st.Stall, Delay: st.Delay,
		Checksum: state.Checksum(&p.Rec.Last), Final: p.Rec.Last, Counts: p.Counts,
	}
	if len(st.Peers) > 0 {
		sum.RTT = st.Peers[0].RTT
	}
	return sum
}

// ErrTimeout is returned when a match does not finish within its time
// limit.
var ErrTimeout = errors.New("match: time limit reached before the last frame was confirmed")

// seedReader is a deterministic io.Reader of handshake nonces for
// simulated matches.
type seedReader struct{ r state.Rand }

// Read fills b from the generator; it never fails.
func (sr *seedReader) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(sr.r.Uint32())
	}
	return len(b), nil
}
