package match

import (
	"fmt"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/fighter"
	"github.com/rollstep/rollstep/rollback"
	"github.com/rollstep/rollstep/state"
	"github.com/rollstep/rollstep/transport"
)

// Clock is the real-time loop's view of time: Now is a monotonic duration
// since the match began, and Wait blocks until the next iteration of the
// game loop is due.
type Clock interface {
	Now() time.Duration
	Wait()
}

// tickerClock is a Clock over the system clock and a time.Ticker.
type tickerClock struct {
	start time.Time
	tick  *time.Ticker
}

// NewClock returns a Clock that starts now and whose Wait returns every
// period. Stop it with the returned function.
func NewClock(period time.Duration) (Clock, func()) {
	c := &tickerClock{start: time.Now(), tick: time.NewTicker(period)}
	return c, c.tick.Stop
}

// Now returns the time since the clock started.
func (c *tickerClock) Now() time.Duration { return time.Since(c.start) }

// Wait blocks until the next tick.
func (c *tickerClock) Wait() { <-c.tick.C }

// RunRealtime drives the peers' game loops on clk until every peer
// confirmed every frame, then for linger more (so a remote peer still
// waiting for acknowledgements finishes too), or fails with ErrTimeout
// once limit has passed. It leaves the sessions open: Close them.
func RunRealtime(peers []*Peer, clk Clock, limit, linger time.Duration) error {
	var doneAt time.Duration
	done := false
	for {
		now := clk.Now()
		if now > limit {
			return fmt.Errorf("%w: %v, at frame %d", ErrTimeout, limit, peers[0].Session.Frame())
		}
		all := true
		for _, p := range peers {
			if err := p.Tick(now); err != nil {
				return fmt.Errorf("player %d: %w", p.Player, err)
			}
			all = all && p.Done()
		}
		if all && !done {
			done, doneAt = true, now
		}
		if done && now-doneAt >= linger {
			return nil
		}
		clk.Wait()
	}
}

// SpectatorResult is what RunSpectator reports.
type SpectatorResult struct {
	Frames   int           // frames replayed
	Checksum uint64        // state.Checksum of the state after the last frame
	Final    fighter.State // the state after the last frame
	// Lost is how the stream ended: the host left (Left, with its
	// Reason), went silent, or dropped the spectator (core.LeaveDropped).
	Lost core.PeerLostEvent
}

// RunSpectator replays host's match over conn until it has replayed frames
// frames or the stream ends, on clk, failing with ErrTimeout after limit.
// It closes the spectator.
func RunSpectator(conn transport.Conn, host transport.Addr, token uint64, frames int, seed uint64, clk Clock, limit time.Duration) (*SpectatorResult, error) {
	cfg := rollback.SpectatorConfig{Host: host, TickRate: TickRate, Game: GameID}
	cfg.Transport.Token = token
	rec := NewRecorder(frames)
	sp, err := rollback.NewSpectator[fighter.State, fighter.Input](cfg, rec, fighter.New(seed), conn)
	if err != nil {
		return nil, err
	}
	defer sp.Close()
	res := &SpectatorResult{}
	for !rec.HasLast && !sp.Ended() {
		now := clk.Now()
		if now > limit {
			return nil, fmt.Errorf("%w: %v, at frame %d", ErrTimeout, limit, sp.Frame())
		}
		if err := sp.Update(now); err != nil {
			return nil, err
		}
		for _, ev := range sp.Events() {
			if e, ok := ev.(core.PeerLostEvent); ok {
				res.Lost = e
			}
		}
		clk.Wait()
	}
	res.Frames = int(sp.Frame())
	if rec.HasLast {
		res.Frames = frames
		res.Final = rec.Last
		res.Checksum = state.Checksum(&rec.Last)
	}
	return res, nil
}
