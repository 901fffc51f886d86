package engine

import (
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/stretchr/testify/require"
)

// rejoinPlan scripts a crash and a return over the harness: node crashed
// goes down when node 0... reaches frame crashAt; every other node
// declares it disconnected notice ticks later; the sponsor (the lowest
// remaining handle) takes a snapshot once it may, "sends" it for transfer
// ticks while the others play on, queues the return, and the new engine
// resumes from the handoff one link latency later.
type rejoinPlan struct {
	crashed  int
	crashAt  core.Frame
	notice   int   // ticks from the crash to the survivors' DisconnectPeer
	late     []int // extra ticks before node i's DisconnectPeer (nil: none)
	transfer int   // ticks the snapshot takes to arrive
	lead     int
	deliver  int // ticks the handoff record takes to arrive
}

// rejoinRun is what a run of a plan observed.
type rejoinRun struct {
	snapFrame, handoffFrame, returnFrame core.Frame
	goneAt                               core.Frame
	sponsor                              int
	snap, record                         []byte // what the new engine resumed from
}

func (h *harness) rejoin(t testing.TB, pl rejoinPlan, cfgOf func(i int) Config) *rejoinRun {
	t.Helper()
	run := &rejoinRun{sponsor: -1}
	tick, crashTick, phase := 0, -1, 0
	var at int
	watch := 0 // a live node to watch the frame of
	if pl.crashed == 0 {
		watch = 1
	}
	h.onTick = func(h *harness) {
		tick++
		if phase >= 1 {
			for i, nd := range h.nodes {
				late := 0
				if pl.late != nil {
					late = pl.late[i]
				}
				if i != pl.crashed && tick == crashTick+pl.notice+late && phase < 5 {
					require.NoError(t, nd.eng.DisconnectPeer(nd.peerID[pl.crashed]))
				}
			}
		}
		switch phase {
		case 0: // playing
			if h.nodes[watch].eng.Frame() >= pl.crashAt {
				h.nodes[pl.crashed].down = true
				crashTick, phase = tick, 1
			}
		case 1: // the survivors notice
			if tick < crashTick+pl.notice {
				return
			}
			for i := range h.nodes {
				if i != pl.crashed && run.sponsor < 0 {
					run.sponsor = i
				}
			}
			phase = 2
		case 2: // the sponsor snapshots once the disconnect is agreed and confirmed
			sp := h.nodes[run.sponsor]
			d, ok := sp.eng.Disconnected(core.PlayerHandle(pl.crashed))
			if !ok || sp.eng.checked < d {
				return
			}
			run.goneAt = d
			s, b, err := sp.eng.Snapshot(nil)
			require.NoError(t, err)
			run.snapFrame, run.snap, at, phase = s, b, tick+pl.transfer, 3
		case 3: // the snapshot arrived: the sponsor queues the return
			if tick < at {
				return
			}
			sp := h.nodes[run.sponsor]
			require.False(t, sp.eng.AnyReturn(), "a return before any was queued")
			require.NoError(t, sp.eng.ReturnPeer(sp.peerID[pl.crashed], pl.lead))
			phase = 4
		case 4: // the command is written (by the harness's AddLocalInput): hand off
			sp := h.nodes[run.sponsor]
			id := sp.peerID[pl.crashed]
			r, settled, ok := sp.eng.Returning(id)
			require.True(t, !ok || sp.eng.AnyReturn(), "no AnyReturn while Returning reports one")
			if !ok || !settled {
				return
			}
			b, err := sp.eng.Handoff(id, run.snapFrame, nil)
			require.NoError(t, err)
			run.returnFrame, run.record, at, phase = r, b, tick+pl.deliver, 5
		case 5: // the handoff arrived: the crashed seat's new engine resumes
			if tick < at {
				return
			}
			nd := h.nodes[pl.crashed]
			nd.game = &testGame{effects: true}
			e, err := Resume[testState, testInput](cfgOf(pl.crashed), nd.game, run.snap, run.record)
			require.NoError(t, err)
			run.handoffFrame = e.Frame()
			nd.eng, nd.down = e, false
			nd.events, nd.sums, nd.played = nil, map[core.Frame]uint64{}, map[core.FrameEffect]int{}
			phase = 6
		}
	}
	return run
}

