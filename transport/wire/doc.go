// Package wire is rollstep's packet codec: it turns a core.Message and the
// session's control messages into datagrams of at most MaxDatagram (1200)
// bytes and back. It is pure: no sockets, clocks, random numbers or
// goroutines. Reliability (what to repeat, when to send keep-alives) lives
// in the endpoint above it, and the socket in the drivers.
//
// Every packet carries a per-match session token and a per-direction
// sequence number. The token rejects packets from other matches and
// off-path spoofing in plaintext mode; the sequence number, checked with a
// ReplayWindow, rejects duplicates and replays. Inputs are never
// retransmitted: every input the peer has not acknowledged is repeated in
// every packet until acknowledged (redundancy, as in GGPO), so a packet
// must be small when the link is healthy and must never grow past one
// datagram when it is not. The encoder therefore cuts inputs, oldest kept,
// rather than fragment, and reports what it cut in a Fit.
//
// Decoders are bounded, never panic, and accept exactly the bytes the
// encoders produce (canonical encoding: a decoded packet re-encodes to the
// same bytes), which is what lets the layer above require that every resend
// of an input be byte-identical. Encoders append to a caller's buffer;
// neither side allocates after warm-up.
//
// # Receiving
//
//  1. Receive a datagram p from the Conn.
//  2. h, err := ParseHeader(p, token): drop p on error.
//  3. window.Check(h.Seq): drop duplicates and replays.
//  4. Decode the body by h.Type: codec.DecodeInput(p, token, &msg),
//     DecodeHello, DecodeKeepAlive, ... into values you reuse.
//  5. window.Accept(h.Seq), then hand the message to the engine
//     (core's Receive copies what it keeps).
//
// # Sending
//
//  1. out, fit, err := codec.AppendInput(buf[:0], token, seq, msg), with
//     seq one more than the previous packet to this peer.
//  2. Send out; fit says how many input values did not fit.
//
// # Handshake
//
// The initiator sends a Hello padded to exactly HelloSize (96) bytes with a
// random nonce it draws itself, its Protocol and its ConfigDigest. The
// receiver checks CheckProtocol and Compare, and answers with a HelloReply
// that echoes the nonce and carries its own protocol and digest, accepting
// or refusing; the initiator runs the same checks on the reply, so both
// sides refuse with the same *ConfigMismatchError naming the field. No
// packet type that may answer an unvalidated Hello is larger than
// HelloSize, so the handshake cannot amplify a spoofed source's traffic.
//
// # Header
//
// All integers are little-endian. uvarint is LEB128 (encoding/binary's
// Uvarint, minimal length required); varint is zigzag LEB128.
//
//	offset  size  field
//	0       1     magic 0xA (high nibble) | Version 1 (low nibble): 0xA1
//	1       1     Type (low nibble) | flags (high nibble, per type)
//	2       8     session token
//	10      1-10  sequence number, uvarint
//
// Types: 1 Hello, 2 HelloReply, 3 Input, 4 KeepAlive, 5 Leave, 6 Quality.
// Flags a type does not define must be zero. The header is 11 to 20 bytes;
// 12 while the sequence is below 16384, 13 below 2^21.
//
// There is no separate "acked frame" field: core acknowledges per player,
// and an Input packet's Held entries are those acknowledgements.
//
// # Input (type 3)
//
// Flags: 0x10 timing, 0x20 gone, 0x40 checksums, 0x80 desync. Frames are
// 0..2^31-1; a "relative frame" is a varint difference from the message's
// Frame. Durations are whole microseconds (the encoder truncates toward
// zero).
//
//	field        encoding
//	Frame        varint, sequence number - Frame (modulo 2^64): both grow
//	             by about one a frame, so one byte in steady state
//	shape        1 byte: H = held entries (bits 0-4, 0..16);
//	             R = runs if below 7, else 7 (bits 5-7)
//	Held[0..H)   relative frames; Held[H..16) are zero and Held[H-1] != 0
//	Gone         2 bytes, nonzero; only with flag 0x20
//	ChecksumAck  relative frame
//	timing       only with flag 0x10, which is set exactly when the
//	             message has a stamp (not NoStamp) and StampDue(sequence
//	             number), one packet in StampEvery (8) after the first 32:
//	Stamp        uvarint, Stamp in µs (>= 0) times 2, plus 1 if an echo
//	             follows
//	Echo         varint µs, Echo - Stamp; only with an echo
//	EchoDelay    uvarint µs (EchoDelay >= 0); only with an echo
//	checksums    only with flag 0x40: uvarint n (1..MaxChecksums), then n ×
//	             {frame as varint difference from the previous report's
//	             frame (the first from Frame), 8-byte sum}
//	desync       only with flag 0x80: the desync search (see below)
//	R - 7        uvarint; only when R is 7
//	R × run      see below; at most MaxPlayers runs
//
// The desync section carries core's Message.Blocks (a query: hashes of the
// blocks of one byte range of the state) and Message.Answer (which blocks
// of the receiver's query differ); offsets, lengths and block sizes are
// 0..2^31-1:
//
//	parts        1 byte: 0x01 query, 0x02 answer, 0x04 the answer is
//	             Unavailable (only with 0x02); nonzero, other bits zero
//	query        only with 0x01: relative frame, uvarint Offset, uvarint
//	             Length, uvarint BlockSize, uvarint n (1..MaxBlocks),
//	             n × 8-byte hash
//	answer       only with 0x02: relative frame, uvarint Offset, uvarint
//	             Length (>= 1), then 8-byte Differ unless 0x04
//
// It is at most 1 + 21 + 512 + 23 = 557 bytes.
//
// A run is one player's inputs for frames Start, Start+1, ...:
//
//	head         1 byte: player (bits 0-3) | n (bits 4-7) when n is 1..15,
//	             else 0 there and n follows as uvarint (0 or 16..MaxRunValues)
//	Start        relative frame
//	values       gap, literal, gap, literal, ..., [gap]
//
// Each value is XORed with the previous value of the run (the first with
// all zeros), giving a delta of state.Size[I]() bytes in canonical form
// (state.AppendRaw). Deltas are run-length encoded: a gap (uvarint) counts
// zero deltas, which repeat the previous value; a literal is one nonzero
// delta. Decoding reads a gap, and unless the run is complete a literal,
// and repeats; so a gap is written before every literal (often 0) and at
// the end only if zero deltas remain. A literal is the raw delta for inputs
// of 1 or 2 bytes, and otherwise a mask of ceil(size/8) bytes (bit j set:
// byte j of the delta is nonzero) followed by the nonzero bytes. A run of
// six frames of a held 2-byte input costs 1+1+1+2+1 = 6 bytes; six frames
// of no input cost 3.
//
// Bounds: MaxRunValues values per run, MaxValues per packet, MaxChecksums
// checksum reports, MaxBlocks block hashes, inputs of at most MaxInputSize
// bytes. When a message does not fit in MaxDatagram bytes, the encoder
// leaves out the desync section, then picks the largest cut-off frame F such
// that all values for frames below F fit, so the oldest inputs of every
// player go first; the Fit reports what was left out.
//
// # Control types
//
//	Hello (1)       Protocol 2 bytes, Nonce 8 bytes, ConfigDigest 32 bytes,
//	                zero padding to exactly HelloSize (96) bytes
//	HelloReply (2)  Status 1 byte (1 accept, 2 refuse protocol, 3 refuse
//	                config), Protocol 2, Nonce 8 (the Hello's), ConfigDigest
//	                32: at most 63 bytes
//	KeepAlive (4)   Stamp uvarint µs; with flag 0x10 Echo - Stamp (varint
//	                µs) and EchoDelay (uvarint µs): at most 44 bytes
//	Leave (5)       Reason 1 byte (1 quit, 2 timeout, 3 desync, 4 refused),
//	                Frame uvarint: at most 26 bytes
//	Quality (6)     Frame uvarint, RTT uvarint µs, Jitter uvarint µs,
//	                LossPermille uvarint (0..1000): at most 43 bytes
//
// A ConfigDigest is 32 bytes: Players (1), reserved zero (1), InputSize (2),
// TickRate (2), ChecksumInterval (2), InputLayout (8), Game (16).
//
// # Size
//
// A steady-state packet of a 2-player match at 60 frames/s with 2-byte
// inputs and six unacknowledged frames is 24 bytes after about 4.5 minutes
// (sequence number past 16383), 52 with the 28 bytes of IP and UDP
// headers: header 13 (magic and version 1, type and flags 1, token 8,
// sequence 3), Frame 1, shape and Held 3, ChecksumAck 1, run 6. In the
// first 4.5 minutes it is 51. One packet in StampEvery also carries the
// timing, 10 bytes with an echo (Stamp 5, Echo - Stamp 3, EchoDelay 2):
// 62. Checksum reports add 1 byte plus 9 per report. See
// TestSteadyStateSize, and transport/endpoint's TestSteadyStatePacketSize
// for the distribution in a match.
//
// The 28 bytes of IP and UDP headers, the 8-byte token and the 2 type
// bytes are 38 of those 52. Reaching 48 without a shorter token would
// take all of: the sequence number's low 16 bits, rebuilt from the
// receiver's replay window (-1; ParseHeader would need the window, so the
// endpoint changes), the magic folded into one version-type-flags byte
// (-1), a run Start implied by Held when the run ends there (-1), and
// ChecksumAck sent only when it moved (-1); and inputs that change rarely,
// since each change costs 3 bytes.
package wire
