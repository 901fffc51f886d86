package sim

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/transport"
)

// sendOp is one datagram a test sends: at virtual time at, from endpoint
// from to endpoint to, with size bytes of payload (at least 4). The payload
// starts with the op's index so arrivals can be matched to sends.
type sendOp struct {
	at       time.Duration
	from, to int
	size     int
}

// arrivalRecord is one received datagram: when it was received (the
// virtual time it arrived), by whom, from whom, and the index of its op.
type arrivalRecord struct {
	at   time.Duration
	to   int
	from transport.Addr
	op   int
	size int
}

// String formats r as one line of a delivery trace.
func (r arrivalRecord) String() string {
	return fmt.Sprintf("%v %v->%d op=%d size=%d", r.at, r.from, r.to, r.op, r.size)
}

// newNetwork returns a network with n endpoints, failing the test on a bad
// config.
func newNetwork(t testing.TB, cfg Config, n int) (*Network, []*Endpoint) {
	t.Helper()
	net, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	eps := make([]*Endpoint, n)
	for i := range eps {
		eps[i] = net.NewEndpoint()
	}
	return net, eps
}

// run performs ops, which must be sorted by time, and then lets every
// datagram arrive. Arrivals are received at exactly their arrival times by
// jumping from one to the next with Network.Next, so the records carry exact
// virtual times. Datagrams due at an op's time are received before the op.
func run(t testing.TB, net *Network, eps []*Endpoint, ops []sendOp) []arrivalRecord {
	t.Helper()
	var out []arrivalRecord
	drain := func() {
		buf := make([]byte, transport.MaxDatagram)
		for i, e := range eps {
			for {
				n, from, ok, err := e.Receive(buf)
				if err != nil {
					t.Fatalf("Receive: %v", err)
				}
				if !ok {
					break
				}
				op := int(binary.LittleEndian.Uint32(buf))
				out = append(out, arrivalRecord{at: net.Now(), to: i, from: from, op: op, size: n})
			}
		}
	}
	payload := make([]byte, transport.MaxDatagram)
	for i, op := range ops {
		for {
			next, ok := net.Next()
			if !ok || next > op.at {
				break
			}
			net.RunUntil(next)
			drain()
		}
		net.RunUntil(op.at)
		binary.LittleEndian.PutUint32(payload, uint32(i))
		if err := eps[op.from].Send(eps[op.to].ID(), payload[:op.size]); err != nil {
			t.Fatalf("Send op %d: %v", i, err)
		}
	}
	for {
		next, ok := net.Next()
		if !ok {
			break
		}
		net.RunUntil(next)
		drain()
	}
	return out
}

// everyInterval returns count ops from endpoint 0 to endpoint 1, one every
// interval from time zero, each of size bytes.
func everyInterval(count int, interval time.Duration, size int) []sendOp {
	ops := make([]sendOp, count)
	for i := range ops {
		ops[i] = sendOp{at: time.Duration(i) * interval, from: 0, to: 1, size: size}
	}
	return ops
}

// latencies returns, for each op index, the latency of its first arrival,
// and whether it arrived.
func latencies(ops []sendOp, recs []arrivalRecord) ([]time.Duration, []bool) {
	lat := make([]time.Duration, len(ops))
	arrived := make([]bool, len(ops))
	for _, r := range recs {
		if !arrived[r.op] {
			lat[r.op] = r.at - ops[r.op].at
			arrived[r.op] = true
		}
	}
	return lat, arrived
}

// traceText formats records one per line.
func traceText(recs []arrivalRecord) string {
	var b strings.Builder
	for _, r := range recs {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.String()
}
