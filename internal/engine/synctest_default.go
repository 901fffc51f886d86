//go:build !rollstep_synctest

package engine

// DefaultSyncTest is the sync-test distance used when Config.SyncTest is 0.
// It is 0 in ordinary builds and 2 in builds with the rollstep_synctest tag,
// which turns sync testing on for every engine whose MaxPrediction allows it,
// at distance min(DefaultSyncTest, W) (see Config.SyncTest).
const DefaultSyncTest = 0
