package rollback

import "errors"

// ErrStreamEnded is returned by a Spectator's Update after its stream
// ended (its last event is a core.PeerLostEvent or core.RefusedEvent).
var ErrStreamEnded = errors.New("rollback: spectator stream ended")
