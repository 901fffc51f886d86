// Command rollstep is the command-line companion of the rollstep library.
//
//	rollstep sim [flags]          run a match of simulated peers on a virtual-time network
//	rollstep proxy [flags]        forward UDP between two addresses with seeded impairments
//	rollstep replay info FILE     print a replay's header and whether this build knows its game
//	rollstep replay verify FILE   re-simulate a replay and compare every stored checksum
//	rollstep benchgate -budgets F read go test -bench output and check it against a budgets file
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
//	  "final_checksums_equal": true,// every peer's state after the last frame has one checksum
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
//	    "prediction": [{"ms": 0, "value": 0}, ...]  // prediction window W, likewise
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
package main
