package wire

import (
	"encoding/binary"
	"strconv"
	"time"

	"github.com/rollstep/rollstep/core"
)

// HelloSize is the exact length of every Hello datagram: the Hello is
// padded with zeros to it. No packet that may answer an unvalidated Hello
// (HelloReply, Leave, KeepAlive) can be longer, so a reply never
// amplifies a spoofed Hello; TestAmplification checks every type's largest
// encoding against it.
const HelloSize = 96

// Hello opens a session. The sender repeats it until it gets a HelloReply
// that echoes Nonce.
type Hello struct {
	// Protocol is the sender's protocol version, normally Protocol.
	Protocol uint16
	// Nonce is a random number the caller draws for every handshake (this
	// package never reads a random source); the reply must echo it, which
	// proves the peer received this Hello at the address it came from.
	Nonce uint64
	// Config is the sender's match configuration.
	Config ConfigDigest
	// Seat names the sender's place in the match (the lowest player
	// handle it owns), so that a host that does not know the sender's
	// address can tell which of its peers it is; NoSeat (the zero value)
	// names none, as a spectator's Hello does.
	Seat Seat
	// Rejoin says the sender's process is new and asks to come back into
	// a running match in its seat: it holds no state of the match but
	// its seat and the token (see internal/endpoint, "Restarts").
	Rejoin bool
}

// helloRejoin is the Hello flags byte's Rejoin bit; the other bits are
// zero.
const helloRejoin = 0x01

// Seat names a peer's place in a match: the lowest player handle the peer
// owns. Unlike the address it arrives from, it tells a host which of
// several peers of unknown address a Hello belongs to (see
// internal/endpoint, "First contact"). The zero Seat, NoSeat, names no
// player; SeatOf makes the others, and Player reads them back. A Seat is
// one byte on the wire: 0 for NoSeat, else the player handle plus one
// (1..core.MaxPlayers); larger values are invalid.
type Seat uint8

// NoSeat is the zero Seat: the sender owns no player or does not say.
const NoSeat Seat = 0

// SeatOf returns the seat of a peer that owns players: that of the lowest
// handle. It returns NoSeat when players is empty or holds a handle
// outside 0..core.MaxPlayers-1.
func SeatOf(players ...core.PlayerHandle) Seat {
	lowest := core.PlayerHandle(core.MaxPlayers)
	for _, p := range players {
		if p < 0 || p >= core.MaxPlayers {
			return NoSeat
		}
		lowest = min(lowest, p)
	}
	if lowest == core.MaxPlayers {
		return NoSeat
	}
	return Seat(lowest + 1)
}

// Player returns the lowest player handle of the seat; ok is false for
// NoSeat and for an invalid Seat (above core.MaxPlayers).
func (s Seat) Player() (p core.PlayerHandle, ok bool) {
	if s == NoSeat || s > core.MaxPlayers {
		return 0, false
	}
	return core.PlayerHandle(s - 1), true
}

// String returns "none", "player N" or, for an invalid Seat, "invalid
// seat N".
func (s Seat) String() string {
	if s == NoSeat {
		return "none"
	}
	if p, ok := s.Player(); ok {
		return "player " + strconv.Itoa(int(p))
	}
	return "invalid seat " + strconv.Itoa(int(s))
}

// ReplyStatus is a HelloReply's verdict. The zero value, ReplyUnknown, has
// no encoding.
type ReplyStatus uint8

// The reply statuses.
const (
	// ReplyUnknown is the zero ReplyStatus; it is never sent.
	ReplyUnknown ReplyStatus = iota
	// ReplyAccept accepts the Hello.
	ReplyAccept
	// ReplyRefuseProtocol refuses a Hello of another protocol version.
	ReplyRefuseProtocol
	// ReplyRefuseConfig refuses a Hello whose configuration differs; the
	// receiver runs Compare on the reply's Config to name the field.
	ReplyRefuseConfig
	numReplyStatus
)

// HelloReply answers a Hello, accepting or refusing it. It carries the
// replier's own protocol and configuration so that both sides can report
// the same mismatch.
type HelloReply struct {
	// Status accepts or refuses the Hello.
	Status ReplyStatus
	// Protocol is the replier's protocol version.
	Protocol uint16
	// Nonce echoes the Hello's Nonce.
	Nonce uint64
	// Config is the replier's match configuration.
	Config ConfigDigest
	// Replier is the replier's nonce of a restart handshake, sent in
	// answer to a Rejoin Hello from a peer the replier had a session
	// with; 0 (sent as nothing) otherwise. The Hello's sender derives
	// the pair's direction keys from its own nonce and this one.
	Replier uint64
}

