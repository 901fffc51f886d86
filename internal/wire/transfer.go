package wire

import "strconv"

// MaxTransferPayload is the most bytes one Transfer packet carries: a
// datagram of MaxDatagram bytes less the short header and the tag.
const MaxTransferPayload = MaxDatagram - shortHeader - TagSize

// AppendTransfer appends a Transfer packet carrying payload, one message
// of a state transfer (internal/transfer's offers, chunks and acks, and
// the rejoin's refusals), authenticated with key: the per-direction key,
// since transfers run only between connected peers. It fails with an
// *EncodeError for an empty payload or one over MaxTransferPayload.
func AppendTransfer(dst []byte, key Key, seq uint64, payload []byte) ([]byte, error) {
	if len(payload) == 0 || len(payload) > MaxTransferPayload {
		return dst, &EncodeError{Field: "payload", Reason: strconv.Itoa(len(payload)) + " bytes is outside 1.." + strconv.Itoa(MaxTransferPayload)}
	}
	start := len(dst)
	dst = appendHeader(dst, TypeTransfer, 0, seq)
	dst = append(dst, payload...)
	return appendTag(dst, key, seq, start), nil
}

// DecodeTransfer decodes datagram p, which must be a Transfer packet
// authenticated with key whose sequence number window expands, and
// returns its payload, which aliases p. The payload is never empty. It
// never allocates but for an error.
func DecodeTransfer(p []byte, key Key, window *ReplayWindow) (Header, []byte, error) {
	r := reader{b: p}
	hd, _ := r.expect(TypeTransfer, key, window)
	if r.err != nil {
		return Header{}, nil, r.err
	}
	payload := r.b[r.off:]
	if len(payload) == 0 {
		r.fail(r.off, "payload", ErrTruncated)
		return Header{}, nil, r.err
	}
	return hd, payload, nil
}
