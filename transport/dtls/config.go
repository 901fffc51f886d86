package dtls

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	piondtls "github.com/pion/dtls/v3"

	"github.com/rollstep/rollstep/transport"
)

// The defaults of the zero fields of a Config.
const (
	defaultHandshakeTimeout   = 5 * time.Second
	defaultFlightInterval     = 150 * time.Millisecond // pion's own default is 1 s
	defaultMaxHandshakes      = 16
	defaultMaxHandshakesPerIP = 4
	defaultMaxPeers           = 64
	defaultQueueLen           = 256
)

// Fingerprint is the SHA-256 digest of a certificate's DER encoding, the
// value a peer is pinned to in certificate mode.
type Fingerprint [sha256.Size]byte

// FingerprintOf returns the fingerprint of the leaf (first) certificate
// of cert, or the zero Fingerprint if cert has none.
func FingerprintOf(cert tls.Certificate) Fingerprint {
	if len(cert.Certificate) == 0 {
		return Fingerprint{}
	}
	return sha256.Sum256(cert.Certificate[0])
}

// String returns the fingerprint in lower-case hex.
func (f Fingerprint) String() string { return hex.EncodeToString(f[:]) }

// Config configures a Conn. Exactly one of PSK and Certificate must be
// set; the other fields may be zero, which means their defaults.
type Config struct {
	// PSK selects pre-shared-key mode and returns the key for an
	// identity: on a listening Conn, the identity a client presents
	// (look up the key of that player's match); on a dialing Conn, the
	// hint the server sent, or nil. Keys should be fresh per match, from
	// the matchmaker. An error aborts the handshake.
	PSK func(identity []byte) ([]byte, error)
	// PSKIdentity is, when dialing, the identity presented to the server
	// (required with PSK); when listening, an optional hint sent to
	// clients.
	PSKIdentity []byte

	// Certificate selects certificate mode: it is presented to the peer,
	// and the peer must present one whose Fingerprint is in
	// PeerFingerprints. Chains and host names are not checked, only the
	// pin, so self-signed certificates are the norm.
	Certificate *tls.Certificate
	// PeerFingerprints lists the certificates accepted from peers. It must
	// not be empty in certificate mode.
	PeerFingerprints []Fingerprint

	// CipherSuites overrides the suites offered. Nil means
	// TLS_PSK_WITH_AES_128_CCM_8 in PSK mode and
	// TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8 in certificate mode: their
	// 29-byte record overhead keeps a transport.MaxDatagram datagram
	// within 1232 bytes of UDP payload, which fits the IPv6 minimum MTU of
	// 1280 unfragmented; the GCM suites' 37 bytes do not (see doc.go).
	CipherSuites []piondtls.CipherSuiteID

	// HandshakeTimeout bounds every handshake, on both sides; 0 means
	// 5 s.
	HandshakeTimeout time.Duration
	// FlightInterval is how long a handshake flight waits for an answer
	// before it is sent again; 0 means 150 ms (pion's own default is 1 s),
	// or HandshakeTimeout if that is shorter. It must be at most
	// HandshakeTimeout.
	FlightInterval time.Duration
	// MaxHandshakes bounds the handshakes a listening Conn runs at once;
	// ClientHellos beyond it are dropped and retried by the client. 0
	// means 16.
	MaxHandshakes int
	// MaxHandshakesPerIP bounds the concurrent handshakes from one IP
	// address (any port) on a listening Conn, so that one host cannot take
	// every slot; 0 means 4. Raise it when many players share one public
	// address (a LAN event behind one NAT).
	MaxHandshakesPerIP int
	// MaxPeers bounds the associations a listening Conn keeps; 0 means 64.
	MaxPeers int
	// QueueLen is how many received datagrams wait for Receive before the
	// oldest is dropped; 0 means 256.
	QueueLen int
	// FirstPeer is the Addr of the first association (the server, when
	// dialing); later associations count up from it. Zero is a valid ID.
	FirstPeer transport.Addr
}

