package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/rollstep/rollstep/lobby"
)

// signalOptions is the parsed command line of rollstep signal.
type signalOptions struct {
	addr              string
	certFile, keyFile string
	static            string
	cfg               lobby.Config
}

// runSignal runs rollstep signal until it is interrupted (SIGINT,
// SIGTERM), and returns the exit code.
func runSignal(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runSignalContext(ctx, args, stdout, stderr)
}

// shutdownGrace is how long a stopping server waits for its connections
// to end before it closes them.
const shutdownGrace = 5 * time.Second

// runSignalContext is runSignal stopping when ctx is done. The first line
// it writes to stdout is "listening on URL", the WebSocket URL clients
// join at (port 0 picks a free port); the last is the counters.
func runSignalContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	opts, err := parseSignalFlags(args, stderr)
	if code, stop := flagsExit("signal", err, stderr); stop {
		return code
	}
	if opts.static != "" {
		opts.cfg.Files = http.FileServer(http.Dir(opts.static))
	}
	srv, err := lobby.NewServer(opts.cfg)
	if err != nil {
		fmt.Fprintf(stderr, "rollstep signal: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		fmt.Fprintf(stderr, "rollstep signal: %v\n", err)
		return 1
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 16 << 10}
	scheme := "ws"
	if opts.certFile != "" {
		scheme = "wss"
	}
	fmt.Fprintf(stdout, "listening on %s://%s/ws\n", scheme, ln.Addr())
	if opts.static != "" {
		web := "http"
		if scheme == "wss" {
			web = "https"
		}
		fmt.Fprintf(stdout, "serving %s at %s://%s/\n", opts.static, web, ln.Addr())
	}
	done := make(chan error, 1)
	go func() {
		if opts.certFile != "" {
			done <- hs.ServeTLS(ln, opts.certFile, opts.keyFile)
		} else {
			done <- hs.Serve(ln)
		}
	}()
	select {
	case err = <-done:
	case <-ctx.Done():
		srv.Drain()
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		_ = hs.Shutdown(sctx) // hijacked WebSockets are not waited for
		cancel()
		_ = hs.Close()
		err = <-done
	}
	st := srv.Stats()
	fmt.Fprintf(stdout, "matches made %d, connections refused %d, dropped %d\n", st.MatchesMade, st.Refused, st.Dropped)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "rollstep signal: %v\n", err)
		return 1
	}
	return 0
}

// parseSignalFlags parses the flags of rollstep signal.
func parseSignalFlags(args []string, stderr io.Writer) (signalOptions, error) {
	var o signalOptions
	fs := flag.NewFlagSet("rollstep signal", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: rollstep signal [flags]

Runs the signaling and matchmaking server of package lobby: clients join a
room over WebSocket at /ws, get their seats and the match's secret when
the room fills, and relay their WebRTC set-up to each other. /healthz and
/readyz are for load balancers.

flags:
`)
		fs.PrintDefaults()
	}
	origins := ""
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "TCP `address` to listen on (port 0: any free port)")
	fs.StringVar(&o.certFile, "tls-cert", "", "TLS certificate `file` (PEM): serve wss:// and https://; needs -tls-key")
	fs.StringVar(&o.keyFile, "tls-key", "", "TLS private key `file` (PEM)")
	fs.StringVar(&o.static, "static", "", "serve the files of `dir` at every other path (a browser game)")
	fs.StringVar(&origins, "origins", "", "comma-separated browser origin host `patterns` allowed besides this host")
	fs.IntVar(&o.cfg.MaxConns, "max-conns", 0, "most open connections (0: 20000)")
	fs.IntVar(&o.cfg.MaxRooms, "max-rooms", 0, "most rooms waiting to fill (0: 10000)")
	fs.IntVar(&o.cfg.Rate, "rate", 0, "messages a second one connection may send (0: 20)")
	fs.IntVar(&o.cfg.Burst, "burst", 0, "messages one connection may send at once (0: 60)")
	fs.DurationVar(&o.cfg.JoinTimeout, "join-timeout", 0, "time a new connection has to join (0: 10s)")
	fs.DurationVar(&o.cfg.IdleTimeout, "idle-timeout", 0, "close connections silent for this long (0: 90s)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, errUsage
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if (o.certFile == "") != (o.keyFile == "") {
		return o, errors.New("-tls-cert and -tls-key go together")
	}
	if origins != "" {
		o.cfg.OriginPatterns = strings.Split(origins, ",")
	}
	return o, nil
}
