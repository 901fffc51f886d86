package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/rollstep/rollstep/cmd/rollstep/internal/udpproxy"
	"github.com/rollstep/rollstep/transport/sim"
)

// proxyOptions is the parsed command line of rollstep proxy.
type proxyOptions struct {
	cfg      udpproxy.Config
	link     sim.LinkConfig // the impairments, before -direction applies them
	dir      string         // "both", "up" or "down"
	duration time.Duration  // zero: until interrupted
}

// errUsage marks a command-line error that has already been reported by
// the flag package, so that it is not printed twice.
var errUsage = errors.New("usage error")

// flagsExit is how a command whose flags failed to parse with err ends:
// stop reports that it must, with exit code 0 for -h and 2 for a usage
// error, which it reports on stderr unless the flag package has.
func flagsExit(cmd string, err error, stderr io.Writer) (code int, stop bool) {
	switch {
	case err == nil:
		return 0, false
	case errors.Is(err, flag.ErrHelp):
		return 0, true
	case !errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "rollstep %s: %v\n", cmd, err)
	}
	return 2, true
}

// runProxy runs rollstep proxy until it is interrupted (SIGINT, SIGTERM)
// or its -duration has passed, and returns the exit code: 0 on success, 1
// when the proxy failed, 2 for a usage error.
func runProxy(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runProxyContext(ctx, args, stdout, stderr)
}

// runProxyContext is runProxy stopping when ctx is done instead of on a
// signal. The first line it writes to stdout is "listening on ADDR", with
// the bound address, so that a script or a test can pass port 0; the last
// lines are the counters.
func runProxyContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	opts, err := parseProxyFlags(args, stderr)
	if code, stop := flagsExit("proxy", err, stderr); stop {
		return code
	}
	p, err := udpproxy.New(opts.cfg)
	if err != nil {
		fmt.Fprintf(stderr, "rollstep proxy: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "listening on %s\n", p.Addr())
	fmt.Fprintf(stdout, "forwarding to %s, impairing %s: %s, seed %d\n",
		opts.cfg.Upstream, describeDirection(opts.dir), describeLink(&opts.link), opts.cfg.Seed)
	if opts.duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.duration)
		defer cancel()
	}
	st, err := p.Run(ctx)
	writeProxyStats(stdout, &st)
	if err != nil {
		fmt.Fprintf(stderr, "rollstep proxy: %v\n", err)
		return 1
	}
	return 0
}

