package replay_test

import (
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/replay"
)

// TestOpenAllocatesInputsOnce: the input section that costs Open the most
// memory per byte (16 players, one of them changing every frame) is
// decoded into one allocation of exactly its rows, not a slice grown by
// doubling, which cost up to twice as much at its peak and, with the
// copies of every growth, six times as much in total (11.9 MB for 1.9 MB
// of rows from a 160 KB file).
func TestOpenAllocatesInputsOnce(t *testing.T) {
	const players, frames = 16, 20000
	r, err := replay.NewRecorder(replay.Config{Game: tallyHash, Players: players, TickRate: 60, ChecksumInterval: 1 << 20, KeyframeInterval: 1 << 20},
		core.Game[tally, move](tallyGame{}), &tally{})
	require.NoError(t, err)
	in := make([]core.Input[move], players)
	for p := range in {
		in[p].Status = core.InputConfirmed
	}
	for f := range frames {
		in[f%players].Value.Add++
		require.NoError(t, r.Add(in))
	}
	data := r.Bytes()
	rows := uintptr(frames*players) * unsafe.Sizeof(core.Input[move]{})

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rp, err := replay.Open[tally, move](data, tallyHash)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	runtime.KeepAlive(rp)
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d-byte replay, %d bytes of rows, Open allocated %d bytes", len(data), rows, got)
	require.LessOrEqual(t, got, uint64(rows)+uint64(rows)/8+64<<10, "Open allocated more than its rows once")
}
