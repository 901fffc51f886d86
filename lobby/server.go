package lobby

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Server is the signaling and matchmaking server: an http.Handler that
// serves WebSocket clients at /ws, liveness at /healthz and readiness at
// /readyz. Clients join a room by name and a match size; when size
// clients wait in a room, they become a match: each gets its seat
// (0..size-1, in the order they joined), the size and the match's secret
// token, the room is empty again for the next ones, and the members can
// relay signal messages (WebRTC offers, answers and ICE candidates) to
// each other by seat until they disconnect.
//
// Every client is held to bounds: one connection per member, messages of
// at most a few kilobytes, a rate limit, a time to join and an idle
// timeout, a bounded queue of messages to it (a client too slow to take
// them is dropped). Before a client has joined, nothing it sends makes
// the server answer with more bytes than it sent: a bad first message
// gets a WebSocket close whose reason is cut to the message's length.
// A Server is safe for concurrent use.
type Server struct {
	cfg Config

	mu       sync.Mutex
	conns    int
	draining bool
	rooms    map[string]*room
	stats    Stats
	// changed receives a value (without blocking) after the counters
	// change, for tests that wait for a state.
	changed chan struct{}
}

// Stats counts a Server's connections and matches; see Server.Stats.
type Stats struct {
	// Conns is the open WebSocket connections; Waiting, how many of them
	// wait in a room; Rooms, the rooms waiting to fill; Matches, the
	// matches with a member still connected.
	Conns, Waiting, Rooms, Matches int
	// MatchesMade counts the matches made since the server started.
	MatchesMade uint64
	// Refused counts connections refused before the upgrade (MaxConns
	// reached, or draining); Dropped, connections the server closed for a
	// protocol error, the rate limit, a timeout or a full queue.
	Refused, Dropped uint64
}

// room is a room's members waiting for it to fill.
type room struct {
	name    string
	size    int
	members []*member
}

// match is a filled room: members[seat], nil once that member has left.
type match struct {
	members []*member
	live    int
}

// member is one client's connection.
type member struct {
	s   *Server
	ws  *websocket.Conn
	out chan []byte // messages to the client; full means too slow
	// joined is set once the member's join is accepted.
	joined atomic.Bool
	// The fields below are guarded by s.mu.
	room  *room
	match *match
	seat  int
	gone  bool
}

// queueLen is how many messages a member's queue holds: the writer takes
// them as fast as the client reads, so it fills only for a client that
// does not read, while a set-up's offers and candidates come in bursts of
// a dozen from each other member.
const queueLen = 64

// writeTimeout bounds one write to a client; flushTimeout, the sending of
// what is queued to a client whose connection is ending (an error
// message, the others' last signals).
const (
	writeTimeout = 10 * time.Second
	flushTimeout = time.Second
)

// NewServer returns a Server with cfg's limits, or an error naming a
// negative field.
func NewServer(cfg Config) (*Server, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Server{cfg: c, rooms: make(map[string]*room), changed: make(chan struct{}, 1)}, nil
}

// notify signals s.changed; s.mu must be held.
func (s *Server) notify() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// Stats returns the server's counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Conns, st.Rooms = s.conns, len(s.rooms)
	return st
}

// Drain makes the server refuse new connections and report not ready, so
// that a load balancer moves new clients elsewhere; connected clients are
// served on. It cannot be undone.
func (s *Server) Drain() {
	s.mu.Lock()
	s.draining = true
	s.mu.Unlock()
}

// ServeHTTP routes a request: /ws, /healthz, /readyz, or Config.Files.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/ws":
		s.serveWS(w, r)
	case "/healthz":
		_, _ = w.Write([]byte("ok\n"))
	case "/readyz":
		s.mu.Lock()
		ready := !s.draining && s.conns < s.cfg.MaxConns
		s.mu.Unlock()
		if !ready {
			http.Error(w, "not ready", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	default:
		if s.cfg.Files == nil {
			http.NotFound(w, r)
			return
		}
		s.cfg.Files.ServeHTTP(w, r)
	}
}

// admit counts a new connection, or reports false when it must be refused.
func (s *Server) admit() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.draining || s.conns >= s.cfg.MaxConns {
		s.stats.Refused++
		return false
	}
	s.conns++
	s.notify()
	return true
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	if !s.admit() {
		http.Error(w, "server full", http.StatusServiceUnavailable)
		return
	}
	defer func() {
		s.mu.Lock()
		s.conns--
		s.notify()
		s.mu.Unlock()
	}()
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.OriginPatterns})
	if err != nil {
		return // Accept has answered the request
	}
	ws.SetReadLimit(maxMessage)
	m := &member{s: s, ws: ws, out: make(chan []byte, queueLen), seat: -1}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		m.write(ctx)
	}()
	code, reason := m.read(ctx)
	s.leave(m) // closes m.out: the writer sends what is queued, then returns
	stop := time.AfterFunc(flushTimeout, cancel)
	<-wrote
	stop.Stop()
	if code != websocket.StatusNormalClosure {
		s.mu.Lock()
		s.stats.Dropped++
		s.mu.Unlock()
	}
	_ = ws.Close(code, reason)
}

// write sends the member's queued messages until m.out is closed and
// empty, or a write fails or ctx ends.
func (m *member) write(ctx context.Context) {
	for p := range m.out {
		wctx, cancel := context.WithTimeout(ctx, writeTimeout)
		err := m.ws.Write(wctx, websocket.MessageText, p)
		cancel()
		if err != nil {
			_ = m.ws.CloseNow()
			return
		}
	}
}

