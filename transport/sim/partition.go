package sim

import "github.com/rollstep/rollstep/transport"

// Cut cuts the directed link from → to: datagrams sent on it from now on are
// dropped (and counted as dropped). Datagrams already in flight still
// arrive. The endpoints need not exist yet.
func (n *Network) Cut(from, to transport.Addr) { n.link(from, to).shaper.cut = true }

// Restore undoes Cut for the directed link from → to.
func (n *Network) Restore(from, to transport.Addr) { n.link(from, to).shaper.cut = false }

// Partition cuts every link, in both directions, between an endpoint in a
// and an endpoint in b. Links within a side are untouched.
func (n *Network) Partition(a, b []transport.Addr) {
	for _, x := range a {
		for _, y := range b {
			n.Cut(x, y)
			n.Cut(y, x)
		}
	}
}

// Heal restores every cut link.
func (n *Network) Heal() {
	for _, l := range n.links {
		l.shaper.cut = false
	}
}
