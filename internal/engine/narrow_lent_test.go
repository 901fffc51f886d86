package engine

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rollstep/rollstep/core"
)

// lentPeer is one querier of TestNarrowLentBound: its engine searches its
// state after frame against the answerer's.
type lentPeer struct {
	q     *Engine[mixState, testInput]
	frame core.Frame
	want  []string
}

// newLentPeer returns a querier whose state after f differs from base in
// the Pts[k*700+j*97].C fields, j < 3.
func newLentPeer(t *testing.T, f core.Frame, k int, base mixState) *lentPeer {
	c := DefaultConfig()
	c.Prediction, c.MaxPrediction, c.SnapshotRetention = 0, 0, 1
	q, err := NewEngine[mixState, testInput](c, nopGame[mixState]{}, new(mixState))
	if err != nil {
		t.Fatal(err)
	}
	st := base
	p := &lentPeer{q: q, frame: f}
	for j := range 3 {
		st.Pts[k*700+j*97].C++
		p.want = append(p.want, fmt.Sprintf("Pts[%d].C", k*700+j*97))
	}
	q.startHunt(0, f, &world[mixState]{Game: st})
	return p
}

// ask sends the querier's pending queries to the answerer as peer id and
// hands it the answerer's answers.
func (p *lentPeer) ask(a *Engine[mixState, testInput], id core.PeerID) {
	h := &p.q.peers[0].hunt
	if !h.active {
		return
	}
	for _, pq := range slices.Clone(h.pend[:h.npend]) {
		a.answerQuery(id, &BlockReport{Frame: p.frame, Offset: pq.off, Length: pq.n, BlockSize: blockSizeFor(pq.n), Hashes: pq.hashes})
	}
	for _, x := range slices.Clone(a.peers[id].answers) {
		p.q.huntAnswer(0, &x.BlockAnswer)
	}
}

// result returns the querier's DesyncFieldsEvent, if its search ended.
func (p *lentPeer) result() (core.DesyncFieldsEvent, bool) {
	for _, ev := range p.q.events {
		if f, ok := ev.(core.DesyncFieldsEvent); ok {
			return f, true
		}
	}
	return core.DesyncFieldsEvent{}, false
}

// An answerer keeps a copy of a state it answered from its retained
// snapshots for the rest of the peer's search, shares it between peers
// searching the same frame, holds at most maxLent copies whatever the
// number of peers (a query for another frame is answered from the
// snapshots, as without copies), and releases each copy when the peer's
// search ends or the peer is declared gone.
func TestNarrowLentBound(t *testing.T) {
	c := DefaultConfig()
	c.Players = 6
	c.Local = []core.PlayerHandle{0}
	c.Peers = [][]core.PlayerHandle{{1}, {2}, {3}, {4}, {5}}
	c.Prediction, c.MaxPrediction, c.SnapshotRetention = 0, 0, 8
	a, err := NewEngine[mixState, testInput](c, nopGame[mixState]{}, new(mixState))
	if err != nil {
		t.Fatal(err)
	}
	stateAt := func(f core.Frame) mixState { return mixState{Tick: int64(f)} }
	save := func(f core.Frame) {
		a.snaps.Save(int32(f), &world[mixState]{Game: stateAt(f)})
	}
	for f := core.Frame(0); f < 8; f++ {
		save(f)
	}
	a.checked = 8
	// Peers 0 to 3 search four different frames, peer 4 the frame of
	// peer 0; none is the answerer's own detection.
	frames := []core.Frame{2, 3, 4, 5, 2}
	var ps []*lentPeer
	for k, f := range frames {
		ps = append(ps, newLentPeer(t, f, k, stateAt(f)))
	}
	for id, p := range ps {
		p.ask(a, core.PeerID(id))
	}
	if got := a.lentCopies(); got != maxLent {
		t.Fatalf("%d copies held for 5 peers searching 4 frames, want %d", got, maxLent)
	}
	if m0, m4 := a.peers[0].hunt.theirs.copy, a.peers[4].hunt.theirs.copy; m0 == nil || &m0[0] != &m4[0] {
		t.Fatal("peers 0 and 4 search one frame but do not share one copy")
	}
	if a.peers[2].hunt.theirs.copy != nil || a.peers[3].hunt.theirs.copy != nil {
		t.Fatal("a copy was kept beyond the bound")
	}
	// The snapshots roll over: the kept frames stay answerable.
	for f := core.Frame(8); f < 16; f++ {
		save(f)
	}
	a.checked = 16
	for range maxQueries {
		for id, p := range ps[:4] {
			p.ask(a, core.PeerID(id))
		}
	}
	for k, p := range ps[:4] {
		got, ok := p.result()
		switch {
		case !ok:
			t.Fatalf("peer %d: search still running", k)
		case k < maxLent && (got.Incomplete || !slices.Equal(got.Paths, p.want)):
			t.Fatalf("peer %d (kept): fields %+v, want %q", k, got, p.want)
		case k >= maxLent && got.Reason != "the peer's state of the frame has expired":
			t.Fatalf("peer %d (beyond the bound): fields %+v, want the state expired", k, got)
		}
	}
	for k := range 4 {
		if a.peers[k].hunt.theirs.copy != nil {
			t.Fatalf("peer %d: copy kept after its search ended", k)
		}
	}
	// Peer 4's search still holds the shared copy, until it is declared
	// gone: the copy is released at the next confirmed frame.
	if got := a.lentCopies(); got != 1 || !ps[4].q.peers[0].hunt.active {
		t.Fatalf("%d copies held while peer 4 searches (active %v), want 1", got, ps[4].q.peers[0].hunt.active)
	}
	if err := a.DisconnectPeer(4); err != nil {
		t.Fatal(err)
	}
	a.confirmUpTo()
	if got := a.lentCopies(); got != 0 {
		t.Fatalf("%d copies held after the only peer needing one was declared gone, want 0", got)
	}
}

