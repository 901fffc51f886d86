//go:build !js

package webrtc

import (
	"github.com/pion/ice/v4"
	pion "github.com/pion/webrtc/v4"
)

// newAPI returns the pion API of a Conn; with cfg.loopback, one whose ICE
// gathers host candidates on loopback over UDP4 only, without mDNS, and
// with cfg.socket, one that sends and receives through that socket.
func newAPI(cfg *Config) *pion.API {
	var se pion.SettingEngine
	if cfg.socket != nil {
		se.SetICEUDPMux(ice.NewUDPMuxDefault(ice.UDPMuxParams{UDPConn: cfg.socket}))
	}
	if cfg.loopback {
		se.SetIncludeLoopbackCandidate(true)
		se.SetNetworkTypes([]pion.NetworkType{pion.NetworkTypeUDP4})
		se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
		se.SetInterfaceFilter(func(name string) bool { return name == "lo" })
	}
	return pion.NewAPI(pion.WithSettingEngine(se))
}
