//go:build js

package webrtc

import pion "github.com/pion/webrtc/v4"

// newAPI returns the pion API of a Conn: in a browser, its own WebRTC,
// which takes no settings.
func newAPI(*Config) *pion.API { return pion.NewAPI() }
