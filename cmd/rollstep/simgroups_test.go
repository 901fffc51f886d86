package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// A peer that rejoined from a snapshot past the last frame never
// simulated it, so it has no final checksum: it is named among the peers
// not compared, not counted as a group of its own. So is one that
// simulated the last frame on its side of a split and rejoined or yielded
// after: the rejoin threw that checksum away. A finished peer without a checksum
// and without such a rejoin still is, so that a missing checksum is never
// hidden.
func TestChecksumGroupsSkipAPeerThatRejoinedPastTheEnd(t *testing.T) {
	done := &peerEnd{How: endFinished}
	rejoin := func(handoff int32) []lifeEvent {
		return []lifeEvent{{Event: lifeRejoin, Rejoin: &rejoinInfo{Self: true, Handoff: handoff}}}
	}
	r := simReport{FinalFrame: 1200, eventful: true, Peers: []peerReport{
		{Peer: 0, FinalChecksum: "00000000000000aa", End: done},
		{Peer: 1, FinalChecksum: "00000000000000aa", End: done},
		{Peer: 2, FinalChecksum: "missing", End: done, Events: rejoin(1249)},
		{Peer: 3, FinalChecksum: "00000000000000bb", End: done, Events: rejoin(1210)},
		{Peer: 4, FinalChecksum: "00000000000000cc", End: done, Events: []lifeEvent{{Event: lifeYielded, Frame: 1234, Remote: 4}}},
	}}
	r.ChecksumGroups = groupChecksums(r.Peers, r.FinalFrame)
	require.Equal(t, []checksumGroup{{Checksum: "00000000000000aa", Peers: []int{0, 1}}}, r.ChecksumGroups)
	var out bytes.Buffer
	r.writeGroups(&out)
	require.Contains(t, out.String(), "all equal (00000000000000aa) among the 2 peers compared (peers 0, 1)",
		"peer 2 finished too: the 2 are not all that finished")
	require.Contains(t, out.String(),
		"not compared: peer 2 (rejoined past the last frame), 3 (rejoined past the last frame), 4 (yielded after the last frame)")

	r.Peers[1].End = &peerEnd{How: endError}
	r.ChecksumGroups = groupChecksums(r.Peers, r.FinalFrame)
	out.Reset()
	r.writeGroups(&out)
	require.Contains(t, out.String(), "only peer 0 compared (00000000000000aa)", "peer 2 finished too")
	r.Peers[1].End = done

	r.Peers[2].Events = rejoin(1100) // it simulated frame 1199, so it must have a checksum
	r.ChecksumGroups = groupChecksums(r.Peers, r.FinalFrame)
	require.Len(t, r.ChecksumGroups, 2)
}
