package udpproxy

import (
	"encoding/binary"
	"net"
	"net/netip"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sync/errgroup"

	"github.com/rollstep/rollstep/internal/simlink"
	"github.com/rollstep/rollstep/transport/sim"
)

// FuzzSchedule drives a Scheduler, on a virtual clock, with links and an
// operation sequence decoded from the fuzzer's bytes (see fuzzLink and
// schedOps): bursts of up to 2,048 datagrams of 0 to 65,535 bytes in
// either direction, time advances of 1 ns to 18 minutes, Pop, popping
// everything due as the driver does, jumping to Next as the driver's
// timer does, and Discard; at the end it drains the queue. It asserts:
//
//   - the fate of every datagram is the one a simlink.Shaper with the same
//     link and seed decides (link 0 → 1 for Up, 1 → 0 for Down), except
//     that one that would take the queue above MaxInFlight payload bytes
//     or MaxQueued datagrams is dropped as DropQueue;
//   - the queue never holds more than MaxInFlight bytes or MaxQueued
//     datagrams, and its length and bytes are those of the datagrams
//     submitted and not yet popped or discarded;
//   - Pop returns nothing that is not due, returns datagrams in order of
//     arrival time with ties in submission order, each with its own
//     direction, client, arrival time and bytes (a copy: the caller's
//     buffer is overwritten after Submit), exactly once per copy; Next is
//     the arrival time of the earliest queued datagram;
//   - the counters of each direction equal the fates seen and balance:
//     Received + Duplicated = Lost + Overflow + Forwarded + Discarded + in
//     flight, in packets and in bytes.
func FuzzSchedule(f *testing.F) {
	exact := []byte{50, 1, 51, 77, 77, 51, 29} // 50±10 ms, 30 % loss and duplication, 20 % reordering by 30 ms
	var ops schedOps
	for range 12 {
		ops.submit(Up, 1, 1, 3)
		ops.advance(10 * time.Millisecond)
	}
	ops.jumps(20)
	f.Add(uint64(1), exact, []byte(ops))

	// A bandwidth cap with a queue limit both ways, a spike and a
	// schedule step, and traffic both ways.
	capped := []byte{30, 1, 100, 25, 12, 12, 14, 20, 1, 3, 20, 9}
	capped = append(capped, capped...)
	ops = nil
	for i := range 40 {
		ops.submit(Direction(i%2), 1+i%3, uint16(i*37), byte(i))
		ops.advance(time.Duration(i%7) * 3 * time.Millisecond)
		if i%5 == 0 {
			ops.popDue()
		}
	}
	ops.jumps(200)
	f.Add(uint64(99), capped, []byte(ops))

	// A flood of full datagrams into a one-minute link: MaxInFlight
	// overflows; delivery makes room again; Discard empties the queue.
	slow := []byte{1, 3}
	ops = nil
	ops.submit(Up, 512, 65535, 1)
	ops.submit(Down, 16, 1200, 2)
	ops.advance(2 * time.Minute)
	ops.pop()
	ops.submit(Down, 2, 65535, 3)
	ops.discard()
	ops.submit(Up, 1, 65535, 4)
	f.Add(uint64(1), slow, []byte(ops))

	// A flood of empty datagrams: without MaxQueued the queue grew by a
	// queued entry per datagram whatever MaxInFlight said.
	ops = nil
	ops.submit(Up, MaxQueued+1000, 0, 5)
	f.Add(uint64(2), slow, []byte(ops))

	f.Fuzz(func(t *testing.T, seed uint64, links, ops []byte) {
		up, down := fuzzLink(links), fuzzLink(links[min(len(links), 12):])
		s, err := NewScheduler(up, down, seed)
		require.NoError(t, err)
		tu, err := simlink.NewShaper(up, seed, 0, 1)
		require.NoError(t, err)
		td, err := simlink.NewShaper(down, seed, 1, 0)
		require.NoError(t, err)
		m := &schedModel{t: t, s: s, twins: [2]simlink.Shaper{tu, td}, buf: make([]byte, readBuffer), lastIdx: -1}
		for n := 0; len(ops) > 0 && n < 1<<16 && len(m.sent) < 1<<19; n++ {
			op := ops[0]
			ops = ops[1:]
			arg := func() uint16 {
				var b [2]byte
				ops = ops[copy(b[:], ops):]
				return binary.LittleEndian.Uint16(b[:])
			}
			switch op & 7 {
			case 0, 6, 7:
				m.now += time.Duration(arg()) << min(op>>3, 24)
			case 1:
				size := arg()
				client := arg()
				m.submit(Direction(op>>3&1), 1<<min(op>>4, maxBurstShift), int(size), byte(client))
			case 2:
				m.pop()
			case 3:
				m.popDue()
			case 4:
				m.jump()
			case 5:
				m.discard()
			}
			m.check()
		}
		for m.jump() {
			m.check()
		}
		for i, r := range m.sent {
			if r.done != r.copies {
				t.Fatalf("datagram %d: %d of %d copies popped or discarded", i, r.done, r.copies)
			}
		}
	})
}

