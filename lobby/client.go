package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/rollstep/rollstep/transport"
)

// ErrRefused matches the error Join returns when the server refused the
// join or ended the connection before the match was made; the error's
// text gives the server's reason.
var ErrRefused = errors.New("lobby: refused")

// ErrClosed matches the errors of a Match's methods after Close, or after
// the server's connection has ended.
var ErrClosed = errors.New("lobby: connection closed")

// pingEvery is how often a Match pings the server to stay within the
// default IdleTimeout.
const pingEvery = defaultIdleTimeout / 3

// Match is a client's place in a match made by a Server: its seat, the
// match's size and secret, and the signaling channel to the other members,
// whose seats are their transport.Addr values. It is a Signaler for
// transport/webrtc. Its methods are safe for concurrent use.
type Match struct {
	// Seat is this member's seat, 0..Size-1, in the order the members
	// joined; Size is the number of members.
	Seat, Size int
	// Token is the match's secret, the same for every member: use it as
	// transport.Config.Token.
	Token uint64

	ws     *websocket.Conn
	in     chan signal
	done   chan struct{} // closed when the connection ends
	cancel context.CancelFunc

	mu     sync.Mutex
	closed bool   // Close was called
	err    error  // why the connection ended, if not Close
	left   []bool // left[seat]: that member has left
	// leftSeen receives a value (without blocking) when a member leaves,
	// for tests that wait for it.
	leftSeen chan struct{}
}

// signal is a relayed message from another member.
type signal struct {
	from int
	data []byte
}

// Join connects to the server at url (ws:// or wss://, such as
// "wss://lobby.example.com/ws"), joins room to make a match of size
// members, and waits until the room fills or ctx ends. Over ws:// the
// match's secret crosses the network in clear: use wss:// beyond a test.
// A refusal by the server matches ErrRefused.
func Join(ctx context.Context, url, room string, size int) (*Match, error) {
	if err := checkRoom(room); err != nil {
		return nil, err
	}
	if size < 2 || size > maxSize {
		return nil, fmt.Errorf("%w: size %d is outside 2..%d", errProtocol, size, maxSize)
	}
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, fmt.Errorf("lobby: connecting to %s: %w", url, err)
	}
	ws.SetReadLimit(maxMessage)
	fail := func(err error) (*Match, error) {
		_ = ws.CloseNow()
		return nil, err
	}
	join, _ := json.Marshal(message{Type: typeJoin, Room: room, Size: size})
	if err := ws.Write(ctx, websocket.MessageText, join); err != nil {
		return fail(fmt.Errorf("lobby: joining: %w", err))
	}
	for {
		msg, err := readServer(ctx, ws)
		if err != nil {
			return fail(err)
		}
		switch msg.Type {
		case typeQueued:
			continue
		case typeMatch:
		default:
			return fail(fmt.Errorf("%w: unexpected %q message before the match", errProtocol, truncate(msg.Type, 16)))
		}
		token, err := parseToken(msg.Token)
		switch {
		case err != nil:
			return fail(err)
		case msg.Size != size || msg.Seat == nil || *msg.Seat < 0 || *msg.Seat >= size:
			return fail(fmt.Errorf("%w: match of size %d, seat %v, for a join of size %d", errProtocol, msg.Size, msg.Seat, size))
		}
		mctx, cancel := context.WithCancel(context.Background())
		m := &Match{Seat: *msg.Seat, Size: size, Token: token, ws: ws, in: make(chan signal, queueLen),
			done: make(chan struct{}), cancel: cancel, left: make([]bool, size), leftSeen: make(chan struct{}, 1)}
		go m.read(mctx)
		go m.ping(mctx)
		return m, nil
	}
}

// readServer reads one server message; an error message or a close
// becomes an error matching ErrRefused.
func readServer(ctx context.Context, ws *websocket.Conn) (message, error) {
	var msg message
	_, p, err := ws.Read(ctx)
	if err != nil {
		var ce websocket.CloseError
		if errors.As(err, &ce) {
			return msg, fmt.Errorf("%w: %s", ErrRefused, closeText(ce))
		}
		return msg, fmt.Errorf("lobby: reading: %w", err)
	}
	if err := json.Unmarshal(p, &msg); err != nil {
		return msg, fmt.Errorf("%w: the server sent a message that is not JSON", errProtocol)
	}
	if msg.Type == typeError {
		return msg, fmt.Errorf("%w: %s", ErrRefused, truncate(msg.Error, 200))
	}
	return msg, nil
}

