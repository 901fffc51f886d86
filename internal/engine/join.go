package engine

import (
	"encoding/binary"
	"math/bits"
	"strconv"

	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/internal/arena"
)

// A join record is what the engine of a spectator that joins a running
// match starts from: the sponsor's confirmed state before frame S and
// what the spectator must know at S. The spectator's engine holds no
// local player, so there is no return and no replay: it starts at S and
// takes the confirmed inputs from S on. The layout, little-endian:
//
//	0   1  joinVersion
//	1   1  players
//	2   4  S
//	6   8  the checksum of the state before S
//	14  2  the players agreed disconnected at or before S
//	16  4 per player in that mask: its disconnect frame, in handle order
//	..  the canonical bytes of the state before S (SnapshotSize of them)
//
// It is bytes from the network to the spectator: Join checks every field
// and the state's checksum and returns an error wrapping ErrBadHandoff for
// anything wrong, never a partial engine.

const (
	joinVersion = 1
	joinHeader  = 16
)

// JoinRecord appends the join record of the newest frame S before which
// everything is confirmed to dst, and returns S. It returns ErrNoSnapshot
// when that state is not held (before frame 1 is confirmed, say) or while
// a player's return is in progress; a later call may succeed.
func (e *Engine[S, I]) JoinRecord(dst []byte) (core.Frame, []byte, error) {
	s := e.checked
	st, ok := e.heldStateAfter(s - 1)
	if s < 1 || !ok || e.unsettled != 0 {
		return 0, dst, ErrNoSnapshot
	}
	dst = append(dst, joinVersion, byte(e.players))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(s))
	dst = binary.LittleEndian.AppendUint64(dst, checksumOf(st))
	var gone uint16
	for p := 0; p < e.players; p++ {
		if e.agreed[p] && e.goneAt[p] <= s {
			gone |= 1 << p
		}
	}
	dst = binary.LittleEndian.AppendUint16(dst, gone)
	for g := gone; g != 0; g &= g - 1 {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(e.goneAt[bits.TrailingZeros16(g)]))
	}
	return s, arena.AppendRaw(dst, st), nil
}

// JoinRecordSize returns the largest join record of e's match.
func (e *Engine[S, I]) JoinRecordSize() int { return joinHeader + 4*e.players + e.SnapshotSize() }

// Join returns the engine of a spectator that joins a running match at
// the frame of rec, a JoinRecord: cfg is the spectator's configuration
// (no local players). The engine holds no slot before that frame; the
// players of the record are agreed disconnected. A record that is
// malformed, does not fit cfg or whose state does not match its checksum
// returns an error matching ErrBadHandoff.
func Join[S any, I comparable](cfg Config, game core.Game[S, I], rec []byte) (*Engine[S, I], error) {
	var zero S
	e, err := NewEngine(cfg, game, &zero)
	if err != nil {
		return nil, err
	}
	if e.localMask != 0 || e.cfg.SyncTest > 0 {
		return nil, &ConfigError{Field: "Local", Reason: "a spectator's engine has no local players"}
	}
	h, state, err := e.parseJoin(rec)
	if err != nil {
		return nil, err
	}
	if err := arena.DecodeRaw(state, &e.cur); err != nil {
		return nil, badHandoff("state: " + err.Error())
	}
	if checksumOf(&e.cur) != h.sum {
		return nil, badHandoff("the state does not match its checksum")
	}
	e.start(h)
	return e, nil
}

// parseJoin decodes and checks the join record b against e's
// configuration, returning it as a handoff record at its frame and the
// state's bytes.
func (e *Engine[S, I]) parseJoin(b []byte) (handoffRecord, []byte, error) {
	var h handoffRecord
	if len(b) < joinHeader {
		return h, nil, badHandoff("join record of " + strconv.Itoa(len(b)) + " bytes is shorter than its header")
	}
	if b[0] != joinVersion {
		return h, nil, badHandoff("join record version", int(b[0]))
	}
	if int(b[1]) != e.players {
		return h, nil, badHandoff("players", int(b[1]))
	}
	frame := func(at int) core.Frame { return core.Frame(int32(binary.LittleEndian.Uint32(b[at:]))) }
	h.s = frame(2)
	h.c, h.r = h.s, h.s
	h.sum = binary.LittleEndian.Uint64(b[6:])
	h.gone = binary.LittleEndian.Uint16(b[14:])
	if h.s < 1 {
		return h, nil, badHandoff("frame", int(h.s))
	}
	if h.gone>>uint(e.players) != 0 {
		return h, nil, badHandoff("disconnected mask", int(h.gone))
	}
	at := joinHeader
	for g := h.gone; g != 0; g &= g - 1 {
		if len(b) < at+4 {
			return h, nil, badHandoff("join record truncated in the disconnect frames")
		}
		f := frame(at)
		if f < 0 || f > h.s {
			return h, nil, badHandoff("disconnect frame", int(f))
		}
		h.goneAt[bits.TrailingZeros16(g)] = f
		at += 4
	}
	if len(b)-at != e.SnapshotSize() {
		return h, nil, badHandoff("state of " + strconv.Itoa(len(b)-at) + " bytes, not " + strconv.Itoa(e.SnapshotSize()))
	}
	return h, b[at:], nil
}