// schedOps builds FuzzSchedule operation sequences for seeds.
type schedOps []byte

func (o *schedOps) arg(v uint16) { *o = binary.LittleEndian.AppendUint16(*o, v) }

// advance moves the clock by d, rounded down to a multiple of a power of
// two nanoseconds.
func (o *schedOps) advance(d time.Duration) {
	shift := 0
	for d>>shift > 0xffff {
		shift++
	}
	*o = append(*o, byte(shift)<<3)
	o.arg(uint16(d >> shift))
}

// submit submits count datagrams of size bytes from client, in bursts of
// powers of two.
func (o *schedOps) submit(dir Direction, count int, size uint16, client byte) {
	for count > 0 {
		shift := 0
		for 2<<shift <= count && shift < maxBurstShift {
			shift++
		}
		*o = append(*o, 1|byte(dir)<<3|byte(shift)<<4)
		o.arg(size)
		o.arg(uint16(client))
		count -= 1 << shift
	}
}

// maxBurstShift bounds the datagrams of one FuzzSchedule burst to
// 1<<maxBurstShift, so that random inputs stay quick to run.
const maxBurstShift = 11

func (o *schedOps) pop()     { *o = append(*o, 2) }
func (o *schedOps) popDue()  { *o = append(*o, 3) }
func (o *schedOps) discard() { *o = append(*o, 5) }

// jumps jumps to Next n times.
func (o *schedOps) jumps(n int) {
	for range n {
		*o = append(*o, 4)
	}
}

// fuzzLink decodes a valid link configuration from the first 12 bytes of
// b (zeros past its end): base latency b[0] in µs, ms, s or minutes by
// b[1], jitter b[2]/255 of it, loss, duplication and reordering b[3] to
// b[5] over 255, reordering delay b[6]+1 ms, bandwidth b[7] kB/s, queue
// limit b[8]·1500 bytes, and, by the bits of b[9], a spike of b[10] ms
// every b[11]+1 times 10 ms and a schedule step to b[11] ms at b[10]·100
// ms.
func fuzzLink(b []byte) sim.LinkConfig {
	var c [12]byte
	copy(c[:], b)
	unit := [4]time.Duration{time.Microsecond, time.Millisecond, time.Second, time.Minute}[c[1]&3]
	base := time.Duration(c[0]) * unit
	l := sim.LinkConfig{
		Latency:      sim.Latency{Base: base, Jitter: base * time.Duration(c[2]) / 255},
		Loss:         float64(c[3]) / 255,
		Duplicate:    float64(c[4]) / 255,
		Reorder:      float64(c[5]) / 255,
		ReorderDelay: (time.Duration(c[6]) + 1) * time.Millisecond,
		Bandwidth:    int64(c[7]) * 1000,
		QueueLimit:   int(c[8]) * 1500,
	}
	if c[9]&1 != 0 {
		period := (time.Duration(c[11]) + 1) * 10 * time.Millisecond
		l.Latency.Spike = sim.Spike{Height: time.Duration(c[10]) * time.Millisecond, Length: period / 2, Period: period}
	}
	if c[9]&2 != 0 {
		l.Schedule = []sim.Step{{At: time.Duration(c[10]) * 100 * time.Millisecond, Latency: sim.Latency{Base: time.Duration(c[11]) * time.Millisecond}}}
	}
	return l
}

// schedModel is what FuzzSchedule expects of a Scheduler.
type schedModel struct {
	t     *testing.T
	s     *Scheduler
	twins [2]simlink.Shaper // decide as the Scheduler's shapers should
	buf   []byte            // the caller's buffer, reused as the driver does
	now   time.Duration

	sent    []sentDatagram
	pending []int // indexes in sent of datagrams with copies in flight
	stats   [2]DirStats
	count   [2]int // copies in flight
	bytes   [2]int // their bytes

	lastAt  time.Duration // the latest popped datagram's arrival time
	lastIdx int           // and index in sent
}

