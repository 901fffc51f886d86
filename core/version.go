package core

import "crypto/sha256"

// GameVersion returns the first 16 bytes of the SHA-256 of version: the
// game-build identifier that a session's Config.Game, and a replay's
// Config.Game take, so that peers (and replays) of different
// builds refuse each other. Use a string that changes whenever the
// simulation does, such as "fighter 1.4 sim 7".
func GameVersion(version string) [16]byte {
	sum := sha256.Sum256([]byte(version))
	return [16]byte(sum[:16])
}