// checkRejoined fails unless every node agrees on the final state and on
// every confirmed checksum two of them hold, saw no desync or
// equivocation, and logged the crashed player as disconnected from its
// disconnect frame to the return frame and with its real inputs after.
func (h *harness) checkRejoined(t *testing.T, pl rejoinPlan, run *rejoinRun) {
	t.Helper()
	require.GreaterOrEqual(t, run.returnFrame, run.handoffFrame, "return frame at or after the handoff frame")
	require.GreaterOrEqual(t, run.handoffFrame, run.snapFrame)
	ref := h.nodes[run.sponsor]
	for i, nd := range h.nodes {
		require.False(t, nd.down, "node %d", i)
		for _, ev := range nd.events {
			switch ev := ev.(type) {
			case core.DesyncEvent[testState]:
				t.Fatalf("node %d: desync at frame %d with peer %d", i, ev.Frame, ev.Peer)
			case core.EquivocationEvent:
				t.Fatalf("node %d: equivocation of player %d at frame %d", i, ev.Player, ev.Frame)
			}
		}
		require.Zero(t, nd.eng.Stats().LostCorrections, "node %d", i)
		require.Equal(t, *ref.eng.State(), *nd.eng.State(), "node %d's final state", i)
		common := 0
		for f, s := range nd.sums {
			if r, ok := ref.sums[f]; ok {
				common++
				require.Equal(t, r, s, "node %d checksum of frame %d", i, f)
			}
		}
		require.Positive(t, common, "node %d shares no checksummed frame with the sponsor", i)

		start := run.goneAt
		if i == pl.crashed {
			start = run.handoffFrame
		}
		for f := start; f < h.end; f++ {
			in, err := nd.eng.ReadLog(f, nil)
			require.NoError(t, err, "node %d frame %d", i, f)
			got := in[pl.crashed]
			if f < run.returnFrame {
				require.Equal(t, core.InputDisconnected, got.Status, "node %d frame %d", i, f)
				continue
			}
			require.Equal(t, core.InputConfirmed, got.Status, "node %d frame %d", i, f)
			require.Equal(t, h.input(pl.crashed, f), got.Value, "node %d frame %d", i, f)
		}
	}
}

// A peer that crashes comes back: its new engine resumes from the
// sponsor's snapshot and handoff, and from the return frame on its
// inputs count again, identically on every peer, in lockstep (W = 0) and
// rollback (W > 0), with 2, 3 and 4 peers, over a lossy jittery network.
func TestRejoinAfterCrash(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n, d, w int
		crashed int
		late    []int
		slow    []int // a directed link slow[0] -> slow[1] with a 600 ms latency
	}{
		{"2peers/lockstep", 2, 2, 0, 1, nil, nil},
		{"2peers/rollback", 2, 1, 8, 1, nil, nil},
		{"2peers/rollback/player0", 2, 1, 8, 0, nil, nil},
		{"3peers/lockstep", 3, 2, 0, 2, nil, nil},
		{"3peers/rollback/player0", 3, 1, 6, 0, nil, nil},
		{"4peers/rollback", 4, 1, 8, 2, nil, nil},
		{"4peers/lockstep", 4, 3, 0, 1, nil, nil},
		// A survivor that times the crashed peer out long after the
		// others holds the return command before it agrees the
		// disconnect: it settles the return later, at the same frame.
		{"3peers/rollback/late", 3, 1, 8, 0, []int{0, 0, 150}, nil},
		{"4peers/lockstep/late", 4, 2, 0, 0, []int{0, 0, 200, 90}, nil},
		// A survivor whose link from another is slow holds the return
		// command before that peer's vote on the disconnect.
		{"4peers/rollback/slowvote", 4, 1, 8, 3, nil, []int{2, 1}},
		{"4peers/lockstep/slowvote", 4, 2, 0, 3, nil, []int{2, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const end = 900
			cfg := func(i int, c *Config) {
				c.InputDelay, c.Prediction, c.LogRetention = tc.d, tc.w, 4096
			}
			h := newHarness(t, tc.n, 23, end, cfg)
			h.setLinks(link{latency: 30 * time.Millisecond, jitter: 20 * time.Millisecond, loss: 50})
			transfer := 60
			if tc.slow != nil {
				h.links[tc.slow[0]][tc.slow[1]].latency = 600 * time.Millisecond
				transfer = 0
			}
			cfgOf := func(i int) Config {
				c := h.nodes[i].eng.cfg
				return c
			}
			pl := rejoinPlan{crashed: tc.crashed, crashAt: 300, notice: 40, late: tc.late, transfer: transfer, lead: 24, deliver: 3}
			run := h.rejoin(t, pl, cfgOf)
			h.run(100000)
			h.checkRejoined(t, pl, run)
			t.Logf("gone at %d, snapshot %d, handoff %d, return %d", run.goneAt, run.snapFrame, run.handoffFrame, run.returnFrame)
		})
	}
}