// sentDatagram is one submitted datagram.
type sentDatagram struct {
	at     time.Duration
	size   int
	dir    Direction
	client byte
	fill   byte
	copies uint8 // queued: 0, 1 or 2
	done   uint8 // copies popped or discarded
}

// submit submits count datagrams of size bytes from client in direction
// dir at the current time, checking each fate.
func (m *schedModel) submit(dir Direction, count, size int, client byte) {
	t := m.t
	fill := byte(len(m.sent)*7 + 1)
	p := m.buf[:size]
	for j := range p {
		p[j] = fill
	}
	for range count {
		i := len(m.sent)
		r := sentDatagram{size: size, dir: dir, client: client, fill: fill}
		want := m.twins[dir].Decide(m.now, size)
		got := m.s.Submit(m.now, dir, i<<8|int(client), p)
		if size > 0 {
			p[0] = ^fill // Submit must have copied p
		}
		st := &m.stats[dir]
		st.Received.add(size)
		switch {
		case want.Drop == simlink.DropQueue:
			st.Overflow.add(size)
		case want.Drop != simlink.DropNone:
			st.Lost.add(size)
		default:
			copies := 1
			if want.Duplicate {
				copies = 2
			}
			if m.bytes[Up]+m.bytes[Down]+copies*size > MaxInFlight || m.count[Up]+m.count[Down]+copies > MaxQueued {
				want = simlink.Fate{Drop: simlink.DropQueue}
				st.Overflow.add(size)
				break
			}
			if want.Duplicate {
				st.Duplicated.add(size)
			}
			r.at, r.copies = want.At, uint8(copies)
			m.count[dir] += copies
			m.bytes[dir] += copies * size
			m.pending = append(m.pending, i)
		}
		if got != want {
			t.Fatalf("datagram %d (%v, %d bytes at %v): fate %+v, want %+v", i, dir, size, m.now, got, want)
		}
		m.sent = append(m.sent, r)
		if size > 0 {
			p[0] = fill
		}
	}
}

// pop pops one datagram at the current time and checks it; it reports
// whether there was one.
func (m *schedModel) pop() bool {
	t := m.t
	d, ok := m.s.Pop(m.now)
	if !ok {
		return false
	}
	i := d.Client >> 8
	if i < 0 || i >= len(m.sent) {
		t.Fatalf("Pop(%v): client %d is no handle passed to Submit", m.now, d.Client)
	}
	r := &m.sent[i]
	switch {
	case d.At > m.now:
		t.Fatalf("Pop(%v) returned datagram %d due at %v", m.now, i, d.At)
	case d.At < m.lastAt || (d.At == m.lastAt && i < m.lastIdx):
		t.Fatalf("Pop returned datagram %d due at %v after datagram %d due at %v", i, d.At, m.lastIdx, m.lastAt)
	case r.done >= r.copies:
		t.Fatalf("Pop returned datagram %d for the %d-th time, %d copies queued", i, r.done+1, r.copies)
	case d.At != r.at || d.Dir != r.dir || byte(d.Client) != r.client || len(d.Payload) != r.size:
		t.Fatalf("Pop returned %v %v client %d, %d bytes at %v; datagram %d was %v client %d, %d bytes due at %v",
			d.Dir, d.At, d.Client&0xff, len(d.Payload), d.At, i, r.dir, r.client, r.size, r.at)
	}
	for _, b := range d.Payload {
		if b != r.fill {
			t.Fatalf("datagram %d: payload changed after Submit", i)
		}
	}
	m.lastAt, m.lastIdx = d.At, i
	r.done++
	m.count[r.dir]--
	m.bytes[r.dir] -= r.size
	m.stats[r.dir].Forwarded.add(r.size)
	return true
}

// popDue pops every datagram due at the current time, as the driver does,
// and checks that the next one is not due.
func (m *schedModel) popDue() {
	for m.pop() {
		m.check()
	}
	if next, ok := m.s.Next(); ok && next <= m.now {
		m.t.Fatalf("Next is %v after popping everything due at %v", next, m.now)
	}
}

// jump advances the clock to Next, as the driver's timer does, and pops
// everything due; it reports false, doing nothing, if nothing is queued.
func (m *schedModel) jump() bool {
	next, ok := m.s.Next()
	if !ok {
		return false
	}
	if next > m.now {
		if _, ok := m.s.Pop(next - 1); ok {
			m.t.Fatalf("Pop(%v) returned a datagram before Next (%v)", next-1, next)
		}
		m.now = next
	}
	if !m.pop() {
		m.t.Fatalf("Pop(%v) returned nothing though Next is %v", m.now, next)
	}
	m.popDue()
	return true
}

