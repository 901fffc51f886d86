package replay

import "github.com/rollstep/rollstep/core"

// Unexported parts of the package that its tests use.

// HeaderSize is the size of a replay's header.
const HeaderSize = headerSize

// MaxFrames is the most frames a replay holds.
const MaxFrames = maxFrames

// Encode re-encodes rp, which gives the bytes it was opened from.
func Encode[S any, I comparable](rp *Replay[S, I]) []byte {
	b := rp.b // encode sets header fields; leave rp's alone
	return b.encode()
}

// Verify re-simulates the opened rp with game, as VerifyData does after
// Open.
func Verify[S any, I comparable](rp *Replay[S, I], game core.Game[S, I]) error {
	return rp.verify(game)
}
