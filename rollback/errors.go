package rollback

import "errors"

// ErrClosed is returned by every method of a closed Session or Spectator.
var ErrClosed = errors.New("rollback: session closed")

// ErrRefused is returned by Update once a handshake was refused; the
// RefusedEvent names the peer and the differing field.
var ErrRefused = errors.New("rollback: handshake refused")

// ErrNotStarted is returned by Wait before the match started.
var ErrNotStarted = errors.New("rollback: match not started")

// ErrStreamEnded is returned by a Spectator's Update after its stream
// ended (see StreamEndedEvent).
var ErrStreamEnded = errors.New("rollback: spectator stream ended")
