//go:build !js

// Command fighter-web is the fighter in the browser: run natively, it
// builds itself for GOOS=js GOARCH=wasm, serves the page, the wasm and
// rollstep's lobby on one port, and prints the URL to open in two browser
// tabs (or on two machines); compiled for js, it is the game the page runs
// (game_js.go). The two tabs meet in the lobby's room, connect over WebRTC,
// and play a Rollback match on a canvas.
//
//	go run ./examples/fighter/cmd/fighter-web -addr 127.0.0.1:8080
package main

import (
	_ "embed"

	"github.com/rollstep/rollstep/examples/internal/webdemo"
)

//go:embed index.html
var indexHTML []byte

// self is this command's package, which it builds for the browser.
const self = "github.com/rollstep/rollstep/examples/fighter/cmd/fighter-web"

func main() { webdemo.Main("fighter-web", self, indexHTML) }
