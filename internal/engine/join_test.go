package engine

import (
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/stretchr/testify/require"
)

// spectatorConfig is the engine configuration of a spectator of a match of
// players: each player on a virtual peer of its own, no local player.
func spectatorConfig(players int) Config {
	c := Config{Players: players, DisableChecksums: true, MaxRunLength: 64}
	for p := range players {
		c.Peers = append(c.Peers, []core.PlayerHandle{core.PlayerHandle(p)})
	}
	return c
}

// joinedAt runs a 3-node match in which player 2 leaves at frame 40 and
// returns the join record node 0 gives after frame 200 or so, with the
// harness.
func joinedAt(t testing.TB) (*harness, core.Frame, []byte) {
	t.Helper()
	h := newHarness(t, 3, 8, 400, func(i int, c *Config) { c.ChecksumInterval, c.LogRetention = 1, 512 })
	for h.nodes[0].eng.Frame() < 40 {
		h.step()
	}
	h.nodes[2].down = true
	for i := range 2 {
		nd := h.nodes[i]
		require.NoError(t, nd.eng.DisconnectPeer(nd.peerID[2]))
	}
	for h.nodes[0].eng.Frame() < 200 {
		h.step()
	}
	s, rec, err := h.nodes[0].eng.JoinRecord(nil)
	require.NoError(t, err)
	return h, s, rec
}

// A spectator's engine joined from a record starts at its frame with the
// agreed state and disconnects, and from the confirmed inputs of the
// frames after it reaches every confirmed checksum of the match.
func TestJoinReplaysFromTheRecord(t *testing.T) {
	h, s, rec := joinedAt(t)
	src := h.nodes[0].eng
	j, err := Join[testState, testInput](spectatorConfig(3), &testGame{}, rec)
	require.NoError(t, err)
	require.Equal(t, s, j.Frame())
	require.Equal(t, h.nodes[0].sums[s-1], checksumOf(&j.cur), "the state before the record's frame")
	g, gone := j.Disconnected(2)
	require.True(t, gone, "player 2 left before the record's frame")
	want, _ := src.Disconnected(2)
	require.Equal(t, want, g)

	for src.Frame() < s+60 {
		h.step()
	}
	end, _ := src.ConfirmedFrame()
	var m Message[Slot[testInput]]
	for f := s; f <= end; f++ {
		slots, err := src.ReadSlots(f, nil)
		require.NoError(t, err)
		for p := range 2 { // player 2's inputs are disconnected
			m.Frame, m.Inputs = j.Frame(), []InputRun[Slot[testInput]]{{Player: core.PlayerHandle(p), Start: f, Values: slots[p : p+1]}}
			require.NoError(t, j.Receive(0, core.PeerID(p), &m))
		}
		r := j.Advance(time.Duration(f) * time.Millisecond)
		require.True(t, r.Stepped, "frame %d", f)
		require.Equal(t, h.nodes[0].sums[f], checksumOf(&j.cur), "frame %d", f)
	}
	require.Greater(t, end-s, core.Frame(5), "frames replayed after the join")
}

// A join record that is malformed, of another match or that does not
// match its checksum starts no engine.
func TestJoinRefusesBadRecords(t *testing.T) {
	_, _, rec := joinedAt(t)
	for _, tc := range []struct {
		name string
		edit func(r []byte) []byte
	}{
		{"empty", func([]byte) []byte { return nil }},
		{"version", func(r []byte) []byte { r[0] = 9; return r }},
		{"players", func(r []byte) []byte { r[1] = 2; return r }},
		{"frame 0", func(r []byte) []byte { binary.LittleEndian.PutUint32(r[2:], 0); return r }},
		{"gone mask", func(r []byte) []byte { r[14] = 0x08; return r }},
		{"disconnect after the frame", func(r []byte) []byte { binary.LittleEndian.PutUint32(r[16:], 1<<20); return r }},
		{"checksum", func(r []byte) []byte { r[6] ^= 1; return r }},
		{"state", func(r []byte) []byte { r[len(r)-1] ^= 1; return r }},
		{"truncated", func(r []byte) []byte { return r[:len(r)-1] }},
		{"longer", func(r []byte) []byte { return append(r, 0) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Join[testState, testInput](spectatorConfig(3), &testGame{}, tc.edit(append([]byte(nil), rec...)))
			require.Error(t, err)
			require.True(t, errors.Is(err, ErrBadHandoff), "%v", err)
		})
	}
	_, err := Join[testState, testInput](DefaultConfig(), &testGame{}, rec)
	require.Error(t, err, "an engine with local players")
}

// FuzzJoin starts a spectator's engine from hostile bytes: an error
// matching ErrBadHandoff, or an engine that runs.
func FuzzJoin(f *testing.F) {
	_, _, rec := joinedAt(f)
	f.Add(rec)
	f.Add(rec[:joinHeader])
	f.Add([]byte{joinVersion, 3})
	f.Fuzz(func(t *testing.T, rec []byte) {
		// As it came, and with its checksum stamped again over the state it
		// ends with, so that a mutated state is loaded and played, not
		// only rejected for its checksum.
		recs := [][]byte{rec}
		var w world[testState]
		if n := sizeOf[world[testState]](); len(rec) >= joinHeader+n && arena.DecodeRaw(rec[len(rec)-n:], &w) == nil {
			recs = append(recs, stamped(rec, 6, checksumOf(&w)))
		}
		for _, rec := range recs {
			e, err := Join[testState, testInput](spectatorConfig(3), &testGame{}, rec)
			if refused(t, err) {
				continue
			}
			for k := range 20 {
				e.Advance(time.Duration(k) * time.Millisecond)
			}
		}
	})
}

// stamped returns a copy of the record b with sum written at offset at,
// where its layout (join.go, handoff.go) keeps the checksum of its state:
// a record that vouches for whatever state it carries, as a lying peer's
// would.
func stamped(b []byte, at int, sum uint64) []byte {
	q := append([]byte(nil), b...)
	binary.LittleEndian.PutUint64(q[at:], sum)
	return q
}

// refused reports whether Join or Resume refused its input, failing t if
// the error does not match ErrBadHandoff.
func refused(t *testing.T, err error) bool {
	if err != nil && !errors.Is(err, ErrBadHandoff) {
		t.Fatalf("error %v does not match ErrBadHandoff", err)
	}
	return err != nil
}
