package transport

import (
	"io"
	"time"
)

// Config configures rollstep's protocol over a Conn: the session's
// connection to its peers, or a spectator's to its host. The zero value is
// usable apart from Token; every zero field means the default in its
// comment.
type Config struct {
	// Token is the match's secret: every packet carries a tag keyed by it,
	// and packets with another tag are dropped unread. It never travels.
	Token uint64
	// Rand is the source of the handshake's nonces; nil means
	// crypto/rand. Give tests a seeded one.
	Rand io.Reader
	// KeepAliveInterval is how often an idle link sends a keep-alive
	// (200 ms); InterruptTimeout is the silence after which a peer is
	// interrupted (500 ms); DisconnectTimeout the silence after which it is
	// lost and its players disconnected (2.5 s); HelloInterval how often a
	// Hello is repeated during the handshake (100 ms); HandshakeTimeout how
	// long a peer's handshake may take (10 s).
	KeepAliveInterval, InterruptTimeout, DisconnectTimeout time.Duration
	HelloInterval, HandshakeTimeout                        time.Duration
	// MaxPoll bounds the datagrams one Update reads (256); LeaveCopies is
	// how many times a Leave is sent (3).
	MaxPoll, LeaveCopies int
}
