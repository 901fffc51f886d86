// Package wire is rollstep's packet codec: it turns a core.Message and the
// session's control messages into datagrams of at most MaxDatagram (1200)
// bytes and back. It is pure: no sockets, clocks, random numbers or
// goroutines. Reliability (what to repeat, when to send keep-alives) lives
// in the endpoint above it, and the socket in the drivers.
//
// Every packet carries a per-direction sequence number and ends with an
// authentication tag under a Key derived from the per-match session token,
// which itself never goes on the wire. The tag rejects packets from other
// matches and forgeries by anyone without the token; the sequence number,
// checked with a ReplayWindow, rejects duplicates and replays. Inputs are
// never retransmitted: every input the peer has not acknowledged is
// repeated in every packet until acknowledged (redundancy, as in GGPO), so
// a packet must be small when the link is healthy and must never grow past
// one datagram when it is not. The encoder therefore cuts inputs, oldest
// kept, rather than fragment, and reports what it cut in a Fit.
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
//  2. h, err := ParseHeader(p, key, &window): drop p on error. The
//     window of the sender's direction expands the 16-bit sequence
//     number; key is NewKey(token) for a Hello, HelloReply or Match
//     (PacketType(p).Handshake()), and otherwise the DirectionKey of the
//     sender's and receiver's seats and handshake nonces, each derived
//     once.
//  3. window.Check(h.Seq): drop duplicates and replays.
//  4. Decode the body by h.Type: codec.DecodeInput(p, key, &window, &msg),
//     DecodeHello, DecodeKeepAlive, ... into values you reuse.
//  5. window.Accept(h.Seq), then hand the message to the engine
//     (core's Receive copies what it keeps).
//
// # Sending
//
//  1. out, fit, err := codec.AppendInput(buf[:0], key, seq, msg), with
//     seq one more than the previous packet to this peer and key the
//     DirectionKey from us to it.
//  2. Send out; fit says how many input values did not fit.
//
// Most Input packets of a match have the same shape: no Gone or desync
// section, a few runs of up to 15 values of core.Slot inputs of up to 8
// bytes whose control words do not change. The Codec encodes and decodes those in one pass
// with plain bounds checks (input_quick.go), and every other message or
// packet, valid or not, with the general encoder and decoder, which also
// name what is wrong. Both give the same bytes and the same messages:
// TestQuickPaths and the fuzz targets compare them.
//
// # Handshake
//
// The initiator sends a Hello padded to exactly HelloSize (96) bytes with a
// random nonce it draws itself, its Protocol, its ConfigDigest and its
// Seat (the lowest player handle it owns, or NoSeat), by which a host that
// does not know the initiator's address tells which peer it is. The
// receiver checks CheckProtocol and Compare, and answers with a HelloReply
// that echoes the nonce and carries its own protocol and digest, accepting
// or refusing; the initiator runs the same checks on the reply, so both
// sides refuse with the same *ConfigMismatchError naming the field. No
// packet type that may answer an unvalidated Hello is larger than
// HelloSize, so the handshake cannot amplify a spoofed source's traffic.
//
// # Header and tag
//
// All integers are little-endian. uvarint is LEB128 (encoding/binary's
// Uvarint, minimal length required); varint is zigzag LEB128.
//
//	offset  size  field
//	0       1     Version 2 (bits 6-7) | Type (bits 3-5) | flags (bits 0-2)
//	1       2     sequence number, low 16 bits; in Hello, HelloReply and
//	        8     Match the full 64-bit sequence number instead
//	...           body
//	len-4   4     tag
//
// Types: 1 Hello, 2 HelloReply, 3 Input, 4 KeepAlive, 5 Leave, 6 Transfer,
// 7 Match; 0 is invalid. Flags a type does not define must be zero (no
// type but Input and KeepAlive defines any). The header is 3 bytes (9 in
// Hello, HelloReply and Match), and every packet is 4 bytes of tag longer
// than its header and body.
//
// The receiver expands a 16-bit sequence number to the 64-bit value
// closest to the newest one its ReplayWindow accepted (ReplayWindow.Expand;
// an empty window takes the 16 bits as they are). A sender whose packets
// were all lost for more than 32767 numbers in a row can no longer be
// expanded correctly and fails the tag; an endpoint declares it
// disconnected long before (2.5 s).
//
// The tag is the low 32 bits of SipHash-2-4 (Aumasson and Bernstein,
// https://www.aumasson.jp/siphash/siphash.pdf), as a little-endian uint32,
// keyed with the Key of the session token (NewKey: k0 = token, k1 = token ·
// 0x9e3779b97f4a7c15 XOR "rollstep" read little-endian), over the packet's
// full 64-bit sequence number as 8 little-endian bytes followed by every
// byte of the packet before the tag. Like SRTP's 32-bit tag with its
// implicit rollover counter (RFC 3711 §3.3.1, §4.2), the full sequence
// number is authenticated although only 16 bits travel, so a packet
// replayed after the 16-bit number wraps fails the tag. A forger without
// the token passes with probability 2^-32 per attempt, and every attempt
// costs a datagram to a peer that never answers one. A wrong tag is
// ErrWrongToken.
//
// There is no separate "acked frame" field: core acknowledges per player,
// and an Input packet's Held entries are those acknowledgements.
//
// # Input (type 3)
//
// Flags: 0x1 timing, 0x2 ext (the extension flags byte follows the
// header), 0x4 runs end at held (no run starts on the wire). Frames are
// 0..2^31-1; a "relative frame" is a varint difference from the message's
// Frame. Durations are whole microseconds (the encoder truncates toward
// zero).
//
//	field        encoding
//	ext          1 byte, only with flag 0x2: 0x01 gone, 0x02 checksums,
//	             0x04 desync, 0x08 checksum ack; nonzero (without any of
//	             them the flag is clear), other bits zero
//	Frame        varint, full sequence number - Frame (modulo 2^64): both
//	             grow by about one a frame, so one byte in steady state
//	shape        1 byte: H = held entries (bits 0-4, 0..16);
//	             R = runs if below 7, else 7 (bits 5-7)
//	Held[0..H)   relative frames; Held[H..16) are zero and Held[H-1] != 0
//	Gone         2 bytes, nonzero; only with ext 0x01
//	ChecksumAck  relative frame, only with ext 0x08, and then not 0: an
//	             absent ack decodes as 0, which acknowledges nothing, so a
//	             sender may leave out an ack that did not change
//	timing       only with flag 0x1, which is set exactly when the
//	             message has a stamp (not NoStamp) and StampDue(sequence
//	             number), one packet in StampEvery (8) after the first 32:
//	Stamp        uvarint, Stamp in µs (>= 0) times 2, plus 1 if an echo
//	             follows
//	Echo         varint µs, Echo - Stamp; only with an echo
//	EchoDelay    uvarint µs (EchoDelay >= 0); only with an echo
//	checksums    only with ext 0x02: uvarint n (1..MaxChecksums), then n ×
//	             {frame as varint difference from the previous report's
//	             frame (the first from Frame), 8-byte sum}
//	desync       only with ext 0x04: the desync search (see below)
//	R - 7        uvarint; only when R is 7
//	R × run      see below; at most MaxPlayers runs
//
// The desync section carries core's Message.Blocks (a query: hashes of the
// blocks of one byte range of the state) and the non-empty entries of
// Message.Answers, in order (each says which blocks of one of the
// receiver's queries differ); offsets, lengths and block sizes are
// 0..2^31-1:
//
//	parts        1 byte: 0x01 query; bits 1-3 the number of answers A
//	             (0..core.MaxAnswers, 4); bit 4+i: answer i is
//	             Unavailable (only for i < A); nonzero
//	query        only with 0x01: relative frame, uvarint Offset, uvarint
//	             Length, uvarint BlockSize, uvarint n (1..MaxBlocks),
//	             n × 8-byte hash
//	A × answer   frame as varint difference from the previous answer's
//	             frame (the first from Frame), uvarint Offset, uvarint
//	             Length (>= 1), then 8-byte Differ unless Unavailable
//
// It is at most 1 + 21 + 512 + 4 × 23 = 626 bytes, and usually one query
// and about 15 bytes per answer. (Until core kept several desync queries
// in flight, version 2 carried one answer: parts 0x02 answer and 0x04
// Unavailable, its frame relative to Frame. No peer spoke that, so the
// version did not change.)
//
// A run is one player's inputs for frames Start, Start+1, ...:
//
//	head         1 byte: player (bits 0-3) | n (bits 4-7) when n is 1..15,
//	             else 0 there and n follows as uvarint (0 or 16..MaxRunValues)
//	Start        relative frame; not sent with flag 0x4
//	values       gap, literal, gap, literal, ..., [gap]
//
// Flag 0x4 is set exactly when the packet has runs and each ends at its
// player's Held entry (Start + n = Held[player], which is not zero), as a
// sender's runs of its own players do unless the encoder cut them; the
// receiver then takes Start = Held[player] - n. A packet without the flag
// whose runs all end there is malformed, so the encoding stays canonical.
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
// A core.Slot (what engines send: an 8-byte control word, then the game's
// input) is coded so that an unchanged control word costs nothing: each
// gap is written doubled, plus 1 when the literal after it changes the
// control word; such a literal starts with the control word's delta (a
// nonzero byte mask and its nonzero bytes), and the rest of every literal
// is the input's delta coded as a literal of the input's own type, which
// may then be all zeros. The run's final gap, with no literal after it,
// is even. So a run of slots whose control words never change costs
// exactly what the bare inputs would. A command costs two control literals
// (the word changes at the command's frame and back at the next), each
// with its input literal: 10 bytes for a 2-byte input.
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
//	                Seat 1 byte (0 none, else the sender's lowest player
//	                handle plus one, 1..16), flags 1 byte (0x01 Rejoin),
//	                zero padding to exactly HelloSize (96) bytes with the
//	                tag
//	HelloReply (2)  Status 1 byte (1 accept, 2 refuse protocol, 3 refuse
//	                config), Protocol 2, Nonce 8 (the Hello's), ConfigDigest
//	                32, with flag 0x1 the replier's restart nonce 8: at most
//	                64 bytes
//	KeepAlive (4)   Stamp uvarint µs; with flag 0x1 Echo - Stamp (varint
//	                µs) and EchoDelay (uvarint µs); flag 0x2 says the
//	                sender lost the receiver (a probe): at most 31 bytes
//	Leave (5)       Reason 1 byte (1 quit, 2 timeout, 3 desync, 4 refused),
//	                Frame uvarint: at most 13 bytes
//	Transfer (6)    a payload of 1..MaxTransferPayload bytes: one message
//	                of internal/transfer (offer, chunk, ack) or of the
//	                rejoin; sent only to connected peers
//	Match (7)       see Match negotiation below
//
// The Seat byte took the first byte of what was padding, so a Hello that
// names no seat is byte for byte a Hello from before seats (no peer spoke
// version 2 yet, so the version did not change); the flags byte took the
// next one in protocol 4.
//
// A ConfigDigest is 32 bytes: Players (1), ExtraSteps (1), InputSize (2),
// TickRate (2), ChecksumInterval (2), InputLayout (8), Game (16).
// ExtraSteps was a reserved zero byte before protocol 3, and zero is still
// its common value.
//
// # Match negotiation (type 7)
//
// Before any session exists, the authority may offer the match
// configuration and every follower accept or refuse it (the root package's
// NewOffer and NewAccept). These packets are authenticated like all others,
// so the session token never travels, and carry the full sequence number:
// there is no session yet, hence no ReplayWindow. No flags are defined.
//
//	Kind         1 byte: 1 offered, 2 accepted, 3 refused
//	offered      Players 1 byte, TickRate 2, Seed 8, Game 16, uvarint n
//	             (0..MaxMatchParams, 1024), n bytes of Params: 42 to
//	             1067 bytes with the header and tag
//	accepted,    Digest 16 bytes, naming the offer answered:
//	refused      MatchReplySize (30) bytes with the header and tag
//
// Without a replay window anyone can replay a captured offer with the
// authority's address as its source, and the follower answers it. So an
// answer must not amplify: one reply is smaller than the smallest offer,
// and a follower that repeats its reply sends at most as many bytes as
// the offer it answers.
//
// # Size
//
// A steady-state packet of a 2-player match at 60 frames/s with 2-byte
// inputs and six unacknowledged frames of one held input is 16 bytes, 44
// with the 28 bytes of IP and UDP headers: header 3 (version, type and
// flags 1, sequence 2), Frame 1, shape and Held 3, run 5 (head, gap,
// literal 2, gap; no start), tag 4, at any point of the match. A
// ChecksumAck adds 2 (the ext byte and the ack), which internal/endpoint
// sends only in the 4 packets after it changes and in 1 in 8 others; each
// change of the input within the run adds 3. One packet in StampEvery also
// carries the timing, 10 bytes with an echo (Stamp 5, Echo - Stamp 3,
// EchoDelay 2): 54. Checksum reports add the ext byte (unless present), 1
// byte plus 9 per report. See TestSteadyStateSize, and internal/endpoint's
// TestSteadyStatePacketSize for the distribution in a match.
//
// Version 1 spent 52 bytes on the same packet: a magic nibble and a
// separate type byte (1 more), the 8-byte token in clear instead of the
// 4-byte tag (4), a uvarint sequence number of 3 bytes past 2^14 packets
// instead of 2 (1), the run's start (1) and a ChecksumAck in every packet
// (1).
package wire
