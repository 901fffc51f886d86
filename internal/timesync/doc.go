// Package timesync balances the frame advantage between peers, for every
// session mode that predicts: a peer that runs ahead of another gets the
// other's inputs later in its own frames, so it predicts further and rolls
// back deeper; it is told to wait a few frames. Sync is pure arithmetic over the frames peers report in their
// messages, the measured round trip and the host's clock; the session
// feeds it and applies its recommendations (Event).
package timesync
