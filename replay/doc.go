// Package replay records, plays back, seeks and verifies replays of
// rollstep matches.
//
// A deterministic game needs nothing but its initial state and every
// frame's inputs to reproduce a match, so that is what a replay stores,
// plus what makes it safe and quick to use: the identity of the game
// build and match configuration (a replay is refused by another build
// rather than diverging silently), a checksum every N frames (so a change
// to the simulation is caught at the first frame it shows), and a
// compressed keyframe every K frames (so a viewer seeks without playing
// from the start).
//
// The package is pure logic over bytes, like the core it belongs to: it
// works on []byte (and ReadHeader reads from an io.Reader), and has
// no goroutines, clocks or randomness. The one exception is WriteFile,
// which writes a replay file atomically (temporary file in the same
// directory, fsync, rename), because doing that right is easy to get
// wrong.
//
// # Recording
//
// A Recorder takes one frame of confirmed inputs at a time, either
// directly (Add, with one core.Input per player) or from an input log
// (AddLog, with a *core.Engine or a session of any mode; set the log's
// retention to more frames than pass between two calls). AddLog records
// one replay frame per call of the game's Step (ReadSteps), so a match
// that paused, or ran several Steps a frame, replays exactly. It steps its
// own copy of the game to compute the checksums and keyframes:
//
//  1. rec, err := replay.NewRecorder(cfg, game, &initial)
//  2. after every Advance (or every frame): rec.AddLog(engine), or
//     rec.Add(inputs)
//  3. at the end: replay.WriteFile(name, rec.Bytes())
//
// # Playing back
//
// Open checks a replay against the running build and the game's types
// and decodes it (ReadHeader reads only the header, without the game's
// types); a Player steps it as fast as the CPU allows and Seek jumps to
// any frame through the nearest keyframe at or before it; VerifyData
// re-simulates everything and returns a *DivergenceError naming the first frame whose stored checksum or
// keyframe was not reproduced, with the state.Diff field paths. The
// replay farm test of this package verifies committed replays of the
// example games on every target of the determinism matrix; re-record
// them on purpose with
//
//	go test ./replay -run TestReplayFarm -rerecord
//
// and give the reason in the commit message.
//
// # Frames
//
// Frame f of a replay names the state after f steps (frames 0 to f-1, in
// the core's numbering), so frame 0 is the initial state and frame Frames
// the final one. Checksums are stored for frames N, 2N, ... and keyframes
// for frames K, 2K, ..., up to Frames.
//
// # Errors
//
// Every failure to read a replay matches one of three sentinels with
// errors.Is: ErrTruncated (every proper prefix of a valid replay gets
// it), ErrCorrupt or ErrMismatch (another game build, state or input
// type, or format version); reading never panics, whatever the bytes
// (FuzzOpen). A failed verification is a *DivergenceError.
//
// # Byte format, version 1
//
// All integers are little-endian. A replay is a 144-byte header followed
// by five sections, in this order and without gaps:
//
//	offset  size  header field
//	0       8     magic "RSREPLAY"
//	8       4     format version, 1
//	12      4     flags, zero
//	16      16    game version hash (Header.Game)
//	32      32    match config digest: players u8, zero u8, input size u16,
//	              tick rate u16, checksum interval u16, input layout u64,
//	              game hash [16] (the layout of the wire handshake digest;
//	              its checksum interval, written as 1, and game hash, the
//	              game version hash, are not checked when reading)
//	64      8     seed
//	72      8     state layout fingerprint (the layout fingerprint)
//	80      4     state size in bytes
//	84      4     frame count F (at most 1<<25)
//	88      4     checksum interval N (1 to 1<<25)
//	92      4     keyframe interval K (1 to 1<<25)
//	96      8     offset of the input section
//	104     8     offset of the checksum section
//	112     8     offset of the keyframe index
//	120     8     total length of the replay
//	128     4     CRC-32C (Castagnoli) of every byte after the header
//	132     8     reserved, zero
//	140     4     CRC-32C of header bytes 0 to 139
//
// The sections:
//
//   - Initial state, from offset 144 to the input section: one snapshot
//     record (below) with a zero base.
//   - Inputs: records, each covering a run of identical frames, until the
//     runs add up to F. A record is a uvarint run length (>= 1, minimal
//     encoding), a u16 mask of the players whose input differs from the
//     previous record (all players in the first record, never zero), then
//     for each player in the mask, in handle order, a status byte (1
//     confirmed, 3 disconnected, 4 filled when D rose) and, unless
//     disconnected, the input's raw little-endian bytes (the digest's
//     input size). A disconnected input's value is the zero value. Runs of identical
//     frames thus cost 3 bytes, and a frame where one player acts costs
//     about 4 bytes plus one input.
//   - Checksums: F/N state.Checksum values, u64 each, of frames N, 2N, ...
//   - Keyframe index: F/K u64 offsets of the keyframe records, ascending;
//     the first follows the index.
//   - Keyframes: F/K snapshot records of frames K, 2K, ..., each extending
//     to the next one or to the end, with the initial state's
//     state.Encode bytes as base.
//
// A snapshot record is a method byte and data. Method 1 (written) is a raw
// DEFLATE stream (RFC 1951) of the state.Encode bytes XOR the base, so
// that what did not change since the start compresses to almost nothing;
// method 0 stores the same XOR bytes uncompressed. The decoded snapshot must
// be exactly the state's encoded length and valid for state.Decode.
//
// The encoding is canonical: a run never follows an identical one, a mask
// names only changed players, and nothing trails the sections, so an
// accepted replay re-encodes to the same bytes.
package replay
