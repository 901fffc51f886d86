package endpoint

import "github.com/rollstep/rollstep/transport/udp"

// transport/udp's provisional peers are what Forgetter and Rebinder exist
// for: keep the interfaces in step with it.
var (
	_ Forgetter = (*udp.Conn)(nil)
	_ Rebinder  = (*udp.Conn)(nil)
)
