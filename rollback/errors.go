package rollback

import "errors"

// ErrClosed is returned by every method of a closed Session or Spectator.
var ErrClosed = errors.New("rollback: session closed")

// ErrRefused is matched by the error Update returns once a handshake was
// refused; that error wraps the first refusal's *endpoint.HandshakeError,
// which names the differing field, as the RefusedEvent does.
var ErrRefused = errors.New("rollback: handshake refused")

// ErrNotStarted is returned by Wait before the match started.
var ErrNotStarted = errors.New("rollback: match not started")

// ErrStreamEnded is returned by a Spectator's Update after its stream
// ended (see StreamEndedEvent).
var ErrStreamEnded = errors.New("rollback: spectator stream ended")
