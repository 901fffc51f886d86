// Command fighter-serve puts the Ebitengine fighter in the browser: it
// builds ../fighter for GOOS=js GOARCH=wasm, serves the page, the wasm and
// rollstep's lobby on one port, and prints the URL to open in two tabs
// (or on two machines). The two pages meet in the lobby's room, connect
// over WebRTC and play each other; ?bot=1 lets a bot play a page's side
// and ?overlay=1 opens the network overlay (F1 toggles it). It needs no
// display and no cgo, so it runs on a headless server.
//
//	cd examples/play && go run ./fighter-serve -addr 127.0.0.1:8080
package main

import (
	_ "embed"

	"github.com/rollstep/rollstep/examples/internal/webdemo"
)

//go:embed index.html
var indexHTML []byte

// game is the package this command builds for the browser.
const game = "github.com/rollstep/rollstep/examples/play/fighter"

func main() { webdemo.Main("fighter-serve (run it inside examples/play)", game, indexHTML) }
