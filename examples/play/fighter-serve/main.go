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

// game is the package this command builds for the browser.
const game = "github.com/rollstep/rollstep/examples/play/fighter"

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "TCP `address` to serve the page and the lobby on")
	flag.Parse()
	if err := serve(*addr); err != nil {
		fmt.Fprintln(os.Stderr, "fighter-serve:", err)
		os.Exit(1)
	}
}

// serve builds the site and serves it with the lobby until SIGINT or
// SIGTERM.
func serve(addr string) error {
	dir, err := os.MkdirTemp("", "fighter-serve")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := buildSite(dir); err != nil {
		return err
	}
	srv, err := lobby.NewServer(lobby.Config{Files: http.FileServer(http.Dir(dir))})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
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
	if err := hs.Serve(ln); err != http.ErrServerClosed {
		return err
	}
	return nil
}

// buildSite writes the page, the game compiled to wasm and Go's wasm
// loader into dir.
func buildSite(dir string) error {
	if err := os.WriteFile(filepath.Join(dir, "index.html"), indexHTML, 0o644); err != nil {
		return err
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "main.wasm"), game)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the game for the browser (run this command inside examples/play): %w", err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("finding Go's wasm loader: %w", err)
	}
	loader, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return fmt.Errorf("reading Go's wasm loader: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), loader, 0o644)
}
