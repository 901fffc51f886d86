package lobby

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// The messages of the lobby protocol: one JSON object per WebSocket text
// message, told apart by "type". A client sends join first, then signal
// and ping; the server sends queued, match, signal, left and error.
const (
	typeJoin   = "join"   // client: {"type":"join","room":R,"size":N}
	typePing   = "ping"   // client: {"type":"ping"}, keeps an idle member alive
	typeSignal = "signal" // client: {"to":SEAT,"data":B64}; server: {"from":SEAT,"data":B64}
	typeQueued = "queued" // server: the join was accepted; waiting for the room to fill
	typeMatch  = "match"  // server: {"seat":I,"size":N,"token":HEX}, the room filled
	typeLeft   = "left"   // server: {"seat":J}, a member of the match is gone
	typeError  = "error"  // server: {"error":TEXT}, then the server closes
)

// message is every field of every message type; each type uses some.
type message struct {
	Type  string `json:"type"`
	Room  string `json:"room,omitempty"`
	Size  int    `json:"size,omitempty"`
	Seat  *int   `json:"seat,omitempty"`
	To    *int   `json:"to,omitempty"`
	From  *int   `json:"from,omitempty"`
	Data  []byte `json:"data,omitempty"`
	Token string `json:"token,omitempty"`
	Error string `json:"error,omitempty"`
}

// maxRoomName is the longest room name, in bytes. A name is 1 to
// maxRoomName bytes of ASCII letters, digits, '.', '_' and '-'.
const maxRoomName = 64

// maxSize is the largest match a room makes: rollstep's most players.
const maxSize = 16

// MaxSignal is the largest payload of one signal message, in bytes: an SDP
// offer with its ICE candidates is a few kilobytes.
const MaxSignal = 16 << 10

// maxMessage bounds one WebSocket message: a signal's payload in base64,
// and the JSON around it.
const maxMessage = MaxSignal*4/3 + 256

// errProtocol is the cause of every malformed client message.
var errProtocol = errors.New("lobby: protocol error")

// parseClient decodes and checks one message from a client. It returns an
// error wrapping errProtocol that says what is wrong with the message.
func parseClient(p []byte) (message, error) {
	var m message
	if len(p) > maxMessage {
		return m, fmt.Errorf("%w: message of %d bytes, over %d", errProtocol, len(p), maxMessage)
	}
	if err := json.Unmarshal(p, &m); err != nil {
		return m, fmt.Errorf("%w: not a JSON message object", errProtocol)
	}
	switch m.Type {
	case typeJoin:
		if err := checkRoom(m.Room); err != nil {
			return m, err
		}
		if m.Size < 2 || m.Size > maxSize {
			return m, fmt.Errorf("%w: size %d is outside 2..%d", errProtocol, m.Size, maxSize)
		}
	case typeSignal:
		if m.To == nil || *m.To < 0 || *m.To >= maxSize {
			return m, fmt.Errorf("%w: signal without a seat 0..%d to send to", errProtocol, maxSize-1)
		}
		if len(m.Data) > MaxSignal {
			return m, fmt.Errorf("%w: signal of %d bytes, over %d", errProtocol, len(m.Data), MaxSignal)
		}
	case typePing:
	default:
		return m, fmt.Errorf("%w: unknown message type %s", errProtocol, strconv.QuoteToASCII(truncate(m.Type, 16)))
	}
	return m, nil
}

// checkRoom returns an error wrapping errProtocol unless name is a valid
// room name.
func checkRoom(name string) error {
	if len(name) == 0 || len(name) > maxRoomName {
		return fmt.Errorf("%w: room name of %d bytes is outside 1..%d", errProtocol, len(name), maxRoomName)
	}
	for i := range len(name) {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("%w: room name has byte %#x at %d; use letters, digits, '.', '_' and '-'", errProtocol, c, i)
		}
	}
	return nil
}

// truncate cuts s to at most n bytes.
func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// formatToken and parseToken carry the 64-bit match secret as 16 hex
// digits: a JSON number loses bits past 2^53 in a browser.
func formatToken(t uint64) string { return fmt.Sprintf("%016x", t) }

func parseToken(s string) (uint64, error) {
	t, err := strconv.ParseUint(s, 16, 64)
	if len(s) != 16 || err != nil {
		return 0, fmt.Errorf("%w: token %q is not 16 hex digits", errProtocol, truncate(s, 32))
	}
	return t, nil
}

// seat returns a pointer to i, for the message fields that hold seats.
func seat(i int) *int { return &i }
