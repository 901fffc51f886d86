package dtls

import "bytes"

// Offsets in a datagram that starts with an unfragmented DTLS handshake
// record (RFC 6347 §4.1, §4.2.2): a 13-byte record header, a 12-byte
// handshake header, then the message body.
const (
	recordHandshake  = 22
	msgClientHello   = 1
	msgHelloVerify   = 3
	handshakeBody    = recordHeader + 12
	helloVerifyMinSz = handshakeBody + 3 // server_version, cookie length
	clientHelloSID   = handshakeBody + 2 + 32
)

// handshakeMessage returns the body of the handshake message of type msg
// that datagram p starts with, when p's first record is an epoch-0
// handshake record holding that message whole, or nil.
func handshakeMessage(p []byte, msg byte) []byte {
	if len(p) < handshakeBody || p[0] != recordHandshake || p[3] != 0 || p[4] != 0 || p[recordHeader] != msg {
		return nil
	}
	rec := int(p[11])<<8 | int(p[12])
	h := p[recordHeader:]
	length := int(h[1])<<16 | int(h[2])<<8 | int(h[3])
	offset := int(h[6])<<16 | int(h[7])<<8 | int(h[8])
	frag := int(h[9])<<16 | int(h[10])<<8 | int(h[11])
	if offset != 0 || frag != length || rec < 12+length || len(p) < handshakeBody+length {
		return nil
	}
	return p[handshakeBody : handshakeBody+length]
}

// helloVerifyCookie returns the cookie of the HelloVerifyRequest datagram
// p starts with, or nil.
func helloVerifyCookie(p []byte) []byte {
	b := handshakeMessage(p, msgHelloVerify)
	if len(b) < 3 || len(b) < 3+int(b[2]) || b[2] == 0 {
		return nil
	}
	return b[3 : 3+int(b[2])]
}

// clientHelloCookie returns the cookie of the ClientHello datagram p
// starts with (empty for a first ClientHello), and false when p does not
// start with a whole ClientHello.
func clientHelloCookie(p []byte) ([]byte, bool) {
	b := handshakeMessage(p, msgClientHello)
	sid := clientHelloSID - handshakeBody
	if len(b) < sid+1 {
		return nil, false
	}
	c := sid + 1 + int(b[sid]) // the cookie's length byte
	if len(b) < c+1 || len(b) < c+1+int(b[c]) {
		return nil, false
	}
	return b[c+1 : c+1+int(b[c])], true
}

// echoes reports whether ClientHello datagram p carries cookie, which the
// listener sent to p's source in a HelloVerifyRequest: the source
// receives at its address, so it is no spoofer.
func echoes(p, cookie []byte) bool {
	c, ok := clientHelloCookie(p)
	return ok && len(cookie) > 0 && bytes.Equal(c, cookie)
}
