package webrtc

import (
	"context"

	pion "github.com/pion/webrtc/v4"

	"github.com/rollstep/rollstep/transport"
)

// channelID is the pre-negotiated data channel's stream id on every
// connection: both sides create it with the same id, so no DCEP
// DATA_CHANNEL_OPEN round trip (RFC 8832) is needed.
const channelID = 0

// run is the Conn's set-up goroutine: it opens a peer connection to
// every peer, then applies the peers' set-up messages until ctx ends or
// the Signaler fails.
func (c *Conn) run(ctx context.Context) {
	defer close(c.done)
	for _, p := range c.cfg.Peers {
		if ctx.Err() != nil {
			return
		}
		l := c.links[p] // the map is not written after New
		if err := c.open(l); err != nil {
			c.fail(l, reasonConnection, err)
		}
	}
	for {
		from, p, err := c.cfg.Signaler.Receive(ctx)
		if err != nil {
			if ctx.Err() == nil {
				c.mu.Lock()
				for _, l := range c.links {
					if l.state == Connecting {
						c.failLocked(l, reasonSignaling, err)
					}
				}
				c.mu.Unlock()
			}
			return
		}
		c.apply(from, p)
	}
}

// open creates l's peer connection and channel and, on the offering side,
// sends the offer. It runs on the set-up goroutine.
func (c *Conn) open(l *link) error {
	servers := make([]pion.ICEServer, len(c.cfg.ICEServers))
	for i, s := range c.cfg.ICEServers {
		servers[i] = pion.ICEServer{URLs: append([]string(nil), s.URLs...), Username: s.Username, Credential: s.Credential}
	}
	policy := pion.ICETransportPolicyAll
	if c.cfg.relayOnly {
		policy = pion.ICETransportPolicyRelay
	}
	pc, err := c.api.NewPeerConnection(pion.Configuration{ICEServers: servers, ICETransportPolicy: policy})
	if err != nil {
		return err
	}
	c.mu.Lock()
	if c.closed || l.state != Connecting { // closed or timed out meanwhile
		c.mu.Unlock()
		_ = pc.Close()
		return nil
	}
	l.pc = pc
	c.mu.Unlock()
	ordered, retransmits, negotiated, id := false, uint16(0), true, uint16(channelID)
	dc, err := pc.CreateDataChannel("rollstep", &pion.DataChannelInit{Ordered: &ordered, MaxRetransmits: &retransmits,
		Negotiated: &negotiated, ID: &id})
	if err != nil {
		return err
	}
	c.mu.Lock()
	l.dc = dc
	c.mu.Unlock()
	dc.OnOpen(func() { c.setState(l, Open) })
	dc.OnClose(func() { c.setState(l, Closed) })
	dc.OnMessage(func(m pion.DataChannelMessage) { c.deliver(l.addr, m.Data) })
	pc.OnICECandidate(func(cand *pion.ICECandidate) {
		c.gathered(l, cand)
		if cand == nil {
			return // gathering is complete
		}
		init := cand.ToJSON()
		_ = c.cfg.Signaler.Send(l.addr, encodeSetup(setup{Cand: &init})) // lost: ICE may still work
	})
	pc.OnConnectionStateChange(func(s pion.PeerConnectionState) {
		if s == pion.PeerConnectionStateFailed {
			reason := reasonConnection
			if pc.ICEConnectionState() == pion.ICEConnectionStateFailed {
				reason = reasonICE
			}
			c.fail(l, reason, nil)
		}
	})
	if !l.offerer {
		return nil
	}
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return err
	}
	if err := pc.SetLocalDescription(offer); err != nil {
		return err
	}
	if err := c.cfg.Signaler.Send(l.addr, encodeSetup(setup{Offer: &offer})); err != nil {
		c.fail(l, reasonSignaling, err)
	}
	return nil
}

// verdict is what apply does with a set-up message.
type verdict int

const (
	reject  verdict = iota // count it in BadSignals and ignore it
	ignore                 // ignore it: the link is over, or the Conn closed
	hold                   // keep the candidate until the remote description
	proceed                // apply it to the peer connection
)

// judge decides what to do with set-up message s from peer link l (nil
// for a stranger), which parseSetup returned with err; c.mu is held.
func (c *Conn) judge(l *link, s setup, err error) verdict {
	switch {
	case l == nil || err != nil:
		return reject
	case c.closed || l.pc == nil || (l.state != Connecting && l.state != Open):
		return ignore
	case s.Offer != nil: // the other side offers, once
		return verdictOf(!l.offerer && !l.remote)
	case s.Answer != nil: // to our offer, once
		return verdictOf(l.offerer && !l.remote)
	case l.cands >= maxCandidates:
		return reject
	}
	l.cands++
	if !l.remote {
		l.pending = append(l.pending, *s.Cand)
		return hold
	}
	return proceed
}

// verdictOf returns proceed if ok and reject otherwise.
func verdictOf(ok bool) verdict {
	if ok {
		return proceed
	}
	return reject
}

// apply applies one set-up message from peer from. It runs on the set-up
// goroutine only. A message that pion refuses (an SDP it cannot parse, a
// candidate it cannot use) is counted in BadSignals and changes nothing:
// a later, valid offer or answer still connects the peer.
func (c *Conn) apply(from transport.Addr, p []byte) {
	s, err := parseSetup(p)
	c.mu.Lock()
	l := c.links[from]
	v := c.judge(l, s, err)
	if v == reject {
		c.stats.BadSignals++
		c.notify()
	}
	c.mu.Unlock()
	if v != proceed {
		return
	}
	switch {
	case s.Offer != nil:
		if err := l.pc.SetRemoteDescription(*s.Offer); err != nil {
			c.bad()
			return
		}
		answer, err := l.pc.CreateAnswer(nil)
		if err == nil {
			err = l.pc.SetLocalDescription(answer)
		}
		if err == nil {
			err = c.cfg.Signaler.Send(from, encodeSetup(setup{Answer: &answer}))
		}
		c.described(l, err)
	case s.Answer != nil:
		if err := l.pc.SetRemoteDescription(*s.Answer); err != nil {
			c.bad()
			return
		}
		c.described(l, nil)
	case s.Cand != nil:
		if err := l.pc.AddICECandidate(*s.Cand); err != nil {
			c.bad()
		}
	}
}

// described records that l's remote description is set, or fails l with
// err, and adds the candidates that came before it.
func (c *Conn) described(l *link, err error) {
	if err != nil {
		c.fail(l, reasonSignaling, err)
		return
	}
	c.mu.Lock()
	l.remote = true
	pending := l.pending
	l.pending = nil
	c.mu.Unlock()
	for _, cand := range pending {
		if err := l.pc.AddICECandidate(cand); err != nil {
			c.bad()
		}
	}
}

// bad counts a bad signal.
func (c *Conn) bad() {
	c.mu.Lock()
	c.stats.BadSignals++
	c.notify()
	c.mu.Unlock()
}
