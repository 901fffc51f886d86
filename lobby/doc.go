// Package lobby is rollstep's signaling and matchmaking server and its
// client: how players who cannot reach each other's address find each
// other, get their seats and the match's secret, and exchange what a
// WebRTC connection needs to open (transport/webrtc).
//
// # The server
//
// A Server is an http.Handler; `rollstep signal` runs one. Clients connect
// over WebSocket at /ws and join a room by name (1 to 64 ASCII letters,
// digits, '.', '_' and '-') with a match size of 2 to 16. Rooms make
// matches of the next size clients: when the room is full, each
// member gets its seat (0..size-1, in join order), the size, and a fresh
// random 64-bit secret for transport.Config.Token, and the room starts
// over empty. The members then relay signal messages to each other by
// seat, and the server tells the others when one leaves. It keeps nothing
// on disk and nothing about a match once its members have gone.
//
// What a client can make it do is bounded: connections (Config.MaxConns),
// rooms waiting to fill (MaxRooms), message size (MaxSignal), messages a
// second (Rate, Burst), time to join and idle time, and the messages
// queued to a client (one too slow to take them is dropped). A client that
// breaks a rule is closed with a policy-violation status; before it has
// joined, its only answer is that close, with a reason no longer than
// what it sent, so the server cannot be used to amplify traffic. /healthz
// answers while the process runs; /readyz answers 503 when the server is
// full or draining (Server.Drain), for a load balancer.
//
// Several servers behind a load balancer serve one region if every
// connection for a room reaches the same server: route /ws by the room
// name (a query parameter or path the game adds, hashed by the balancer),
// or give each server its own rooms. Players whose NATs allow no direct
// path need a TURN relay (coturn in production), configured as an ICE
// server in transport/webrtc; the lobby relays only the set-up messages.
//
// # The client
//
// Join connects, joins and waits for the match; the Match it returns is
// the member's seat, size and token, and a Signaler for transport/webrtc
// (Send and Receive by seat). It pings the server so that a member waiting
// for its match is not idle. The secret crosses the WebSocket: use wss://
// (a TLS certificate on the server) beyond a test. The package builds for
// GOOS=js, where Join uses the browser's WebSocket.
//
// # Protocol
//
// One JSON object per WebSocket text message, with a "type": join
// {"room","size"}, signal {"to","data"} and ping from the client; queued,
// match {"seat","size","token"}, signal {"from","data"}, left {"seat"} and
// error {"error"} from the server. data is base64; the token is 16 hex
// digits, as a browser's numbers have 53 bits.
package lobby