// discard discards the queue and counts every copy in flight.
func (m *schedModel) discard() {
	m.s.Discard()
	for _, i := range m.pending {
		r := &m.sent[i]
		for ; r.done < r.copies; r.done++ {
			m.stats[r.dir].Discarded.add(r.size)
		}
	}
	m.pending, m.count, m.bytes = m.pending[:0], [2]int{}, [2]int{}
}

// check compares the Scheduler's queue and counters with the model's.
func (m *schedModel) check() {
	t := m.t
	s := m.s
	inFlight := m.count[Up] + m.count[Down]
	switch {
	case s.bytes > MaxInFlight || s.Len() > MaxQueued:
		t.Fatalf("%d datagrams, %d bytes in flight: over MaxQueued %d or MaxInFlight %d", s.Len(), s.bytes, MaxQueued, MaxInFlight)
	case s.Len() != inFlight || s.bytes != m.bytes[Up]+m.bytes[Down]:
		t.Fatalf("%d datagrams, %d bytes in flight; want %d, %d", s.Len(), s.bytes, inFlight, m.bytes[Up]+m.bytes[Down])
	}
	if _, ok := s.Next(); ok != (inFlight > 0) {
		t.Fatalf("Next reports %v with %d datagrams in flight", ok, inFlight)
	}
	for _, dir := range []Direction{Up, Down} {
		st := s.Stats(dir)
		if st != m.stats[dir] {
			t.Fatalf("%v: stats %+v, want %+v", dir, st, m.stats[dir])
		}
		in := st.Received.Packets + st.Duplicated.Packets
		out := st.Lost.Packets + st.Overflow.Packets + st.Forwarded.Packets + st.Discarded.Packets + int64(m.count[dir])
		inB := st.Received.Bytes + st.Duplicated.Bytes
		outB := st.Lost.Bytes + st.Overflow.Bytes + st.Forwarded.Bytes + st.Discarded.Bytes + int64(m.bytes[dir])
		if in != out || inB != outB {
			t.Fatalf("%v: counters do not balance: %d packets (%d bytes) in, %d (%d) out or in flight", dir, in, inB, out, outB)
		}
	}
	if len(m.pending) > 64 && len(m.pending) > 2*inFlight {
		m.pending = slices.DeleteFunc(m.pending, func(i int) bool { return m.sent[i].done == m.sent[i].copies })
	}
}

