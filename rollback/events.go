package rollback

import (
	"errors"

	"github.com/rollstep/rollstep/core"
)

// ErrStreamEnded is returned by a Spectator's Update after its stream
// ended (see StreamEndedEvent).
var ErrStreamEnded = errors.New("rollback: spectator stream ended")

// StreamStartedEvent reports that a spectator connected to its host.
type StreamStartedEvent struct{}

// EndReason says why a spectator's stream ended.
type EndReason uint8

// The end reasons. The zero value, EndUnknown, is never reported.
const (
	EndUnknown EndReason = iota // the zero EndReason
	EndLeft                     // the host left (it closed its session)
	EndLost                     // the host was silent for the disconnect timeout
	EndDropped                  // the host dropped the spectator for lagging
	EndRefused                  // the handshake was refused
)

var endNames = [...]string{"unknown", "host left", "host lost", "dropped", "refused"}

// String returns the reason, such as "host left".
func (r EndReason) String() string {
	if int(r) < len(endNames) {
		return endNames[r]
	}
	return endNames[0]
}

// StreamEndedEvent reports that a spectator's stream ended; the
// spectator's Update returns ErrStreamEnded from now on. Frame is the
// spectator's current frame; every frame before it was simulated with
// the host's confirmed inputs. Err carries the handshake error for
// EndRefused.
type StreamEndedEvent struct {
	Reason EndReason  // why
	Frame  core.Frame // the spectator's frame when it ended
	Err    error      // the handshake error, for EndRefused
}
