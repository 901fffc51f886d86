package transfer

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// link25 is a link of 25 ms ± 10 ms each way with some duplication and
// reordering; tests set its loss.
func link25(loss float64) linkConfig {
	return linkConfig{Latency: 25 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: loss, Dup: 0.02, Reorder: 0.05}
}

// TestTransferSmall moves blobs of a few chunks at most, at 0, 10 and 30 %
// loss, over many seeds.
func TestTransferSmall(t *testing.T) {
	const chunk = 1024
	state := pseudoState(160, 1)
	cases := []struct {
		name string
		raw  []byte
		flat bool // send raw as the blob, uncompressed, to control its size
	}{
		{"1 byte", []byte{42}, true},
		{"one chunk", randomBytes(chunk, 2), true},
		{"chunk+1", randomBytes(chunk+1, 3), true},
		{"3 chunks-1", randomBytes(3*chunk-1, 4), true},
		{"160-byte state", state, false},
	}
	for _, tc := range cases {
		for _, loss := range []float64{0, 0.1, 0.3} {
			t.Run(fmt.Sprintf("%s/loss%.0f%%", tc.name, loss*100), func(t *testing.T) {
				blob := tc.raw
				if !tc.flat {
					blob = Compress(tc.raw)
				}
				offer := Offer{ID: 9, Size: len(blob), RawSize: len(tc.raw), ChunkSize: chunk}
				const seeds = 30
				retransmits := 0
				var worst time.Duration
				for seed := range uint64(seeds) {
					res := simulate(t, simConfig{link: link25(loss), seed: seed}, offer, blob)
					require.Equal(t, blob, res.blob)
					if !tc.flat {
						raw, err := Decompress(res.blob, offer.RawSize, 0)
						require.NoError(t, err)
						require.Equal(t, tc.raw, raw)
					}
					retransmits += res.stats.Retransmits
					worst = max(worst, res.done)
					if loss == 0 {
						require.LessOrEqual(t, res.stats.Retransmits, 1, "no loss, seed %d", seed)
					}
				}
				if loss > 0 {
					require.Positive(t, retransmits, "over %d seeds", seeds)
				}
				t.Logf("%d-byte blob in %d chunks: %d retransmissions over %d seeds, slowest done at %v",
					len(blob), offer.Chunks(), retransmits, seeds, worst)
			})
		}
	}
}

// TestTransferLarge moves a 745 KB state, compressible and not, at 0, 10
// and 30 % loss, and checks the time against size/rate.
func TestTransferLarge(t *testing.T) {
	const size = 745_000
	for _, kind := range []string{"pseudo-state", "random"} {
		raw := pseudoState(size, 7)
		if kind == "random" {
			raw = randomBytes(size, 7)
		}
		blob := Compress(raw)
		offer := Offer{ID: 3, Size: len(blob), RawSize: len(raw), ChunkSize: 1024}
		for _, loss := range []float64{0, 0.1, 0.3} {
			t.Run(fmt.Sprintf("%s/loss%.0f%%", kind, loss*100), func(t *testing.T) {
				cfg := simConfig{link: link25(loss), seed: 11}
				res := simulate(t, cfg, offer, blob)
				got, err := Decompress(res.blob, offer.RawSize, 0)
				require.NoError(t, err)
				require.True(t, bytes.Equal(raw, got), "blob differs")

				rate := time.Duration(DefaultRate)
				ideal := time.Duration(len(blob)) * time.Second / rate
				rtt := 2*cfg.link.Latency + cfg.link.Jitter
				burst := DefaultBurstChunks * (ChunkHeaderSize + offer.ChunkSize)
				low := time.Duration(len(blob)-burst) * time.Second / rate
				t.Logf("%d raw → %d bytes (%d chunks), %.0f%% loss: complete %v, done %v (size/rate %v, ×%.2f); sent %d chunks, %d retransmitted, %d bytes (overhead %.1f%%), %d acks sent, %d received",
					len(raw), len(blob), offer.Chunks(), loss*100, res.complete, res.done, ideal,
					float64(res.done)/float64(ideal), res.stats.ChunksSent, res.stats.Retransmits,
					res.stats.BytesSent, 100*float64(res.stats.BytesSent-int64(len(blob)))/float64(len(blob)),
					res.acksSent, res.stats.AcksReceived)
				require.GreaterOrEqual(t, res.complete, low, "faster than the rate allows")
				switch loss {
				case 0:
					// Only reordering beyond RTO/4 causes retransmissions.
					require.LessOrEqual(t, res.stats.Retransmits, offer.Chunks()/20)
					// The pacer never idles: done one RTT after the last byte.
					require.LessOrEqual(t, res.done, time.Duration(res.stats.BytesSent)*time.Second/rate+2*rtt)
				case 0.1:
					require.Positive(t, res.stats.Retransmits)
					require.LessOrEqual(t, res.done, 3*ideal+5*rtt)
				default:
					require.Positive(t, res.stats.Retransmits)
					require.LessOrEqual(t, res.done, 4*ideal+10*rtt)
				}
			})
		}
	}
}

