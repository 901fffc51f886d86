package rollback

import "errors"

// ErrStreamEnded is returned by a Spectator's Update after its stream
// ended (see core.StreamEndedEvent).
var ErrStreamEnded = errors.New("rollback: spectator stream ended")