// read serves the member's messages until the connection ends, and
// returns the close status and reason to send.
func (m *member) read(ctx context.Context) (websocket.StatusCode, string) {
	s := m.s
	lim := newLimiter(s.cfg.Rate, s.cfg.Burst)
	// The timeouts close the connection from a timer, with a reason: a
	// Read whose context expires would drop it without a close frame.
	var expired atomic.Bool
	timer := time.AfterFunc(s.cfg.JoinTimeout, func() {
		expired.Store(true)
		reason := "idle"
		if !m.joined.Load() {
			reason = "no join"
		}
		_ = m.ws.Close(websocket.StatusPolicyViolation, reason)
	})
	defer timer.Stop()
	for {
		typ, p, err := m.ws.Read(ctx)
		switch {
		case expired.Load():
			return websocket.StatusPolicyViolation, "" // the timer has closed it
		case err == nil:
			timer.Reset(s.cfg.IdleTimeout)
		case websocket.CloseStatus(err) != -1:
			return websocket.StatusNormalClosure, ""
		default:
			return websocket.StatusPolicyViolation, "" // broken, or over the read limit
		}
		if !lim.allow(time.Now()) {
			return m.refuse(p, "rate limit")
		}
		if typ != websocket.MessageText {
			return m.refuse(p, "not a text message")
		}
		msg, err := parseClient(p)
		if err != nil {
			return m.refuse(p, err.Error())
		}
		switch msg.Type {
		case typeJoin:
			if m.joined.Load() {
				return m.refuse(p, "second join")
			}
			if why := s.join(m, msg.Room, msg.Size); why != "" {
				return m.refuse(p, why)
			}
			m.joined.Store(true)
		case typeSignal:
			if !m.joined.Load() {
				return m.refuse(p, "signal before join")
			}
			if why := s.relay(m, *msg.To, msg.Data); why != "" {
				return m.refuse(p, why)
			}
		case typePing:
		}
	}
}

// refuse ends the member's connection for reason. A member that has not
// joined gets only the close frame, its reason cut to the length of what
// it sent; one that has gets an error message first.
func (m *member) refuse(got []byte, reason string) (websocket.StatusCode, string) {
	if !m.joined.Load() {
		return websocket.StatusPolicyViolation, truncate(reason, min(len(got), 120))
	}
	m.send(message{Type: typeError, Error: reason})
	return websocket.StatusPolicyViolation, truncate(reason, 120)
}

// send queues msg to the member, or closes the member's connection when
// its queue is full.
func (m *member) send(msg message) {
	p, err := json.Marshal(msg)
	if err != nil {
		panic("lobby: encoding a server message: " + err.Error()) // every field is JSON-safe
	}
	m.sendRaw(p)
}

func (m *member) sendRaw(p []byte) {
	select {
	case m.out <- p:
	default:
		_ = m.ws.CloseNow() // too slow: its read fails and it leaves
	}
}

// join puts m in the named room, making the match when the room fills. It
// returns why it refused, or "".
func (s *Server) join(m *member, name string, size int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.notify()
	r := s.rooms[name]
	if r == nil {
		if len(s.rooms) >= s.cfg.MaxRooms {
			return "too many rooms"
		}
		r = &room{name: name, size: size}
		s.rooms[name] = r
	}
	if r.size != size {
		return "room has another size"
	}
	r.members = append(r.members, m)
	m.room = r
	s.stats.Waiting++
	if len(r.members) < size {
		m.send(message{Type: typeQueued})
		return ""
	}
	delete(s.rooms, name)
	s.stats.Waiting -= size
	mt := &match{members: r.members, live: size}
	token := newToken()
	for i, x := range mt.members {
		x.room, x.match, x.seat = nil, mt, i
		x.send(message{Type: typeMatch, Seat: seat(i), Size: size, Token: formatToken(token)})
	}
	s.stats.Matches++
	s.stats.MatchesMade++
	return ""
}

// relay sends data to seat to of m's match. It returns why it refused, or
// "". A signal to a member that has left is dropped.
func (s *Server) relay(m *member, to int, data []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	mt := m.match
	switch {
	case mt == nil:
		return "signal before the match is made"
	case to >= len(mt.members) || to == m.seat:
		return "signal to a seat not of another member"
	}
	if x := mt.members[to]; x != nil {
		x.send(message{Type: typeSignal, From: seat(m.seat), Data: data})
	}
	return ""
}

// leave takes m out of its room or match.
func (s *Server) leave(m *member) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.notify()
	if m.gone {
		return
	}
	m.gone = true
	// Nothing sends to m after this: it is in no room and no match.
	defer close(m.out)
	if r := m.room; r != nil {
		for i, x := range r.members {
			if x == m {
				r.members = append(r.members[:i], r.members[i+1:]...)
				break
			}
		}
		s.stats.Waiting--
		if len(r.members) == 0 && s.rooms[r.name] == r {
			delete(s.rooms, r.name)
		}
		m.room = nil
	}
	if mt := m.match; mt != nil {
		mt.members[m.seat] = nil
		mt.live--
		if mt.live == 0 {
			s.stats.Matches--
		}
		for _, x := range mt.members {
			if x != nil {
				x.send(message{Type: typeLeft, Seat: seat(m.seat)})
			}
		}
	}
}

// newToken returns a random match secret that is not zero.
func newToken() uint64 {
	var b [8]byte
	for {
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
		if t := binary.LittleEndian.Uint64(b[:]); t != 0 {
			return t
		}
	}
}