func closeText(ce websocket.CloseError) string {
	if ce.Reason == "" {
		return ce.Code.String()
	}
	return truncate(ce.Reason, 123)
}

// read takes the server's messages until the connection ends.
func (m *Match) read(ctx context.Context) {
	defer close(m.done)
	for {
		msg, err := readServer(ctx, m.ws)
		if err != nil {
			m.mu.Lock()
			m.err = err
			m.mu.Unlock()
			return
		}
		if ctx.Err() != nil {
			return
		}
		switch msg.Type {
		case typeSignal:
			if msg.From == nil || *msg.From < 0 || *msg.From >= m.Size || *msg.From == m.Seat {
				continue // not from another member: ignore
			}
			select {
			case m.in <- signal{from: *msg.From, data: msg.Data}:
			default: // the game is not taking its signals: drop, as a datagram
			}
		case typeLeft:
			if msg.Seat != nil && *msg.Seat >= 0 && *msg.Seat < m.Size {
				m.mu.Lock()
				m.left[*msg.Seat] = true
				m.mu.Unlock()
				select {
				case m.leftSeen <- struct{}{}:
				default:
				}
			}
		}
	}
}

// ping keeps the connection within the server's idle timeout.
func (m *Match) ping(ctx context.Context) {
	p, _ := json.Marshal(message{Type: typePing})
	t := time.NewTicker(pingEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = m.ws.Write(ctx, websocket.MessageText, p)
		}
	}
}

// Peers returns the other members' seats as transport addresses.
func (m *Match) Peers() []transport.Addr {
	ps := make([]transport.Addr, 0, m.Size-1)
	for i := range m.Size {
		if i != m.Seat {
			ps = append(ps, transport.Addr(i))
		}
	}
	return ps
}

// Left reports whether the member at seat has disconnected from the
// server. A member that has left may still be playing: the server only
// carries the set-up.
func (m *Match) Left(seat int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return seat >= 0 && seat < m.Size && m.left[seat]
}

// Send relays payload, at most MaxSignal bytes, to the member at seat to.
func (m *Match) Send(to transport.Addr, payload []byte) error {
	if int64(to) >= int64(m.Size) || int(to) == m.Seat {
		return fmt.Errorf("%w %d: not another member's seat", transport.ErrUnknownPeer, to)
	}
	if len(payload) > MaxSignal {
		return fmt.Errorf("lobby: signal of %d bytes, over %d", len(payload), MaxSignal)
	}
	if err := m.closedErr(); err != nil {
		return err
	}
	p, _ := json.Marshal(message{Type: typeSignal, To: seat(int(to)), Data: payload})
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	if err := m.ws.Write(ctx, websocket.MessageText, p); err != nil {
		return fmt.Errorf("%w: %w", ErrClosed, err)
	}
	return nil
}

// Receive returns the next signal from another member, waiting until one
// arrives, the connection ends (an error matching ErrClosed) or ctx ends.
func (m *Match) Receive(ctx context.Context) (from transport.Addr, payload []byte, err error) {
	select {
	case s := <-m.in:
		return transport.Addr(s.from), s.data, nil
	default:
	}
	select {
	case s := <-m.in:
		return transport.Addr(s.from), s.data, nil
	case <-m.done:
		return 0, nil, m.closedErr()
	case <-ctx.Done():
		return 0, nil, ctx.Err()
	}
}

// closedErr returns an error matching ErrClosed once the connection has
// ended, with why, and nil before.
func (m *Match) closedErr() error {
	select {
	case <-m.done:
	default:
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || m.err == nil {
		return ErrClosed
	}
	return fmt.Errorf("%w: %w", ErrClosed, m.err)
}

// Close leaves the match: the server tells the others. Later calls return
// an error matching ErrClosed.
func (m *Match) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ErrClosed
	}
	m.closed = true
	m.mu.Unlock()
	_ = m.ws.Close(websocket.StatusNormalClosure, "") // fails only if the server has gone already
	m.cancel()
	<-m.done
	return nil
}
