// Package transporttest checks that an implementation of transport.Conn
// keeps the contract written on the interface, in the way testing/fstest
// checks an fs.FS and golang.org/x/net/nettest checks a net.Conn.
//
// # Using the suite
//
// An implementation's test calls TestConn with a function that makes a
// fresh, connected Pair for each subtest:
//
//  1. Make two Conns that can reach each other over a lossless, in-order
//     path: a transport/sim network with default links, or two sockets on
//     loopback.
//  2. Fill in the Addrs each side uses for the other.
//  3. Give a Settle function that lets datagrams in flight arrive:
//     advance virtual time, or wait briefly on a real network.
//  4. Register cleanup with t.Cleanup; the suite closes some Conns
//     itself, so Close may be called twice.
//
// The suite covers round trips in both directions, sender identity, order,
// empty and maximum-size datagrams, the size limit, that Send does not
// retain the caller's slice and Receive does not retain or overrun the
// caller's buffer, short buffers (the errors of both give the numbers in
// their messages), receiving with nothing pending, nil and
// empty arguments, and the semantics of Close. Failures name the subtest
// and compare got with want.
package transporttest
