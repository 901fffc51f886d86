package lobby

import (
	"fmt"
	"net/http"
	"time"
)

// Config sets a Server's limits. The zero Config is usable: every zero
// field means its default.
type Config struct {
	// MaxConns bounds the open connections; a connection past it is
	// refused before the WebSocket upgrade with 503. 0 means 20,000.
	MaxConns int
	// MaxRooms bounds the rooms waiting to fill; a join that would open
	// another is refused. 0 means 10,000.
	MaxRooms int
	// JoinTimeout is how long a new connection has to send its join.
	// 0 means 10 s.
	JoinTimeout time.Duration
	// IdleTimeout closes a connection that sends nothing for this long,
	// waiting or matched. Clients of this package ping every IdleTimeout/3
	// of the default. 0 means 90 s.
	IdleTimeout time.Duration
	// Rate and Burst bound the messages one connection may send: Burst at
	// once, Rate a second sustained. A connection over them is closed.
	// 0 means 20 a second and a burst of 60 (a WebRTC set-up sends an
	// offer or answer and a dozen ICE candidates to each peer).
	Rate, Burst int
	// OriginPatterns are the browser origins, besides the server's own
	// host, that may open a connection (host patterns as path.Match takes
	// them, such as "*.example.com"); empty allows the server's own host
	// only, and any non-browser client.
	OriginPatterns []string
	// Files, if not nil, serves every path but /ws, /healthz and /readyz:
	// a browser game's page and wasm, for example.
	Files http.Handler
}

// Defaults of the zero Config fields.
const (
	defaultMaxConns    = 20000
	defaultMaxRooms    = 10000
	defaultJoinTimeout = 10 * time.Second
	defaultIdleTimeout = 90 * time.Second
	defaultRate        = 20
	defaultBurst       = 60
)

// withDefaults returns c with its zero fields set, or an error naming the
// first negative one.
func (c Config) withDefaults() (Config, error) {
	for _, f := range []struct {
		name string
		v    int64
	}{{"MaxConns", int64(c.MaxConns)}, {"MaxRooms", int64(c.MaxRooms)}, {"JoinTimeout", int64(c.JoinTimeout)},
		{"IdleTimeout", int64(c.IdleTimeout)}, {"Rate", int64(c.Rate)}, {"Burst", int64(c.Burst)}} {
		if f.v < 0 {
			return c, fmt.Errorf("lobby: Config.%s is negative (%d)", f.name, f.v)
		}
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.MaxConns, defaultMaxConns)
	def(&c.MaxRooms, defaultMaxRooms)
	def(&c.Rate, defaultRate)
	def(&c.Burst, defaultBurst)
	if c.JoinTimeout == 0 {
		c.JoinTimeout = defaultJoinTimeout
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = defaultIdleTimeout
	}
	return c, nil
}
