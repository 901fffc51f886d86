// Package hostile is the attacker of the module's hostile-network tests: a
// set of phases, each a way to abuse a peer's socket, that a test runs
// against a live match while it checks that the match keeps its frame
// rate, its peers agree, and nothing answers an unknown source.
//
// A phase makes datagrams from what it overheard (Capture, fed by Tap) and
// from a seeded random source: random bytes, random bodies behind valid
// headers, mutations of captured packets, verbatim replays, oversized
// datagrams, reflections of the victim's own packets, and floods of
// captured Hellos. Given a Signer (the test holds the match's keys, as a
// dishonest participant would), the mutations are signed again so that
// they reach the decoders instead of dying at the tag. DTLSPhases adds
// what only a DTLS transport meets (plaintext epoch-0 records, mutated
// records, cookie-less ClientHello floods), from captures a PacketTap
// takes below the encryption.
//
// Unreachable fails a Conn's sends as a kernel does while a link is down.
//
// The package does no I/O of its own (PacketTap only records what passes
// through it) and reads no clock: the test sends
// what a phase makes, on the network it chose (transport/sim on virtual
// time, or real sockets).
package hostile