// A handoff that does not reproduce the sponsor's state is refused with
// ErrBadHandoff, whatever is wrong with it, and never panics.
func TestResumeRefusesBadHandoff(t *testing.T) {
	h := newHarness(t, 2, 5, 400, func(i int, c *Config) { c.InputDelay, c.LogRetention = 1, 1024 })
	pl := rejoinPlan{crashed: 1, crashAt: 100, notice: 10, transfer: 5, lead: 8, deliver: 1}
	run := h.rejoin(t, pl, func(i int) Config { return h.nodes[i].eng.cfg })
	for k := 0; k < 2000 && run.handoffFrame == 0; k++ {
		h.step()
	}
	require.Positive(t, run.handoffFrame, "the plan never resumed")
	cfg := h.nodes[1].eng.cfg
	snap, record := run.snap, run.record
	_, err := Resume[testState, testInput](cfg, &testGame{}, snap, record)
	require.NoError(t, err, "the unchanged handoff")
	for range 10 {
		h.step()
	}
	inputs := int(run.handoffFrame-run.snapFrame) * 2 * sizeOf[Slot[testInput]]()
	require.Positive(t, inputs)
	_, later, err := h.nodes[0].eng.Snapshot(nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		snap []byte
		edit func(r []byte) []byte
	}{
		{"empty", snap, func([]byte) []byte { return nil }},
		{"version", snap, func(r []byte) []byte { r[0] = 9; return r }},
		{"players", snap, func(r []byte) []byte { r[1] = 3; return r }},
		{"truncated", snap, func(r []byte) []byte { return r[:len(r)-1] }},
		{"return before handoff", snap, func(r []byte) []byte {
			binary.LittleEndian.PutUint32(r[10:14], binary.LittleEndian.Uint32(r[6:10])-1)
			return r
		}},
		{"not our player", snap, func(r []byte) []byte { r[14] = 0; return r }},
		{"gone mask", snap, func(r []byte) []byte { r[23] = 0x80; return r }},
		{"checksum", snap, func(r []byte) []byte { r[15] ^= 1; return r }},
		{"an input", snap, func(r []byte) []byte {
			// The value of the sponsor's (player 0's) input of the first
			// frame replayed, after its 8-byte control word.
			r[len(r)-inputs+controlSize] ^= 1
			return r
		}},
		{"snapshot truncated", snap[:len(snap)-1], func(r []byte) []byte { return r }},
		{"snapshot of another frame", later, func(r []byte) []byte { return r }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.edit(append([]byte(nil), record...))
			_, err := Resume[testState, testInput](cfg, &testGame{}, tc.snap, r)
			require.Error(t, err)
			require.True(t, errors.Is(err, ErrBadHandoff), "%v", err)
		})
	}
}

// A peer that came back can be lost again: its second disconnect is
// agreed like the first, at a frame after its return, and the others play
// the match to its end.
func TestRejoinedPeerLostAgain(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n, d, w int
	}{
		{"3peers/lockstep", 3, 2, 0},
		{"3peers/rollback", 3, 1, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const end = 900
			h := newHarness(t, tc.n, 31, end, func(i int, c *Config) {
				c.InputDelay, c.Prediction, c.LogRetention = tc.d, tc.w, 4096
			})
			h.setLinks(link{latency: 30 * time.Millisecond, jitter: 20 * time.Millisecond, loss: 50})
			crashed := tc.n - 1
			pl := rejoinPlan{crashed: crashed, crashAt: 200, notice: 40, transfer: 30, lead: 24, deliver: 3}
			run := h.rejoin(t, pl, func(i int) Config { return h.nodes[i].eng.cfg })
			rejoin := h.onTick
			again := -1
			h.onTick = func(h *harness) {
				rejoin(h)
				if run.handoffFrame == 0 {
					return
				}
				if again < 0 && h.nodes[0].eng.Frame() >= 600 {
					h.nodes[crashed].down = true
					again = 0
				}
				if again >= 0 {
					if again++; again == 40 {
						for i, nd := range h.nodes[:crashed] {
							require.NoError(t, nd.eng.DisconnectPeer(nd.peerID[crashed]), "node %d", i)
						}
					}
				}
			}
			h.run(100000)
			h.checkAgreement()
			var frames []core.Frame
			for i, nd := range h.nodes[:crashed] {
				var got []core.Frame
				for _, ev := range nd.events {
					if d, ok := ev.(core.DisconnectEvent); ok && int(d.Player) == crashed {
						got = append(got, d.Frame)
					}
				}
				require.Len(t, got, 2, "node %d: the crashed player's disconnects", i)
				require.Equal(t, run.goneAt, got[0], "node %d: the first disconnect", i)
				require.Greater(t, got[1], run.returnFrame, "node %d: the second disconnect", i)
				frames = append(frames, got[1])
			}
			for i := range frames {
				require.Equal(t, frames[0], frames[i], "the second disconnect frame, node %d", i)
			}
			in, err := h.nodes[0].eng.ReadLog(frames[0]-1, nil)
			require.NoError(t, err)
			require.Equal(t, core.InputConfirmed, in[crashed].Status, "the last frame before the second disconnect")
			in, err = h.nodes[0].eng.ReadLog(frames[0], nil)
			require.NoError(t, err)
			require.Equal(t, core.InputDisconnected, in[crashed].Status, "the second disconnect frame")
		})
	}
}

