//go:build !js

package webrtc

import (
	"github.com/pion/ice/v4"
	"github.com/pion/transport/v5/stdnet"
	pion "github.com/pion/webrtc/v4"
)

// newAPI returns the pion API of a Conn, whose ICE reports to refused a
// TURN server that refuses the credential (see turnWatch); with
// cfg.loopback, one whose ICE gathers host candidates on loopback over
// UDP4 only, without mDNS; with cfg.socket, one that sends and receives
// through that socket; and with cfg.relayOnly, one that takes a working
// relay pair at once, with nothing better to wait for (pion's agent
// otherwise waits 2 s for one).
func newAPI(cfg *Config, refused func(error)) *pion.API {
	var se pion.SettingEngine
	if n, err := stdnet.NewNet(); err == nil { // else pion's default, unwatched
		se.SetNet(&turnWatch{Net: n, refused: refused})
	}
	if cfg.socket != nil {
		se.SetICEUDPMux(ice.NewUDPMuxDefault(ice.UDPMuxParams{UDPConn: cfg.socket}))
	}
	if cfg.relayOnly {
		se.SetRelayAcceptanceMinWait(0)
	}
	if cfg.loopback {
		se.SetIncludeLoopbackCandidate(true)
		se.SetNetworkTypes([]pion.NetworkType{pion.NetworkTypeUDP4})
		se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
		se.SetInterfaceFilter(func(name string) bool { return name == "lo" })
	}
	return pion.NewAPI(pion.WithSettingEngine(se))
}