// parseProxyFlags parses the flags of rollstep proxy. It returns
// flag.ErrHelp for -h, errUsage for errors the flag package has reported
// on stderr, and otherwise an error naming the flag and its value.
func parseProxyFlags(args []string, stderr io.Writer) (proxyOptions, error) {
	fs := flag.NewFlagSet("rollstep proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: rollstep proxy -upstream HOST:PORT [flags]

Forwards UDP datagrams from clients to an upstream address and back,
applying seeded impairments (the same as transport/sim) in both directions,
each with its own random stream. Prints "listening on ADDR" first and the
counters at exit. Stops on SIGINT or SIGTERM, or after -duration.

flags:
`)
		fs.PrintDefaults()
	}
	var (
		o         proxyOptions
		impair    = registerLinkFlags(fs, "0s")
		bandwidth = fs.Int64("bandwidth", 0, "bandwidth cap in `bytes/s`, counting 28 bytes of IP+UDP header per datagram; 0 means none")
		queue     = fs.Int("queue", 0, "with -bandwidth, drop datagrams that would queue more than `bytes`; 0 means unbounded")
	)
	fs.StringVar(&o.cfg.Listen, "listen", udpproxy.DefaultListen, "UDP `address` clients send to; port 0 picks a free port")
	fs.StringVar(&o.cfg.Upstream, "upstream", "", "UDP `address` to forward to (required)")
	fs.StringVar(&o.dir, "direction", "both", "which `way` to impair: both, up (client to upstream) or down")
	fs.Uint64Var(&o.cfg.Seed, "seed", 1, "`seed` of every random choice")
	fs.DurationVar(&o.duration, "duration", 0, "stop after this `duration`; 0 means run until interrupted")
	fs.IntVar(&o.cfg.MaxClients, "max-clients", udpproxy.DefaultMaxClients, "serve at most `n` client addresses at once; a new one takes the place of one idle for 30 s, or is refused")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, errUsage
	}

	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (flags come as -name value)", fs.Arg(0))
	}
	if o.cfg.Upstream == "" {
		return o, errors.New("-upstream is required")
	}
	for _, a := range []struct{ name, addr string }{{"listen", o.cfg.Listen}, {"upstream", o.cfg.Upstream}} {
		if _, err := net.ResolveUDPAddr("udp", a.addr); err != nil {
			return o, fmt.Errorf("-%s %q: %v", a.name, a.addr, err)
		}
	}
	link, err := impair.link(visited(fs))
	if err != nil {
		return o, err
	}
	o.link = link
	switch {
	case *bandwidth < 0:
		return o, fmt.Errorf("-bandwidth %d: want bytes per second ≥ 0", *bandwidth)
	case *queue < 0:
		return o, fmt.Errorf("-queue %d: want bytes ≥ 0", *queue)
	case *queue > 0 && *bandwidth == 0:
		return o, fmt.Errorf("-queue %d: needs -bandwidth", *queue)
	case o.duration < 0:
		return o, fmt.Errorf("-duration %v: want a duration ≥ 0", o.duration)
	case o.cfg.MaxClients <= 0:
		return o, fmt.Errorf("-max-clients %d: want at least 1", o.cfg.MaxClients)
	}
	o.link.Bandwidth, o.link.QueueLimit = *bandwidth, *queue
	if err := checkLink(o.link); err != nil {
		return o, err
	}
	switch o.dir {
	case "both":
		o.cfg.Up, o.cfg.Down = o.link, o.link
	case "up":
		o.cfg.Up = o.link
	case "down":
		o.cfg.Down = o.link
	default:
		return o, fmt.Errorf("-direction %q: want both, up or down", o.dir)
	}
	return o, nil
}

// describeDirection says which way -direction impairs.
func describeDirection(dir string) string {
	switch dir {
	case "up":
		return "client to upstream only"
	case "down":
		return "upstream to client only"
	}
	return "both directions"
}

// describeLink returns the impairments of l on one line.
func describeLink(l *sim.LinkConfig) string {
	s := "latency " + l.Latency.String()
	s += ", loss " + strconv.FormatFloat(l.Loss, 'g', -1, 64)
	s += ", dup " + strconv.FormatFloat(l.Duplicate, 'g', -1, 64)
	s += ", reorder " + strconv.FormatFloat(l.Reorder, 'g', -1, 64)
	if l.Reorder > 0 {
		s += " by " + l.ReorderDelay.String()
	}
	if l.Bandwidth > 0 {
		s += ", bandwidth " + strconv.FormatInt(l.Bandwidth, 10) + " B/s"
		if l.QueueLimit > 0 {
			s += ", queue " + strconv.Itoa(l.QueueLimit) + " B"
		}
	}
	return s
}

// writeProxyStats writes the counters, one line per direction and one for
// the clients.
func writeProxyStats(w io.Writer, st *udpproxy.Stats) {
	for _, d := range []struct {
		name string
		s    *udpproxy.DirStats
	}{{"up  ", &st.Up}, {"down", &st.Down}} {
		s := d.s
		fmt.Fprintf(w, "%s: received %d (%d B), lost %d, overflow %d, duplicated %d, forwarded %d (%d B), discarded %d, write errors %d\n",
			d.name, s.Received.Packets, s.Received.Bytes, s.Lost.Packets, s.Overflow.Packets, s.Duplicated.Packets,
			s.Forwarded.Packets, s.Forwarded.Bytes, s.Discarded.Packets, s.WriteErrors)
	}
	fmt.Fprintf(w, "clients %d (%d expired), refused %d, read errors %d\n", st.Clients, st.Expired, st.Refused.Packets, st.ReadErrors)
}
