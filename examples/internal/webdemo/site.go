package webdemo

import (
	"context"
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

// Build writes into dir the page index (as index.html), the package pkg
// compiled for the browser (main.wasm) and Go's wasm loader
// (wasm_exec.js). The go command runs in the current directory, so pkg
// must belong to the module there.
func Build(dir, pkg string, index []byte) error {
	if err := os.WriteFile(filepath.Join(dir, "index.html"), index, 0o644); err != nil {
		return err
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "main.wasm"), pkg)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building %s for the browser: %w", pkg, err)
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

// Handler returns the lobby server that also serves the files of dir.
func Handler(dir string) (*lobby.Server, error) {
	return lobby.NewServer(lobby.Config{Files: http.FileServer(http.Dir(dir))})
}

// Serve builds pkg's site (see Build) in a temporary directory and serves
// it with the lobby on addr until SIGINT or SIGTERM, telling announce the
// address it listens on first.
func Serve(addr, pkg string, index []byte, announce func(net.Addr)) error {
	dir, err := os.MkdirTemp("", "rollstep-web")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := Build(dir, pkg, index); err != nil {
		return err
	}
	srv, err := Handler(dir)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	announce(ln.Addr())
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

// Main is a web demo command's main: it serves pkg's site with the lobby
// on the address of its -addr flag, printing the URL to open, and exits 1
// with the error when it cannot.
func Main(command, pkg string, index []byte) {
	addr := flag.String("addr", "127.0.0.1:8080", "TCP `address` to serve the page and the lobby on")
	flag.Parse()
	err := Serve(*addr, pkg, index, func(a net.Addr) {
		fmt.Printf("open http://%s/?room=fighter in two browser tabs (add &bot=1 for a bot player)\n", a)
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", command, err)
		os.Exit(1)
	}
}