// TestTransferCleanLink checks that a link without loss or reordering
// costs no retransmission at all.
func TestTransferCleanLink(t *testing.T) {
	raw := randomBytes(300_000, 8)
	offer := Offer{ID: 1, Size: len(raw), RawSize: len(raw), ChunkSize: 1000}
	link := linkConfig{Latency: 40 * time.Millisecond, Jitter: 5 * time.Millisecond, Dup: 0.05}
	res := simulate(t, simConfig{link: link, seed: 2}, offer, raw)
	require.Equal(t, raw, res.blob)
	require.Zero(t, res.stats.Retransmits)
	require.Equal(t, offer.Chunks(), res.stats.ChunksSent)
}

// TestTransferDelayedAcks acks every 4 fresh chunks, or 10 ms after one.
func TestTransferDelayedAcks(t *testing.T) {
	raw := randomBytes(200_000, 5)
	offer := Offer{ID: 1, Size: len(raw), RawSize: len(raw), ChunkSize: 1100}
	for _, loss := range []float64{0, 0.1} {
		cfg := simConfig{link: link25(loss), ackEvery: 4, ackDelay: 10 * time.Millisecond, seed: 21}
		res := simulate(t, cfg, offer, raw)
		require.Equal(t, raw, res.blob)
		t.Logf("%.0f%% loss, ack every 4: done %v, %d acks for %d chunks sent, %d retransmitted",
			loss*100, res.done, res.acksSent, res.stats.ChunksSent, res.stats.Retransmits)
		if loss == 0 {
			require.Zero(t, res.stats.Retransmits)
		}
	}
}

// TestTransferFastLink moves a blob at a high rate over a 1 ms link: the
// RTO floor and fast retransmission keep it near size/rate.
func TestTransferFastLink(t *testing.T) {
	raw := randomBytes(2_000_000, 6)
	offer := Offer{ID: 1, Size: len(raw), RawSize: len(raw), ChunkSize: 1100}
	cfg := simConfig{
		link:   linkConfig{Latency: time.Millisecond, Jitter: time.Millisecond, Loss: 0.05, Reorder: 0.05},
		sender: SenderConfig{Rate: 10 << 20},
		seed:   4,
	}
	res := simulate(t, cfg, offer, raw)
	require.Equal(t, raw, res.blob)
	ideal := time.Duration(len(raw)) * time.Second / (10 << 20)
	t.Logf("2 MB at 10 MiB/s, 5%% loss: done %v (size/rate %v), %d retransmitted of %d sent",
		res.done, ideal, res.stats.Retransmits, res.stats.ChunksSent)
	require.LessOrEqual(t, res.done, 2*ideal)
}