// FuzzResume: a snapshot and handoff record from the network either make
// an engine that runs, or fail with ErrBadHandoff; nothing panics. The
// seeds are a real pair, taken from a two-peer rejoin, and pieces of it.
func FuzzResume(f *testing.F) {
	h := newHarness(f, 2, 5, 400, func(i int, c *Config) { c.InputDelay, c.LogRetention = 1, 1024 })
	pl := rejoinPlan{crashed: 1, crashAt: 60, notice: 10, transfer: 5, lead: 8, deliver: 1}
	run := h.rejoin(f, pl, func(i int) Config { return h.nodes[i].eng.cfg })
	for k := 0; k < 2000 && run.handoffFrame == 0; k++ {
		h.step()
	}
	if run.handoffFrame == 0 {
		f.Fatal("the plan never resumed")
	}
	cfg := h.nodes[1].eng.cfg
	f.Add(run.snap, run.record)
	f.Add(run.snap, run.record[:handoffHeader])
	f.Add(run.snap[:8], run.record)
	f.Add([]byte{}, []byte{handoffVersion, 2})
	f.Fuzz(func(t *testing.T, snap, record []byte) {
		// As they came, and with the record's checksum stamped again over
		// the state its replay reaches, so that a mutated snapshot or input
		// is resumed and played, not only rejected for its checksum.
		records := [][]byte{record}
		if e, _, err := replayHandoff[testState, testInput](cfg, &testGame{effects: true}, snap, record); err == nil {
			records = append(records, stamped(record, 15, checksumOf(&e.cur)))
		}
		for _, record := range records {
			e, err := Resume[testState, testInput](cfg, &testGame{effects: true}, snap, record)
			if refused(t, err) {
				continue
			}
			for k := range 20 {
				var in testInput
				_ = e.AddLocalInput(1, in)
				e.Advance(time.Duration(k) * time.Millisecond)
			}
		}
	})
}

// A peer that sync-tests (as in a build with the rollstep_synctest tag)
// comes back too: its resumed engine checks every frame from the handoff
// frame on, and never loads a state from before it, which it never had.
func TestRejoinWhileSyncTesting(t *testing.T) {
	const end = 900
	h := newHarness(t, 2, 29, end, func(i int, c *Config) {
		c.InputDelay, c.Prediction, c.LogRetention, c.SyncTest = 1, 8, 4096, 2
	})
	h.setLinks(link{latency: 30 * time.Millisecond, jitter: 20 * time.Millisecond, loss: 50})
	pl := rejoinPlan{crashed: 1, crashAt: 300, notice: 40, transfer: 60, lead: 24, deliver: 3}
	run := h.rejoin(t, pl, func(i int) Config { return h.nodes[i].eng.cfg })
	h.run(100000)
	h.checkRejoined(t, pl, run)
	for i, nd := range h.nodes {
		for _, ev := range nd.events {
			if _, ok := ev.(core.SyncTestEvent); ok {
				t.Fatalf("node %d: %v", i, ev)
			}
		}
	}
	played := uint64(h.nodes[1].eng.Frame() - run.handoffFrame)
	require.GreaterOrEqual(t, h.nodes[1].eng.Stats().SyncTestFrames, 2*played-2, "the resumed engine's sync test re-simulated too little")
}