// A query that is neither answered already nor an unresolved range of
// the replay (one for a block that did not differ) gets no answer; a late
// duplicate of an answered query gets its answer again without changing
// the replay, so the released copy is never needed again, and the replay
// stays in step with the querier.
func TestNarrowStaleQueryIgnored(t *testing.T) {
	c := DefaultConfig()
	c.Prediction, c.MaxPrediction, c.SnapshotRetention = 0, 0, 8
	a, err := NewEngine[mixState, testInput](c, nopGame[mixState]{}, new(mixState))
	if err != nil {
		t.Fatal(err)
	}
	base := mixState{Tick: 3}
	a.snaps.Save(3, &world[mixState]{Game: base})
	a.checked = 4
	p := newLentPeer(t, 3, 1, base)
	h := &p.q.peers[0].hunt
	query := func(r span) *BlockReport {
		b := &BlockReport{Frame: 3, Offset: r.off, Length: r.n, BlockSize: blockSizeFor(r.n)}
		b.Hashes = hashBlocks(rawOf(&world[mixState]{Game: base}, nil), r, nil)
		return b
	}
	first := query(h.pend[0].span)
	p.ask(a, 0)
	m := &a.peers[0].hunt.theirs
	if !h.active || !slices.Equal(m.stack, h.stack) {
		t.Fatalf("querier's unresolved ranges %+v (active %v), replay's %+v", h.stack, h.active, m.stack)
	}
	// A block of the first query that did not differ.
	same := span{0, blockSizeFor(first.Length)}
	for ; slices.Contains(m.stack, same); same.off += same.n {
	}
	answers, queries := len(a.peers[0].answers), m.queries
	a.answerQuery(0, query(same))
	if len(a.peers[0].answers) != answers || m.queries != queries {
		t.Fatalf("a stale query was answered: %d answers, %d replayed queries, want %d and %d", len(a.peers[0].answers), m.queries, answers, queries)
	}
	p.ask(a, 0) // answers the second round
	answers, queries = len(a.peers[0].answers), m.queries
	a.answerQuery(0, first) // a late duplicate of the first
	if last := a.peers[0].answers[answers-1]; len(a.peers[0].answers) != answers || m.queries != queries || last.Offset != 0 || last.Length != first.Length || last.send != answerResends {
		t.Fatalf("a duplicate query changed the replay (%d answers, %d queries, want %d and %d) or was not answered again (%+v)", len(a.peers[0].answers), m.queries, answers, queries, last)
	}
	for range maxQueries {
		p.ask(a, 0)
	}
	if got, ok := p.result(); !ok || got.Incomplete || !slices.Equal(got.Paths, p.want) {
		t.Fatalf("fields %+v (ended %v), want %q", got, ok, p.want)
	}
	if !m.done || m.copy != nil {
		t.Fatalf("replay done %v, copy kept %v after the search ended", m.done, m.copy != nil)
	}
}

// A peer declared gone mid-search releases the copy held for its search
// (scenario: node 0 of a split detection disconnects its peer while it
// holds a copy for the peer's frame).
func TestScenarioNarrowLentReleasedOnDisconnect(t *testing.T) {
	net := newBigNet(t, 5, 150, func(i int, c *Config) {}, 61, nudgeScattered)
	held := -1
	for k := 0; k < 2000 && held < 0; k++ {
		net.step()
		for i, nd := range net.nodes {
			if nd.eng.lentCopies() == 1 {
				held = i
			}
		}
	}
	if held < 0 {
		t.Fatal("no node kept a copy to answer its peer's search")
	}
	e := net.nodes[held].eng
	if err := e.DisconnectPeer(0); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 5; k++ {
		net.now += 16 * time.Millisecond
		if f := e.Frame() + 1; f < net.end {
			_ = e.AddLocalInput(core.PlayerHandle(held), genInput(7, held, f))
		}
		e.Advance(net.now)
	}
	if got := e.lentCopies(); got != 0 {
		t.Fatalf("node %d holds %d copies for a gone peer, want 0", held, got)
	}
}
