//go:build js

package webrtc

import pion "github.com/pion/webrtc/v4"

// newAPI returns the pion API of a Conn: in a browser, its own WebRTC,
// which takes no settings and does not say why a TURN server failed, so
// refused is never called.
func newAPI(*Config, func(error)) *pion.API { return pion.NewAPI() }
