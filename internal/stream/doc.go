// Package stream is the host side of the spectator stream, shared by
// every session mode: a session that streams to spectators keeps them as
// extra peers of its endpoint and, after every update, sends each one the
// confirmed slots (inputs with their control words) from the frame it
// acknowledged, held back by a stream delay, and drops a spectator that
// lags too far. The host never waits for a spectator. The viewer side is
// rollback.Spectator, which plays any mode's stream.
package stream