// FuzzClientTable drives a Proxy's client table without Run: datagrams
// from up to 64 client addresses (IPv4 and IPv6) go straight to the
// handler of the listen socket, each with its own size; replies from the
// upstream go over loopback to a live client's upstream socket, read by
// that client's reader as in Run; the clock is injected and only the
// operations move it (by 1 ns to hours, or by ClientIdle plus or minus up
// to 32 µs); what is due is popped from the Scheduler as the delivery
// loop would. The operations are decoded from the fuzzer's bytes (see
// tableOps), for MaxClients 0 (DefaultMaxClients) to 8. It asserts, after
// every operation:
//
//   - the table never holds more than MaxClients clients, and its address
//     and id maps agree;
//   - it is the table Config.MaxClients documents: a new address gets the
//     next id (ids are never reused), and when the table is full it takes
//     the place of the client idle longest (ties: the lowest id) if that
//     one has been silent both ways for ClientIdle, which is then gone,
//     and is refused (counted in Stats.Refused) otherwise; every
//     datagram from or to a client updates its last time seen;
//   - every datagram read is submitted once, Up from clients and Down from
//     the upstream, and Stats.Clients and Expired count as documented;
//   - a delivery popped for a client id goes to the address that id was
//     given, or to nobody when that client has expired: never to the
//     client that took its place.
func FuzzClientTable(f *testing.F) {
	upstream, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { upstream.Close() })

	// One client slot: b is refused until a has been idle for ClientIdle,
	// to the nanosecond, then takes a's place.
	var ops tableOps
	ops.from(0, 10)
	ops.idle(-1)
	ops.from(1, 20)
	ops.advance(1)
	ops.from(1, 30)
	ops.deliver()
	ops.from(0, 40)
	f.Add(uint8(1), []byte(ops))

	// Two slots: a reply keeps a alive, so c takes b's place; then b
	// comes back and takes the place of a, idle longest.
	ops = nil
	ops.from(0, 1)
	ops.from(1, 1)
	ops.advance(20 * time.Second)
	ops.reply(0, 5)
	ops.advance(15 * time.Second)
	ops.from(2, 100)
	ops.deliver()
	ops.idle(0)
	ops.from(1, 0)
	ops.reply(1, 7)
	ops.deliver()
	f.Add(uint8(2), []byte(ops))

	// The default table, IPv6 clients, big datagrams and long silences.
	ops = nil
	for i := range 70 {
		ops.from(byte(i)|byte(i%2)<<7, uint16(i*937))
		if i%10 == 9 {
			ops.advance(time.Duration(i) * time.Second)
			ops.reply(byte(i), 65000)
			ops.deliver()
		}
	}
	ops.advance(time.Hour)
	ops.from(200, 1)
	f.Add(uint8(0), []byte(ops))

	f.Fuzz(func(t *testing.T, maxClients uint8, ops []byte) {
		var clock atomic.Int64
		read := make(chan struct{}, 1) // a reader took the clock for a reply
		p, err := New(Config{Upstream: upstream.LocalAddr().String(), MaxClients: int(maxClients % 9),
			Up:   sim.LinkConfig{Latency: sim.Latency{Base: 40 * time.Millisecond, Jitter: 20 * time.Millisecond}, Duplicate: 0.1},
			Down: sim.LinkConfig{Latency: sim.Latency{Base: 10 * time.Millisecond}, Loss: 0.1},
			Clock: func() time.Duration {
				select {
				case read <- struct{}{}:
				default:
				}
				return time.Duration(clock.Load())
			}})
		require.NoError(t, err)
		p.readers = new(errgroup.Group) // as Run sets it, for the client readers
		defer func() {
			p.Close()
			require.NoError(t, p.readers.Wait())
		}()
		m := &tableModel{t: t, p: p, live: map[int]*tableClient{}, byAddr: map[netip.AddrPort]int{}, owner: map[int]netip.AddrPort{}}
		buf := make([]byte, readBuffer)
		for n := 0; len(ops) > 0 && n < 512; n++ {
			op := ops[0]
			ops = ops[1:]
			arg := func() uint16 {
				var b [2]byte
				ops = ops[copy(b[:], ops):]
				return binary.LittleEndian.Uint16(b[:])
			}
			switch op & 3 {
			case 0:
				m.now += time.Duration(arg()) << (op >> 2 & 31)
			case 3:
				m.now += ClientIdle + time.Duration(int16(arg()))
			case 1:
				k := byte(arg())
				size := int(arg())
				clock.Store(int64(m.now))
				p.fromClient(clientAddr(k), buf[:size])
				m.fromClient(clientAddr(k), size)
			case 2:
				if op>>2&1 == 0 {
					m.deliver()
					break
				}
				ids := m.ids()
				j, size := arg(), int(arg()&0x7fff)
				if len(ids) == 0 {
					break
				}
				id := ids[int(j)%len(ids)]
				clock.Store(int64(m.now))
				select {
				case <-read:
				default:
				}
				if _, err := upstream.WriteToUDP(buf[:size], p.clients[id].conn.LocalAddr().(*net.UDPAddr)); err != nil {
					t.Fatal(err)
				}
				select {
				case <-read:
				case <-time.After(livenessLimit): // a watchdog: loopback does not lose a datagram
					t.Fatalf("client %d's reader did not read a reply within %v", id, livenessLimit)
				}
				p.mu.Lock() // the reader holds it until it has submitted the reply
				p.mu.Unlock()
				m.live[id].lastSeen = m.now
				m.down.add(size)
			}
			m.check()
		}
	})
}

// clientAddr returns the address of fuzzed client k: one of 64 ports on
// 127.0.0.1, or on ::1 when bit 7 of k is set.
func clientAddr(k byte) netip.AddrPort {
	ip := netip.AddrFrom4([4]byte{127, 0, 0, 1})
	if k&0x80 != 0 {
		ip = netip.IPv6Loopback()
	}
	return netip.AddrPortFrom(ip, 40000+uint16(k&63))
}

// tableOps builds FuzzClientTable operation sequences for seeds.
type tableOps []byte

func (o *tableOps) arg(v uint16) { *o = binary.LittleEndian.AppendUint16(*o, v) }

// advance moves the clock by d, rounded down to a multiple of a power of
// two nanoseconds.
func (o *tableOps) advance(d time.Duration) {
	shift := 0
	for d>>shift > 0xffff {
		shift++
	}
	*o = append(*o, byte(shift)<<2)
	o.arg(uint16(d >> shift))
}

