package endpoint

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/wire"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

func TestConfig(t *testing.T) {
	t.Run("zero value", func(t *testing.T) {
		var c Config
		if err := c.Validate(); err != nil {
			t.Fatalf("zero Config: %v", err)
		}
		d := DefaultConfig()
		if d.KeepAliveInterval != 200*ms || d.InterruptTimeout != 500*ms || d.DisconnectTimeout != 2500*ms ||
			d.HelloInterval != 100*ms || d.MaxPoll != 256 || d.LeaveCopies != 3 {
			t.Errorf("DefaultConfig() = %+v", d)
		}
		if !reflect.DeepEqual(c, Config{}) {
			t.Errorf("Validate modified its receiver")
		}
	})
	for _, tc := range []struct {
		name  string
		edit  func(c *Config)
		field string
	}{
		{"negative keep-alive", func(c *Config) { c.KeepAliveInterval = -1 }, "KeepAliveInterval"},
		{"keep-alive not below interrupt", func(c *Config) { c.KeepAliveInterval = 500 * ms }, "KeepAliveInterval"},
		{"interrupt not below disconnect", func(c *Config) { c.InterruptTimeout = 3 * time.Second }, "InterruptTimeout"},
		{"negative hello interval", func(c *Config) { c.HelloInterval = -ms }, "HelloInterval"},
		{"negative handshake timeout", func(c *Config) { c.HandshakeTimeout = -ms }, "HandshakeTimeout"},
		{"negative max poll", func(c *Config) { c.MaxPoll = -1 }, "MaxPoll"},
		{"too many leave copies", func(c *Config) { c.LeaveCopies = 17 }, "LeaveCopies"},
		{"seat out of range", func(c *Config) { c.Seat = core.MaxPlayers + 1 }, "Seat"},
		{"peer seat out of range", func(c *Config) { c.Seats = []wire.Seat{wire.SeatOf(1), 200} }, "Seats[1]"},
		{"peer seat twice", func(c *Config) { c.Seats = []wire.Seat{wire.SeatOf(1), 0, wire.SeatOf(1)} }, "Seats[2]"},
		{"own seat", func(c *Config) { c.Seat, c.Seats = wire.SeatOf(0), []wire.Seat{wire.SeatOf(0)} }, "Seats[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c Config
			tc.edit(&c)
			err := c.Validate()
			var ce *ConfigError
			if !errors.As(err, &ce) || !errors.Is(err, ErrInvalidConfig) || ce.Field != tc.field {
				t.Fatalf("Validate() = %v, want a *ConfigError for %s", err, tc.field)
			}
			if _, err := New[testInput](c, &scriptConn{}, []transport.Addr{1}); !errors.Is(err, ErrInvalidConfig) {
				t.Errorf("New() = %v, want ErrInvalidConfig", err)
			}
		})
	}
}

func TestNew(t *testing.T) {
	conn := func() transport.Conn {
		nw, _ := sim.New(sim.Config{})
		return nw.NewEndpoint()
	}
	for _, tc := range []struct {
		name  string
		cfg   Config
		conn  transport.Conn
		peers []transport.Addr
		want  string
	}{
		{"nil conn", Config{}, nil, []transport.Addr{1}, "conn"},
		{"no peers", Config{}, conn(), nil, "peers"},
		{"duplicate peer", Config{}, conn(), []transport.Addr{1, 2, 1}, "listed twice"},
		{"input size", Config{Digest: testDigestSize(4)}, conn(), []transport.Addr{1}, "Digest.InputSize"},
		{"rand fails", Config{Rand: strings.NewReader("short")}, conn(), []transport.Addr{1}, "nonce"},
		{"seats not one per peer", Config{Seats: []wire.Seat{wire.SeatOf(1)}}, conn(), []transport.Addr{1, 2}, "Seats 1 seats"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New[testInput](tc.cfg, tc.conn, tc.peers)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New() = %v, want an error mentioning %q", err, tc.want)
			}
			if tc.name == "rand fails" && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("New() = %v, want it to wrap io.ErrUnexpectedEOF", err)
			}
		})
	}
	t.Run("crypto rand by default", func(t *testing.T) {
		ep, err := New[testInput](Config{}, conn(), []transport.Addr{1})
		if err != nil {
			t.Fatal(err)
		}
		if ep.Peers() != 1 || ep.State(0) != StateHandshaking || ep.State(1) != StateUnknown {
			t.Errorf("Peers %d, states %v %v", ep.Peers(), ep.State(0), ep.State(1))
		}
		mustNil(t, ep.Close())
		if err := ep.Close(); !errors.Is(err, ErrClosed) {
			t.Errorf("second Close() = %v, want ErrClosed", err)
		}
		if _, err := ep.Poll(0, nil); !errors.Is(err, ErrClosed) {
			t.Errorf("Poll after Close = %v, want ErrClosed", err)
		}
	})
}

func testDigestSize(n uint16) (d wire.ConfigDigest) { d.InputSize = n; return d }
