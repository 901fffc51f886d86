package engine

// MaxInputSize is the largest input type, in bytes, a match may send,
// control word included: the transport guarantees that one input always
// fits in a packet next to a message's largest fixed part, and replays
// store inputs of at most this size. Engines send every input in a Slot,
// with an 8-byte control word, so a game's own input type may have at
// most MaxInputSize-8 bytes (NewEngine refuses a larger one).
const MaxInputSize = 512