// idle moves the clock by ClientIdle+delta.
func (o *tableOps) idle(delta int16) {
	*o = append(*o, 3)
	o.arg(uint16(delta))
}

// from sends a datagram of size bytes from client k.
func (o *tableOps) from(k byte, size uint16) {
	*o = append(*o, 1)
	o.arg(uint16(k))
	o.arg(size)
}

// reply sends a reply of size bytes to the j-th live client, by id.
func (o *tableOps) reply(j byte, size uint16) {
	*o = append(*o, 2|1<<2)
	o.arg(uint16(j))
	o.arg(size)
}

// deliver pops everything due, as the delivery loop does.
func (o *tableOps) deliver() { *o = append(*o, 2) }

// tableModel is the client table FuzzClientTable expects of a Proxy.
type tableModel struct {
	t       *testing.T
	p       *Proxy
	now     time.Duration
	live    map[int]*tableClient
	byAddr  map[netip.AddrPort]int
	owner   map[int]netip.AddrPort // the address each id was given
	next    int
	expired int
	refused Counter
	up      Counter // datagrams submitted Up
	down    Counter // and Down
}

type tableClient struct {
	addr     netip.AddrPort
	lastSeen time.Duration
}

// fromClient is what the handler of the listen socket should do with a
// datagram of size bytes from addr.
func (m *tableModel) fromClient(addr netip.AddrPort, size int) {
	id, ok := m.byAddr[addr]
	if !ok {
		if len(m.live) >= m.p.maxClients {
			oldest := -1
			for _, i := range m.ids() {
				if oldest < 0 || m.live[i].lastSeen < m.live[oldest].lastSeen {
					oldest = i
				}
			}
			if m.now-m.live[oldest].lastSeen < ClientIdle {
				m.refused.add(size)
				return
			}
			delete(m.byAddr, m.live[oldest].addr)
			delete(m.live, oldest)
			m.expired++
		}
		id = m.next
		m.next++
		m.live[id] = &tableClient{addr: addr}
		m.byAddr[addr] = id
		m.owner[id] = addr
	}
	m.live[id].lastSeen = m.now
	m.up.add(size)
}

// ids returns the live client ids in ascending order.
func (m *tableModel) ids() []int {
	ids := make([]int, 0, len(m.live))
	for id := range m.live {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// deliver pops everything due at the current time, as the delivery loop
// does, and checks whom each delivery would go to.
func (m *tableModel) deliver() {
	p := m.p
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		d, ok := p.sched.Pop(m.now)
		if !ok {
			return
		}
		c := p.clients[d.Client]
		if c != nil && c.addr != m.owner[d.Client] {
			m.t.Fatalf("delivery for client %d (%v) would go to %v", d.Client, m.owner[d.Client], c.addr)
		}
		if live := m.live[d.Client]; (c == nil) != (live == nil) {
			m.t.Fatalf("delivery for client %d: proxy has %v, want %v", d.Client, c, live)
		}
	}
}

// check compares the Proxy's client table and counters with the model's.
func (m *tableModel) check() {
	t, p := m.t, m.p
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case len(p.clients) > p.maxClients:
		t.Fatalf("%d clients, MaxClients %d", len(p.clients), p.maxClients)
	case len(p.byAddr) != len(p.clients):
		t.Fatalf("%d addresses for %d clients", len(p.byAddr), len(p.clients))
	case p.nextID != m.next || p.expired != m.expired || p.refused != m.refused:
		t.Fatalf("next id %d, expired %d, refused %+v; want %d, %d, %+v", p.nextID, p.expired, p.refused, m.next, m.expired, m.refused)
	case len(p.clients) != len(m.live):
		t.Fatalf("%d clients, want %d", len(p.clients), len(m.live))
	}
	for addr, id := range p.byAddr {
		if c := p.clients[id]; c == nil || c.addr != addr {
			t.Fatalf("address %v maps to client %d, which is %v", addr, id, c)
		}
	}
	for id, want := range m.live {
		c := p.clients[id]
		if c == nil || c.addr != want.addr || c.lastSeen != want.lastSeen {
			t.Fatalf("client %d: %+v, want %v last seen at %v", id, c, want.addr, want.lastSeen)
		}
	}
	if up, down := p.sched.Stats(Up).Received, p.sched.Stats(Down).Received; up != m.up || down != m.down {
		t.Fatalf("received up %+v, down %+v; want %+v, %+v", up, down, m.up, m.down)
	}
}
