package rollback

import "github.com/rollstep/rollstep/internal/timesync"

// MaxAdvantage bounds a frame advantage sample, in frames (about 18
// minutes at 60 frames/s).
const MaxAdvantage = timesync.MaxAdvantage

// TimesyncConfig tunes timesync (the zero value gives the defaults):
// Window is the number of ticks averaged per recommendation (0: the tick
// rate, at most 1024); MinAdvantage the average advantage in frames from
// which waiting is recommended (0: 2); MaxWait bounds the frames one
// recommendation asks to wait (0: 8); Manual makes the session only report
// TimesyncEvents, which the caller applies with Session.Wait; Disable
// turns timesync off. Auto-mode lockstep sessions take the same.
type TimesyncConfig = timesync.Config

// TimesyncEvent reports the frame advantage over the peer we are furthest
// ahead of (Peer, Advantage: positive means ahead), averaged over one
// window, and the recommended Wait in frames; RemoteDelay is that peer's
// input delay D as its messages show, and Applied reports that the
// session waits by itself. It is raised at the end of a window when
// Wait > 0; Stats.Timesync holds the newest window's, even with Wait 0.
type TimesyncEvent = timesync.Event
