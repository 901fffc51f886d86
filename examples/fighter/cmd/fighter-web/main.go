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
	"context"
	_ "embed"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/rollstep/rollstep/lobby"
)

//go:embed index.html
var indexHTML []byte

// self is this command's package, which it builds for the browser.
const self = "github.com/rollstep/rollstep/examples/fighter/cmd/fighter-web"

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "TCP `address` to serve the page and the lobby on")
	flag.Parse()
	dir, err := os.MkdirTemp("", "fighter-web")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	if err := buildSite(dir); err != nil {
		fail(err)
	}
	srv, err := lobby.NewServer(lobby.Config{Files: http.FileServer(http.Dir(dir))})
	if err != nil {
		fail(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fail(err)
	}
	fmt.Printf("open http://%s/?room=fighter in two browser tabs (add &bot=1 for a bot player)\n", ln.Addr())
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Drain()
		_ = hs.Close()
	}()
	if err := hs.Serve(ln); err != nil && err != http.ErrServerClosed {
		fail(err)
	}
}

// buildSite writes the page, the game compiled to wasm and Go's wasm
// loader into dir.
func buildSite(dir string) error {
	if err := os.WriteFile(filepath.Join(dir, "index.html"), indexHTML, 0o644); err != nil {
		return err
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "main.wasm"), self)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the game for the browser: %w", err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("finding Go's wasm loader: %w", err)
	}
	loader, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return fmt.Errorf("reading the wasm loader of Go: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), loader, 0o644)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "fighter-web:", err)
	os.Exit(1)
}
