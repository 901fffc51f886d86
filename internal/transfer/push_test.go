package transfer

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A Push moves a blob over a lossy link to a Receiver that learns the
// offer only from the Push's own messages, and reports done once every
// chunk is acknowledged.
func TestPushDeliversOverLoss(t *testing.T) {
	raw := make([]byte, 200_000)
	r := rand.New(rand.NewPCG(3, 3))
	for i := range raw {
		raw[i] = byte(r.IntN(16))
	}
	blob := Compress(raw)
	p, err := NewPush(SenderConfig{Rate: 256 << 10}, 7, blob, len(raw))
	require.NoError(t, err)
	link := linkConfig{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.1}
	out, back := newLossyLink(link, 1), newLossyLink(link, 2)
	var rcv *Receiver
	done := false
	for now := time.Duration(0); now < 10*time.Second && !done; now += time.Millisecond {
		for b, ok := out.recv(now); ok; b, ok = out.recv(now) {
			switch b[0] {
			case KindOffer:
				o, err := DecodeOffer(b)
				require.NoError(t, err)
				if rcv == nil {
					rcv, err = NewReceiver(o, len(raw))
					require.NoError(t, err)
				}
				back.send(now, AppendAck(nil, rcv.Ack()))
			case KindChunk:
				c, err := DecodeChunk(b)
				require.NoError(t, err)
				_, _ = rcv.OnChunk(c)
				back.send(now, AppendAck(nil, rcv.Ack()))
			}
		}
		for b, ok := back.recv(now); ok; b, ok = back.recv(now) {
			p.OnAck(now, b)
			p.OnAck(now, []byte{KindAck, 1}) // malformed: ignored
		}
		done, err = p.Pump(now, func(b []byte) error { out.send(now, b); return nil })
		require.NoError(t, err)
	}
	require.True(t, done, "not delivered in 10 s")
	require.True(t, rcv.Complete())
	got, err := Decompress(rcv.Blob(), p.Offer().RawSize, len(raw))
	require.NoError(t, err)
	require.True(t, bytes.Equal(raw, got))
	require.Positive(t, p.Stats().Retransmits, "10 %% loss cost no retransmission")
}

// A Push whose offer nobody acknowledges ends with ErrTimeout, having
// repeated the offer every OfferResend; a send error is returned as it is.
func TestPushTimesOutAndReturnsSendErrors(t *testing.T) {
	p, err := NewPush(SenderConfig{Timeout: time.Second}, 1, Compress([]byte("state")), 5)
	require.NoError(t, err)
	offers := 0
	var last error
	for now := time.Duration(0); now <= 2*time.Second && last == nil; now += 10 * time.Millisecond {
		_, last = p.Pump(now, func(b []byte) error { offers++; return nil })
	}
	require.ErrorIs(t, last, ErrTimeout)
	require.InDelta(t, 11, offers, 1, "one offer per %v for 1 s", OfferResend)

	boom := errors.New("boom")
	p, err = NewPush(SenderConfig{}, 2, Compress([]byte("state")), 5)
	require.NoError(t, err)
	_, err = p.Pump(0, func([]byte) error { return boom })
	require.ErrorIs(t, err, boom)
}
