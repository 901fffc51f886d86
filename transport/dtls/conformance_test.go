package dtls

import (
	"testing"

	"github.com/rollstep/rollstep/transport/transporttest"
)

func TestConformance(t *testing.T) {
	modes := []struct {
		name string
		make func(t testing.TB) (server, client Config)
	}{
		{"PSK", func(testing.TB) (Config, Config) { return pskServer(), pskClient() }},
		{"Certificate", certPair},
	}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			transporttest.TestConn(t, func(t *testing.T) transporttest.Pair {
				scfg, ccfg := mode.make(t)
				srv := listen(t, scfg)
				cli := dialReady(t, srv, nil, ccfg)
				return transporttest.Pair{A: cli, B: srv, ToB: 10, ToA: 20, Settle: func() { settle(cli, srv) }}
			})
		})
	}
}