// KeepAlive keeps an idle session open and doubles as ping and pong. Its
// stamps mean what core.Message's stamps mean and travel the same way (whole
// microseconds, truncated toward zero; Stamp and EchoDelay must not be
// negative). Echo and EchoDelay are sent only when HasEcho is set;
// otherwise they decode as zero.
type KeepAlive struct {
	// Stamp is the sender's now when it sent the packet.
	Stamp time.Duration
	// Echo is the Stamp of the newest packet the sender received from the
	// receiver, and EchoDelay how long the sender held it; valid when
	// HasEcho.
	Echo, EchoDelay time.Duration
	// HasEcho says whether Echo and EchoDelay are valid.
	HasEcho bool
	// Lost says the sender dropped the receiver (to silence, or by its
	// other peers' agreement) and plays on without it: the packet is a
	// probe, and the receiver, which may still hear the sender (an outage
	// of one direction, a partial partition), learns that it was dropped.
	Lost bool
}

// LeaveReason is core.LeaveReason: why a peer leaves. The zero value,
// LeaveUnknown, has no encoding.
type LeaveReason = core.LeaveReason

// The leave reasons, core's.
const (
	LeaveUnknown core.LeaveReason = 0                 // the zero reason, never sent
	LeaveQuit                     = core.LeaveQuit    // the player quit
	LeaveTimeout                  = core.LeaveTimeout // the sender stopped hearing from the receiver
	LeaveDesync                   = core.LeaveDesync  // the sender detected a desync and ends the session
	LeaveRefused                  = core.LeaveRefused // the sender refuses the session (handshake failure)
	// LeaveEnded: the match ended at Frame (its first frame not played)
	// and the sender holds every input before it, as every peer holds the
	// sender's.
	LeaveEnded      = core.LeaveEnded
	numLeaveReasons = LeaveEnded + 1
)

// Leave says the sender leaves the match from its frame Frame on.
type Leave struct {
	// Reason says why.
	Reason LeaveReason
	// Frame is the sender's current frame.
	Frame core.Frame
}

// AppendHello appends h as a datagram of exactly HelloSize bytes, with the
// full sequence number seq, authenticated with key. It fails with an
// *EncodeError for an invalid Seat.
func AppendHello(dst []byte, key Key, seq uint64, h *Hello) ([]byte, error) {
	if h.Seat > core.MaxPlayers {
		return dst, &EncodeError{Field: "Seat", Reason: h.Seat.String()}
	}
	start := len(dst)
	dst = appendHeader(dst, TypeHello, 0, seq)
	dst = binary.LittleEndian.AppendUint16(dst, h.Protocol)
	dst = appendU64(dst, h.Nonce)
	dst = appendDigest(dst, &h.Config)
	dst = append(dst, byte(h.Seat))
	var flags byte
	if h.Rejoin {
		flags |= helloRejoin
	}
	dst = append(dst, flags)
	for len(dst)-start < HelloSize-TagSize {
		dst = append(dst, 0)
	}
	return appendTag(dst, key, seq, start), nil
}

// DecodeHello decodes datagram p, which must be a Hello authenticated with
// key, into *h. A Hello carries its full sequence number, so window (which
// may be nil) is not needed; it is taken for symmetry and never modified.
// On error *h is unchanged.
func DecodeHello(p []byte, key Key, window *ReplayWindow, h *Hello) (Header, error) {
	r := reader{b: p}
	hd, _ := r.expect(TypeHello, key, window)
	var v Hello
	v.Protocol = r.u16("protocol")
	v.Nonce = r.u64("nonce")
	r.digest(&v.Config)
	at := r.off
	v.Seat = Seat(r.byte1("seat"))
	if r.ok() && v.Seat > core.MaxPlayers {
		r.fail(at, "seat: out of range", ErrMalformed)
	}
	at = r.off
	flags := r.byte1("flags")
	if r.ok() && flags&^helloRejoin != 0 {
		r.fail(at, "flags: undefined bits", ErrMalformed)
	}
	v.Rejoin = flags&helloRejoin != 0
	if r.ok() {
		at = r.off
		for i, c := range r.bytes(HelloSize-TagSize-r.off, "padding") {
			if c != 0 {
				r.fail(at+i, "padding is not zero", ErrMalformed)
				break
			}
		}
	}
	r.end()
	if r.err != nil {
		return Header{}, r.err
	}
	*h = v
	return hd, nil
}

