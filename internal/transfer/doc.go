// Package transfer moves one blob, typically an encoded and compressed
// game-state snapshot of up to a few megabytes, from one sender to one
// receiver over an unreliable datagram channel that may lose, duplicate
// and reorder datagrams. It is the state-transfer step of a rejoin: a
// peer that restarted gets the match state from a survivor.
//
// Like the rest of rollstep's internals it is sans-IO: time is the now
// argument of every call (a time.Duration on any monotonic clock), it
// reads no clock, starts no goroutine, draws no random number and sends
// nothing itself. The caller moves the encoded messages, so a test drives
// it in virtual time and reproduces every byte.
//
// # Flow
//
// The sender compresses the state (Compress), describes the result in an
// Offer (transfer ID, compressed and raw sizes, chunk size) and delivers
// the offer to the receiver by whatever reliable means the carrier has,
// for instance sending AppendOffer's bytes until the first Ack with that
// ID comes back. Then:
//
//   - the Sender's Next yields Chunk messages; the carrier sends each
//     one;
//   - the Receiver's OnChunk stores each chunk that arrives, and the
//     carrier sends back the Receiver's Ack: every chunk below Next
//     received, and a 64-bit mask of which of the 64 chunks after Next
//     were;
//   - the Sender's OnAck applies the acks, until Done (every chunk
//     acknowledged) on the sender's side and Complete on the receiver's;
//   - the receiver takes Blob and restores the state with Decompress and
//     the offer's RawSize.
//
// The messages have fixed little-endian headers starting with a kind
// byte: OfferSize, ChunkHeaderSize and AckSize bytes. The decoders check
// every length and refuse bad input with an error wrapping ErrMalformed;
// they never panic. The Receiver refuses chunks of another transfer
// (ErrWrongTransfer, typically stragglers of an older transfer: give each
// transfer a new ID), with an index past the end (ErrBadIndex) or of the
// wrong length (ErrBadLength); the Sender refuses acks of another
// transfer and acks of chunks it never sent (ErrBadAck).
//
// # Pacing
//
// The Sender paces its messages with a token bucket on bytes: by any time
// t after the first Next it has emitted at most Rate·t + Burst bytes of
// messages (SenderConfig.Rate, 256 KiB/s by default, and Burst, four
// chunk messages by default). Wake says when Next may next return
// something, so a caller can sleep until then or until an ack arrives.
//
// # Retransmission
//
// A chunk is lost, and sent again before any new chunk, when its
// retransmission timeout expired (SenderConfig.RTO, 200 ms by default;
// SetRTT sets it to twice the carrier's measured RTT), or when a chunk
// sent more than RTO/4 after it was acknowledged and it was not (fast
// retransmission, robust to a little reordering). An ack can only
// describe the 65 chunks from its Next on, so only those are ever sent
// again: while a hole is being repaired, new chunks keep flowing, and the
// chunks after them are acknowledged once the hole is filled instead of
// being resent blindly.
//
// # Timeouts
//
// When no ack acknowledged a new chunk for SenderConfig.Timeout (5 s by
// default), the Sender fails: Err wraps ErrTimeout and it sends nothing
// more. The Receiver has no timer; the caller gives up on it when it
// wishes.
//
// # Hostile input
//
// The receiver allocates the blob (offer.Size bytes) once, after Validate
// checked the offer against the caller's limit, and Decompress never
// inflates more than the announced raw size plus one byte, so neither a
// lying offer nor a decompression bomb can make it allocate more. On the
// steady paths (Sender.Next with room in dst, OnAck, Receiver.OnChunk,
// Ack, and the encoders and decoders) nothing is allocated; refusing a
// bad message allocates its error.
//
// # What it does not do
//
// Authentication is the carrier's: a chunk's bytes are stored as they
// come, so the carrier must drop forged datagrams before they reach the
// Receiver. The blob's meaning is the caller's: this package checks that
// it arrived whole and inflates to the announced size, not that it is a
// valid state (check the state's own checksum). It moves one blob one
// way; several transfers are several Senders and Receivers with distinct
// IDs. It does not adapt the rate to congestion: Rate is a cap, chosen by
// the caller.
package transfer
