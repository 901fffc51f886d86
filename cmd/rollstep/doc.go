// Command rollstep is the command-line companion of the rollstep library.
//
//	rollstep sim [flags]          run a match of simulated peers on a virtual-time network
//	rollstep proxy [flags]        forward UDP between two addresses with seeded impairments
//	rollstep replay info FILE     print a replay's header and whether this build knows its game
//	rollstep replay verify FILE   re-simulate a replay and compare every stored checksum
//	rollstep benchgate -budgets F read go test -bench output and check it against a budgets file
//	rollstep signal [flags]       serve matchmaking and WebRTC signaling (package lobby)
//
// Run a command with -h for its flags.
//
// # rollstep sim
//
// sim plays the demo game of package examples/units (units moving to
// targets in fixed point, ordered by seeded bots) between -peers simulated
// peers, each running a real session (rollstep.NewSession) over a
// transport/sim network whose every link has the impairments of the flags.
// Everything runs on virtual time, so a 30-second match takes a fraction
// of a second and the same flags and -seed always print the same bytes.
// Without flags it plays a lockstep match and then a rollback match on a
// bad link (80 ms ± 20 ms one way, a 400 ms spike for 600 ms every 5 s,
// 5 % loss) to show what each costs.
//
// Each host runs its game loop every millisecond of virtual time: the
// bot's input for a new frame, then Update. A -nudge PEER:FRAME makes that
// peer's step add one unit to one field after FRAME (on every simulation
// of it, so no rollback undoes it), standing for a bug; the report then
// shows the desync where the peers detect it and the fields that differ.
//
// # Life cycle
//
// Five repeatable flags script a match's life cycle, so that leaving,
// crashing, outages and late joins can be costed and checked. Frames are
// turns in lockstep; peers are 0-based; every run (mode) plays the script
// from virtual time zero.
//
//	-leave PEER:FRAME      the peer leaves cleanly when it reaches FRAME: its host
//	                       closes the session (Session.Close sends a Leave) and stops
//	-kill PEER:FRAME       the peer vanishes without a word when it reaches FRAME: its
//	                       host stops calling Update and never closes the session
//	-blackout START/DUR    every link drops every datagram sent from START for DUR of
//	                       virtual time, then heals (e.g. 2s/3s); datagrams already in
//	                       flight still arrive. A blackout past the disconnect timeout
//	                       splits the match; a peer alone on its side then yields to
//	                       the side with the lowest handle and rejoins it
//	-cut FROM:TO:START/DUR the link from peer FROM to peer TO drops every datagram
//	                       sent from START for DUR, the other direction working
//	                       (e.g. 1:0:3s/4s): a one-way outage; both directions
//	                       of one link make a partial partition
//	-late PEER:DELAY       the peer's session exists from the start (its endpoint
//	                       receives) but is first updated at DELAY (e.g. 1:4s)
//	-crash PEER:FRAME:DOWN the peer's process dies at FRAME without a word (its socket
//	                       closes), and DOWN later a new process of its seat binds the
//	                       same address with Config.Rejoin and rejoins the match
//	                       (e.g. 1:600:1s)
//
// A spectator watches a peer's session with -watch PEER (repeatable, up to
// eight): a session with Config.Spectate, at its own address on the same
// network, which the peer streams to without stream delay (a restarted
// process of the peer streams to it too). The report says, per
// spectator, whether it played the last frame and its checksum then, or
// how its stream ended (the host left, was lost, or dropped it), and how
// often its replay started over from a new join record (its host's side
// yielded a split, or its process restarted). A spectator that played the
// last frame counts in final_checksums_equal, unless its host's final
// checksum is not compared or its replay started over past that frame.
//
// An exit happens at the first millisecond tick at which the peer's
// frame is FRAME or more (a session catching up runs several frames in one
// Update), and the report gives the frame it was at. A peer has at most
// one -leave, -kill or -crash and one -late. A FRAME past the
// end of a mode's match does nothing in that mode (-mode both plays
// -turns in lockstep and -frames in rollback); one past the end of every
// mode played is refused.
//
// When the run had a life-cycle event (one of these flags, or a peer
// interrupted, lost, left, split, refused, or failing Update), the text
// report adds a "life cycle:" section: per peer, every event it saw about
// the others with the virtual time and its frame then (connected,
// interrupted for how long, resumed, lost, left, dropped from the agreed
// frame, SPLIT with the frame it played apart from, CRASHED and a new
// process started, YIELDED when a running peer starts coming back (its
// side of a split throws its frames away to rejoin the other, or it waits
// to try again after being dropped soon after a return), and each rejoin: on the survivor that sent it the
// snapshot's frame, the bytes, chunks and chunks resent, on every peer the
// return frame and the time from the restart), and how its match
// ended (finished: its session reported the match's agreed end, which
// every peer sets at the last frame with EndAt, so every frame is
// confirmed; LEFT; KILLED; or ERROR with
// the text of the Update error, such as the *endpoint.HandshakeTimeoutError
// of a peer whose -late exceeds the 10 s handshake timeout; a host whose
// Update fails gives up and closes its session). The final-checksum line
// then compares only the peers that finished, grouped by checksum: "all
// equal" when they form one group (naming the peers not compared: left,
// killed, failed, rejoined from a snapshot past the last frame, so that
// it never simulated that frame or simulated it on a side of a split the
// rejoin threw away, or yielded a split after it), "DIFFERENT, N groups"
// otherwise, as
// after a split, with a line saying the match ended split when the peers
// of every group but one reported a split that no rejoin healed since (a
// link that healed only as the match ended; JSON ended_apart). Without a life-cycle event the report is exactly as it
// was before these flags. The exit code stays 0 when a peer fails: the
// run was played and reported. A match that does not reach its last
// frame in 20 times its length plus a minute of virtual time is reported
// all the same, and sim then exits 1.
//
// # JSON
//
// With -json, sim prints one JSON object per mode played (two lines for
// -mode both), of this schema. Fields are only ever added, never renamed
// or removed.
//
//	{
//	  "mode": "lockstep",           // lockstep, rollback or auto
//	  "seconds": 31.1,              // virtual time the match took
//	  "final_frame": 300,           // frames (turns) played
//	  "final_checksums_equal": true,// every peer that finished has one checksum after the last frame
//	                                // (without a life-cycle event every peer finishes)
//	  "checksum_groups": [{         // life-cycle runs only: the peers that finished, by checksum
//	    "checksum": "00f56b762bab1b7f", "peers": [0, 2]
//	  }],
//	  "ended_apart": true,          // the groups are sides of a reported split no rejoin healed
//	                                // (absent otherwise)
//	  "spectators": [{              // -watch only, in the order of the peers watched
//	    "host": 1,                  // the peer it watches
//	    "frames": 1200,             // frames (turns) it played
//	    "final_checksum": "00f56b762bab1b7f", // or "missing"
//	    "started_over": 1,          // replays started over from a new join record
//	    "end": "the host was lost"  // how its stream ended before the last frame; absent if it played it
//	  }],
//	  "peers": [{
//	    "peer": 0,                  // 0-based
//	    "stall_seconds": 0.22,      // time spent waiting for remote inputs
//	    "turn_ms_mean": 100.3,      // mean period of a turn (lockstep) or frame
//	    "frames": 302,              // frames (turns) the peer ran by the end
//	    "rollbacks": 0,
//	    "resimulated_frames": 0,
//	    "upload_bytes_per_sec": 984,// 28 bytes of IP+UDP header counted per datagram
//	    "datagrams": 318,           // datagrams sent
//	    "final_checksum": "00f56b762bab1b7f",
//	    "delay": [{"ms": 0, "value": 2}, ...],      // input delay D: start and every change
//	    "prediction": [{"ms": 0, "value": 0}, ...], // prediction window W, likewise
//	    "events": [{                // life-cycle runs only, in order; absent when none
//	      "ms": 4539,               // virtual time of the Update that reported it
//	      "frame": 79,              // this peer's frame (turn) then
//	      "event": "dropped",       // connected, refused, interrupted, resumed, lost, left, split, dropped,
//	                                // crashed, restarted, yielded, rejoin
//	      "remote": 1,              // the peer it is about (crashed, restarted, yielded: the peer itself)
//	      "since": 70,              // dropped: first frame of the remote's disconnected inputs;
//	                                // split: the frame this peer played on without the remote from
//	      "error": "..."            // refused, or lost by handshake timeout: why
//	    }],
//	    "end": {                    // life-cycle runs only: how its match ended
//	      "how": "finished",        // finished, left, killed or error
//	      "ms": 23222, "frame": 1200,
//	      "error": "...",           // error: the text of the Update error
//	      "remote": 1               // error: the peer it is about, if it names one
//	    },
//	    "first_update_ms": 4000     // -late: when the session was first updated
//	  }],
//	  "desyncs": [{
//	    "peer": 0,                  // the peer that detected it
//	    "remote": 1,                // the peer it disagrees with
//	    "frame_detected": 70,       // the checksummed frame where it was seen
//	    "frame_earliest": 61,       // the first frame that can have caused it
//	    "fields": ["Arrived"]       // the differing fields, as the session's DesyncFieldsEvent names them
//	  }]
//	}
//
// # Chart
//
// -chart FILE.svg draws every peer's turns (frames) on one time axis per
// mode: a tick per turn run, red bands while the peer waited for inputs,
// orange marks at rollbacks, and the input delay D as a blue step line.
//
// # rollstep signal
//
// signal runs package lobby's server: clients join rooms over WebSocket at
// /ws, get their seats and the match's secret when a room fills, and relay
// their WebRTC set-up through it; /healthz and /readyz answer load
// balancers. Its first line is "listening on ws://ADDR/ws" (-addr port 0
// picks one). -tls-cert and -tls-key serve wss:// (use them beyond a
// test: the match secret crosses this connection), -static DIR serves a
// browser game's files at every other path, and -max-conns, -max-rooms,
// -rate, -burst, -join-timeout and -idle-timeout set the limits. SIGINT
// or SIGTERM drain it and stop it, and it prints how many matches it made.
package main