// validate reports the first rule that c breaks, as a
// *transport.ConfigError, or nil. Dial additionally requires PSKIdentity in
// PSK mode. validate does not modify c.
func (c *Config) validate() error {
	switch {
	case c.PSK == nil && c.Certificate == nil:
		return configError("PSK", "neither PSK nor Certificate is set")
	case c.PSK != nil && c.Certificate != nil:
		return configError("Certificate", "PSK and Certificate are both set; choose one")
	case c.Certificate != nil && len(c.Certificate.Certificate) == 0:
		return configError("Certificate", "has no certificate")
	case c.Certificate != nil && len(c.PeerFingerprints) == 0:
		return configError("PeerFingerprints", "empty in certificate mode: no peer could be accepted")
	case c.HandshakeTimeout < 0:
		return configError("HandshakeTimeout", c.HandshakeTimeout.String()+" is negative")
	case c.FlightInterval < 0:
		return configError("FlightInterval", c.FlightInterval.String()+" is negative")
	case c.MaxHandshakes < 0:
		return configError("MaxHandshakes", strconv.Itoa(c.MaxHandshakes)+" is negative")
	case c.MaxHandshakesPerIP < 0:
		return configError("MaxHandshakesPerIP", strconv.Itoa(c.MaxHandshakesPerIP)+" is negative")
	case c.MaxPeers < 0:
		return configError("MaxPeers", strconv.Itoa(c.MaxPeers)+" is negative")
	case c.QueueLen < 0:
		return configError("QueueLen", strconv.Itoa(c.QueueLen)+" is negative")
	}
	d := c.withDefaults()
	if d.FlightInterval > d.HandshakeTimeout {
		return configError("FlightInterval", d.FlightInterval.String()+" exceeds HandshakeTimeout "+d.HandshakeTimeout.String())
	}
	return nil
}

// configError returns the *transport.ConfigError for field of a Config.
func configError(field, reason string) error {
	return &transport.ConfigError{Field: "dtls.Config." + field, Reason: reason}
}

// withDefaults returns a copy of c with zero fields set to defaults.
func (c Config) withDefaults() Config {
	if c.HandshakeTimeout == 0 {
		c.HandshakeTimeout = defaultHandshakeTimeout
	}
	if c.FlightInterval == 0 {
		c.FlightInterval = min(defaultFlightInterval, c.HandshakeTimeout)
	}
	if c.MaxHandshakes == 0 {
		c.MaxHandshakes = defaultMaxHandshakes
	}
	if c.MaxHandshakesPerIP == 0 {
		c.MaxHandshakesPerIP = defaultMaxHandshakesPerIP
	}
	if c.MaxPeers == 0 {
		c.MaxPeers = defaultMaxPeers
	}
	if c.QueueLen == 0 {
		c.QueueLen = defaultQueueLen
	}
	if c.CipherSuites == nil {
		if c.PSK != nil {
			c.CipherSuites = []piondtls.CipherSuiteID{piondtls.TLS_PSK_WITH_AES_128_CCM_8}
		} else {
			c.CipherSuites = []piondtls.CipherSuiteID{piondtls.TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8}
		}
	}
	c.PeerFingerprints = append([]Fingerprint(nil), c.PeerFingerprints...)
	c.PSKIdentity = append([]byte(nil), c.PSKIdentity...)
	return c
}

// options translates c (with defaults applied) into pion options shared
// by both sides.
func (c *Config) options() []piondtls.Option {
	opts := []piondtls.Option{
		piondtls.WithCipherSuites(c.CipherSuites...),
		piondtls.WithFlightInterval(c.FlightInterval),
		piondtls.WithExtendedMasterSecret(piondtls.RequireExtendedMasterSecret),
	}
	if c.PSK != nil {
		opts = append(opts, piondtls.WithPSK(c.PSK))
		if len(c.PSKIdentity) > 0 {
			opts = append(opts, piondtls.WithPSKIdentityHint(c.PSKIdentity))
		}
		return opts
	}
	pins := c.PeerFingerprints
	return append(opts,
		piondtls.WithCertificates(*c.Certificate),
		// Chains are not verified: the pin below is the whole check.
		piondtls.WithInsecureSkipVerify(true),
		piondtls.WithVerifyPeerCertificate(func(raw [][]byte, _ [][]*x509.Certificate) error {
			return checkPin(raw, pins)
		}),
	)
}

// checkPin accepts a peer whose leaf certificate has a pinned fingerprint.
func checkPin(raw [][]byte, pins []Fingerprint) error {
	if len(raw) == 0 {
		return fmt.Errorf("%w: the peer sent none", ErrPinMismatch)
	}
	got := Fingerprint(sha256.Sum256(raw[0]))
	for _, p := range pins {
		if p == got {
			return nil
		}
	}
	return fmt.Errorf("%w: %v", ErrPinMismatch, got)
}
