package dtls

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"

	piondtls "github.com/pion/dtls/v3"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/transport"
)

// plaintextRecord returns one DTLS 1.2 record at epoch 0 (no key needed to
// make it) of content type typ with body.
func plaintextRecord(typ byte, seq uint16, body []byte) []byte {
	r := []byte{typ, 0xfe, 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	binary.BigEndian.PutUint16(r[9:], seq)
	binary.BigEndian.PutUint16(r[11:], uint16(len(body)))
	return append(r, body...)
}

// plaintextAttacks are the datagrams anyone who can send to a peer's
// socket can make without a key. Before the fix, the first three made
// pion answer with a fatal alert, which the genuine peer honoured: one
// 15-byte datagram ended an established association.
var plaintextAttacks = []struct {
	name string
	dg   []byte
}{
	{"application data", plaintextRecord(23, 900, []byte("hi"))},
	{"bad ChangeCipherSpec", plaintextRecord(20, 901, []byte{1, 1})},
	{"unknown content type", plaintextRecord(99, 902, []byte{0, 0})},
	{"fatal alert", plaintextRecord(21, 903, []byte{2, 40})},
	{"handshake garbage", plaintextRecord(22, 904, []byte{1, 0, 0, 9, 9})},
	{"truncated header", plaintextRecord(23, 905, nil)[:7]},
	{"length beyond datagram", plaintextRecord(23, 906, []byte("hi"))[:14]},
	{"two records", append(plaintextRecord(22, 907, []byte{0}), plaintextRecord(23, 908, []byte("hi"))...)},
}

// TestPlaintextRecordsLeaveMatchRunning sends every plaintext attack to an
// established pair, to each side, from the other side's address and from
// a third socket, and requires the association to carry datagrams both
// ways afterwards. A datagram sent right after the attack on the same
// socket arrives after it, so a fatal alert provoked by the attack
// reaches the genuine peer before the round trip that checks it.
func TestPlaintextRecordsLeaveMatchRunning(t *testing.T) {
	spc, err := net.ListenUDP("udp4", loopback)
	require.NoError(t, err)
	srv, err := Listen(spc, pskServer())
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	cpc, err := net.ListenUDP("udp4", loopback)
	require.NoError(t, err)
	cli := dialReady(t, srv, cpc, pskClient())
	other, err := net.ListenUDP("udp4", loopback)
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })

	const toServer, toClient = transport.Addr(10), transport.Addr(20)
	buf := make([]byte, transport.MaxDatagram)
	roundTrip := func(t *testing.T, what string) {
		t.Helper()
		require.NoError(t, cli.Send(toServer, []byte("ping "+what)), "client Send after %s", what)
		got, _ := recv(t, srv, buf)
		require.Equal(t, "ping "+what, string(got))
		require.NoError(t, srv.Send(toClient, []byte("pong "+what)), "server Send after %s", what)
		got, _ = recv(t, cli, buf)
		require.Equal(t, "pong "+what, string(got))
	}
	roundTrip(t, "the handshake")
	for _, a := range plaintextAttacks {
		for _, target := range []struct {
			name   string
			victim net.Addr
			spoof  *net.UDPConn // the other side's socket
		}{
			{"to the client", cpc.LocalAddr(), spc},
			{"to the server", spc.LocalAddr(), cpc},
		} {
			for _, from := range []struct {
				name string
				pc   *net.UDPConn
			}{
				{"from the peer's address", target.spoof},
				{"from another address", other},
			} {
				name := fmt.Sprintf("%s/%s/%s", a.name, target.name, from.name)
				t.Run(name, func(t *testing.T) {
					_, err := from.pc.WriteTo(a.dg, target.victim)
					require.NoError(t, err)
					roundTrip(t, name)
				})
			}
		}
	}
	roundTrip(t, "every attack")
	for _, c := range []*Conn{srv, cli} {
		s := c.snapshot()
		require.Equal(t, 1, s.Peers, "peers after the attacks: %+v", s)
		require.Zero(t, s.PeersClosed, "associations ended by the attacks: %+v", s)
		require.NotZero(t, s.DroppedPlaintext, "plaintext datagrams dropped: %+v", s)
	}
	require.NotZero(t, cli.snapshot().DroppedForeign, "datagrams from another address than the server's")
}

func TestAssociationEnded(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{io.EOF, true},
		{fmt.Errorf("read: %w", net.ErrClosed), true},
		{piondtls.ErrConnClosed, true},
		{&piondtls.TemporaryError{Err: errors.New("invalid content type")}, false},
		{errors.New("alert: warning: no_renegotiation"), false},
	} {
		require.Equal(t, tc.want, associationEnded(tc.err), "associationEnded(%v)", tc.err)
	}
}

// records splits p into its records, or returns false when p is not a
// well-formed sequence of them: the naive oracle of keepAuthenticated.
func records(p []byte) ([][]byte, bool) {
	var out [][]byte
	for len(p) > 0 {
		if len(p) < recordHeader {
			return nil, false
		}
		size := recordHeader + (int(p[11])<<8 | int(p[12]))
		if size > len(p) {
			return nil, false
		}
		out, p = append(out, p[:size]), p[size:]
	}
	return out, true
}

// FuzzKeepAuthenticated checks keepAuthenticated against records: what it
// keeps is exactly the input's handshake and non-zero-epoch records, in
// order, and nothing of an input that is not well formed (or has more
// records than it checks); it never panics and is idempotent.
func FuzzKeepAuthenticated(f *testing.F) {
	for _, a := range plaintextAttacks {
		f.Add(a.dg)
	}
	f.Add(append(plaintextRecord(22, 1, []byte{1, 2, 3}), 0x17, 0xfe, 0xfd, 0, 1, 0, 0, 0, 0, 0, 7, 0, 1, 0xaa))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, p []byte) {
		in := append([]byte(nil), p...)
		recs, ok := records(in)
		var want []byte
		if ok && len(recs) <= maxRecordsChecked {
			for _, r := range recs {
				if r[0] == contentHandshake || r[3] != 0 || r[4] != 0 {
					want = append(want, r...)
				}
			}
		}
		n := keepAuthenticated(p)
		require.True(t, bytes.Equal(want, p[:n]), "kept %x of %x, want %x", p[:n], in, want)
		require.Equal(t, n, keepAuthenticated(p[:n]), "a second pass changes nothing")
	})
}
