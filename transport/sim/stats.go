package sim

import "github.com/rollstep/rollstep/transport"

// Counter counts datagrams and their bytes on the wire: each datagram
// counts len(payload) + transport.HeaderOverhead bytes.
type Counter struct {
	// Packets is the number of datagrams.
	Packets int64
	// Bytes is the payload bytes plus transport.HeaderOverhead per datagram.
	Bytes int64
}

// add counts one datagram of wire bytes.
func (c *Counter) add(wire int) {
	c.Packets++
	c.Bytes += int64(wire)
}

// plus returns the sum of c and d.
func (c Counter) plus(d Counter) Counter {
	return Counter{Packets: c.Packets + d.Packets, Bytes: c.Bytes + d.Bytes}
}

// LinkStats holds the counters of a directed link, or a sum of them.
// Every datagram Send accepts counts once in Sent; each extra copy made by
// duplication counts once in Duplicated; every datagram and copy later
// counts once in either Delivered (it reached the inbox) or Dropped (lost,
// cut, queue full, receiver closed or inbox full). So at any time
// Sent + Duplicated = Delivered + Dropped + the datagrams in flight.
type LinkStats struct {
	// Sent counts the datagrams Send accepted for the link.
	Sent Counter
	// Delivered counts datagrams and copies that reached the inbox.
	Delivered Counter
	// Dropped counts datagrams and copies that never will.
	Dropped Counter
	// Duplicated counts the extra copies made by duplication.
	Duplicated Counter
}

// plus returns the field-wise sum of s and t.
func (s LinkStats) plus(t LinkStats) LinkStats {
	return LinkStats{
		Sent:       s.Sent.plus(t.Sent),
		Delivered:  s.Delivered.plus(t.Delivered),
		Dropped:    s.Dropped.plus(t.Dropped),
		Duplicated: s.Duplicated.plus(t.Duplicated),
	}
}

// Stats returns the counters of the directed link from → to.
func (n *Network) Stats(from, to transport.Addr) LinkStats {
	if l := n.links[linkKey{from, to}]; l != nil {
		return l.stats
	}
	return LinkStats{}
}

// Outbound returns the sum of the counters of every link from id, which is
// the upload of endpoint id.
func (n *Network) Outbound(id transport.Addr) LinkStats {
	var sum LinkStats
	for k, l := range n.links {
		if k.from == id {
			sum = sum.plus(l.stats)
		}
	}
	return sum
}

// Inbound returns the sum of the counters of every link to id, which is
// the download of endpoint id.
func (n *Network) Inbound(id transport.Addr) LinkStats {
	var sum LinkStats
	for k, l := range n.links {
		if k.to == id {
			sum = sum.plus(l.stats)
		}
	}
	return sum
}
