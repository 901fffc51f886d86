package skirmish

import (
	"github.com/rollstep/rollstep/core"
	"github.com/rollstep/rollstep/examples/rts"
)

// buildOrder returns the commands that give the order kind at world
// point (x, y) to every group of sel, in ascending group order: one
// rts.Command names one group, so an order to n groups is n commands.
func buildOrder(sel Selection, kind rts.Kind, x, y int16) []rts.Command {
	var out []rts.Command
	for _, g := range sel.Groups() {
		out = append(out, rts.Command{Kind: kind, Group: g, X: x, Y: y})
	}
	return out
}

// orderKind chooses the order a right click at world point (x, y) gives:
// rts.KindAttack when attackMove is held (an attack-move) or when an
// enemy of player stands within rts.PickRadius of the point (the game
// then designates it), rts.KindMove otherwise.
func orderKind(s *rts.State, player int, x, y float64, attackMove bool) rts.Kind {
	if attackMove {
		return rts.KindAttack
	}
	enemy := func(owner int) bool { return owner != player }
	if _, ok := nearestUnit(s, x, y, rts.PickRadius.Float64(), enemy); ok {
		return rts.KindAttack
	}
	return rts.KindMove
}

// Outbox holds the human's orders between the mouse and the session. The
// session takes one command per turn, so an order to many groups leaves
// over several turns; a newer order to a group replaces its older one if
// that has not left yet.
type Outbox struct {
	waiting []uint8                 // groups with a command not yet given, oldest first
	latest  [rts.Groups]rts.Command // the command waiting for each group
	sent    []SentOrder             // commands given to the session, oldest first
}

// SentOrder is a command given to the session at a frame, which the
// simulation applies at frame Due (the frame it was scheduled for: the
// frame of AddLocalInput plus the input delay D).
type SentOrder struct {
	Cmd rts.Command
	Due core.Frame
}

// Add queues cmds, replacing any waiting command of the same group.
func (o *Outbox) Add(cmds []rts.Command) {
	for _, c := range cmds {
		g := c.Group % rts.Groups
		if o.latest[g].Kind == rts.KindNone {
			o.waiting = append(o.waiting, g)
		}
		o.latest[g] = c
	}
}

// next removes and returns the oldest waiting command, and records it as
// sent at frame with input delay delay; ok is false when none waits.
func (o *Outbox) next(frame core.Frame, delay int) (rts.Command, bool) {
	if len(o.waiting) == 0 {
		return rts.Command{}, false
	}
	g := o.waiting[0]
	o.waiting = o.waiting[1:]
	c := o.latest[g]
	o.latest[g] = rts.Command{}
	o.sent = append(o.sent, SentOrder{Cmd: c, Due: frame + core.Frame(delay)})
	return c, true
}

// Queued returns the commands waiting to leave, oldest first.
func (o *Outbox) Queued() []rts.Command {
	out := make([]rts.Command, len(o.waiting))
	for i, g := range o.waiting {
		out[i] = o.latest[g]
	}
	return out
}

// forgetApplied forgets the sent commands the simulation has applied by
// tick (the state after frames 0 to tick−1), keeping the orders in
// flight: given to the session but not yet carried out.
func (o *Outbox) forgetApplied(tick int32) {
	keep := o.sent[:0]
	for _, s := range o.sent {
		if s.Due >= core.Frame(tick) {
			keep = append(keep, s)
		}
	}
	o.sent = keep
}

// InFlight returns the orders in flight, oldest first.
func (o *Outbox) InFlight() []SentOrder { return o.sent }