// AppendHelloReply appends r. It fails with an *EncodeError for an unknown
// Status.
func AppendHelloReply(dst []byte, key Key, seq uint64, r *HelloReply) ([]byte, error) {
	if r.Status == ReplyUnknown || r.Status >= numReplyStatus {
		return dst, &EncodeError{Field: "Status", Reason: "unknown status " + strconv.Itoa(int(r.Status))}
	}
	start := len(dst)
	var fl byte
	if r.Replier != 0 {
		fl = flagReplier
	}
	dst = appendHeader(dst, TypeHelloReply, fl, seq)
	dst = append(dst, byte(r.Status))
	dst = binary.LittleEndian.AppendUint16(dst, r.Protocol)
	dst = appendU64(dst, r.Nonce)
	dst = appendDigest(dst, &r.Config)
	if r.Replier != 0 {
		dst = appendU64(dst, r.Replier)
	}
	return appendTag(dst, key, seq, start), nil
}

// DecodeHelloReply decodes datagram p, which must be a HelloReply
// authenticated with key, into *hr. Like a Hello it carries its full
// sequence number, so window may be nil. On error *hr is unchanged.
func DecodeHelloReply(p []byte, key Key, window *ReplayWindow, hr *HelloReply) (Header, error) {
	r := reader{b: p}
	hd, _ := r.expect(TypeHelloReply, key, window)
	var v HelloReply
	at := r.off
	v.Status = ReplyStatus(r.byte1("status"))
	if r.ok() && (v.Status == ReplyUnknown || v.Status >= numReplyStatus) {
		r.fail(at, "unknown status", ErrMalformed)
	}
	v.Protocol = r.u16("protocol")
	v.Nonce = r.u64("nonce")
	r.digest(&v.Config)
	if hd.Flags&flagReplier != 0 {
		at = r.off
		if v.Replier = r.u64("replier"); r.ok() && v.Replier == 0 {
			r.fail(at, "replier nonce is zero", ErrMalformed)
		}
	}
	r.end()
	if r.err != nil {
		return Header{}, r.err
	}
	*hr = v
	return hd, nil
}

// AppendKeepAlive appends k. It fails with an *EncodeError if Stamp, or
// EchoDelay when HasEcho, is negative.
func AppendKeepAlive(dst []byte, key Key, seq uint64, k *KeepAlive) ([]byte, error) {
	if err := checkStamps(k.Stamp, k.EchoDelay, k.HasEcho); err != nil {
		return dst, err
	}
	var fl byte
	if k.HasEcho {
		fl = flagEcho
	}
	if k.Lost {
		fl |= flagLost
	}
	start := len(dst)
	dst = appendHeader(dst, TypeKeepAlive, fl, seq)
	dst = appendStamps(dst, k.Stamp, k.Echo, k.EchoDelay, k.HasEcho)
	return appendTag(dst, key, seq, start), nil
}

// DecodeKeepAlive decodes datagram p, which must be a KeepAlive
// authenticated with key whose sequence number window expands (see
// ParseHeader), into *k. On error *k is unchanged.
func DecodeKeepAlive(p []byte, key Key, window *ReplayWindow, k *KeepAlive) (Header, error) {
	r := reader{b: p}
	hd, _ := r.expect(TypeKeepAlive, key, window)
	var v KeepAlive
	v.HasEcho, v.Lost = hd.Flags&flagEcho != 0, hd.Flags&flagLost != 0
	v.Stamp, v.Echo, v.EchoDelay = r.stamps(v.HasEcho)
	r.end()
	if r.err != nil {
		return Header{}, r.err
	}
	*k = v
	return hd, nil
}

// AppendLeave appends l. It fails with an *EncodeError for an unknown
// Reason or a negative Frame.
func AppendLeave(dst []byte, key Key, seq uint64, l *Leave) ([]byte, error) {
	if l.Reason == LeaveUnknown || l.Reason >= numLeaveReasons {
		return dst, &EncodeError{Field: "Reason", Reason: "unknown reason " + strconv.Itoa(int(l.Reason))}
	}
	if l.Frame < 0 {
		return dst, &EncodeError{Field: "Frame", Reason: "negative frame"}
	}
	start := len(dst)
	dst = appendHeader(dst, TypeLeave, 0, seq)
	dst = append(dst, byte(l.Reason))
	dst = binary.AppendUvarint(dst, uint64(l.Frame))
	return appendTag(dst, key, seq, start), nil
}

