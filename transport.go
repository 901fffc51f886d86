package rollstep

import (
	"github.com/rollstep/rollstep/internal/endpoint"
)

// ErrHandshakeTimeout is matched by the error Update returns, unless
// Config.SoloStart, when a peer's handshake did not finish in time; its
// text says what arrived from the silent peer (a wrong token, or nothing
// at all). A refused handshake matches ErrRefused instead, and its text
// names the field the peers disagree on.
var ErrHandshakeTimeout = endpoint.ErrHandshakeTimeout