// DecodeLeave decodes datagram p, which must be a Leave authenticated with
// key whose sequence number window expands, into *l. On error *l is
// unchanged.
func DecodeLeave(p []byte, key Key, window *ReplayWindow, l *Leave) (Header, error) {
	r := reader{b: p}
	hd, _ := r.expect(TypeLeave, key, window)
	var v Leave
	at := r.off
	v.Reason = LeaveReason(r.byte1("reason"))
	if r.ok() && (v.Reason == LeaveUnknown || v.Reason >= numLeaveReasons) {
		r.fail(at, "unknown reason", ErrMalformed)
	}
	v.Frame = r.frame("frame")
	r.end()
	if r.err != nil {
		return Header{}, r.err
	}
	*l = v
	return hd, nil
}

// appendStamps appends a stamp and, when hasEcho is set, the echo relative
// to the stamp and the echo delay, all in whole microseconds. Peers that
// start their clocks at about the same time have Echo close to Stamp, so
// the relative form is shorter.
func appendStamps(b []byte, stamp, echo, delay time.Duration, hasEcho bool) []byte {
	b = appendDur(b, stamp)
	if hasEcho {
		b = appendVarint(b, int64(echo/time.Microsecond)-int64(stamp/time.Microsecond))
		b = appendDur(b, delay)
	}
	return b
}

// checkStamps returns an *EncodeError if Stamp, or EchoDelay when sent, is
// negative.
func checkStamps(stamp, delay time.Duration, hasEcho bool) error {
	if stamp < 0 {
		return &EncodeError{Field: "Stamp", Reason: "negative duration"}
	}
	if hasEcho && delay < 0 {
		return &EncodeError{Field: "EchoDelay", Reason: "negative duration"}
	}
	return nil
}

// stamps reads what appendStamps wrote.
func (r *reader) stamps(hasEcho bool) (stamp, echo, delay time.Duration) {
	stamp = r.dur("stamp")
	if !hasEcho {
		return stamp, 0, 0
	}
	echo, delay = r.echo(stamp)
	if !r.ok() {
		return 0, 0, 0
	}
	return stamp, echo, delay
}

// echo reads Echo - stamp and EchoDelay.
func (r *reader) echo(stamp time.Duration) (echo, delay time.Duration) {
	at := r.off
	d := r.varint("echo")
	e := int64(stamp/time.Microsecond) + d
	if r.ok() && (d > 2*maxMicros || d < -2*maxMicros || e > maxMicros || e < -maxMicros) {
		r.fail(at, "echo: duration out of range", ErrMalformed)
	}
	delay = r.dur("echo delay")
	return time.Duration(e) * time.Microsecond, delay
}

// appendTiming appends an Input packet's timing: Stamp in microseconds
// shifted left by one with bit 0 set when an echo follows (uvarint), then,
// with an echo, Echo - Stamp (varint µs) and EchoDelay (uvarint µs).
func appendTiming(b []byte, stamp, echo, delay time.Duration, hasEcho bool) []byte {
	v := uint64(stamp/time.Microsecond) << 1
	if hasEcho {
		v |= 1
	}
	b = binary.AppendUvarint(b, v)
	if hasEcho {
		b = appendVarint(b, int64(echo/time.Microsecond)-int64(stamp/time.Microsecond))
		b = appendDur(b, delay)
	}
	return b
}

// timing reads what appendTiming wrote.
func (r *reader) timing() (stamp, echo, delay time.Duration, hasEcho bool) {
	at := r.off
	v := r.uvarint("stamp")
	if r.ok() && v>>1 > uint64(maxMicros) {
		r.fail(at, "stamp: duration out of range", ErrMalformed)
	}
	if !r.ok() {
		return 0, 0, 0, false
	}
	stamp = time.Duration(v>>1) * time.Microsecond
	if v&1 == 0 {
		return stamp, 0, 0, false
	}
	echo, delay = r.echo(stamp)
	if !r.ok() {
		return 0, 0, 0, false
	}
	return stamp, echo, delay, true
}
