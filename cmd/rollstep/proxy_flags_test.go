package main

import (
	"bytes"
	"errors"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rollstep/rollstep/cmd/rollstep/internal/udpproxy"
	"github.com/rollstep/rollstep/transport"
	"github.com/rollstep/rollstep/transport/sim"
)

func TestParseProxyFlags(t *testing.T) {
	const ms = time.Millisecond
	up := []string{"-upstream", "127.0.0.1:9000"}
	with := func(args ...string) []string { return append(append([]string{}, up...), args...) }
	none := sim.LinkConfig{ReorderDelay: 20 * ms} // the -reorder-delay default
	full := sim.LinkConfig{
		Latency:      sim.Latency{Base: 50 * ms, Jitter: 10 * ms, Spike: sim.Spike{Height: 400 * ms, Length: 600 * ms, Period: 2 * time.Second}},
		Loss:         0.05,
		Duplicate:    0.01,
		Reorder:      0.01,
		ReorderDelay: 30 * ms,
		Bandwidth:    64000,
		QueueLimit:   8000,
	}
	jitter := sim.LinkConfig{Latency: sim.Latency{Base: 50 * ms, Jitter: 5 * ms}, ReorderDelay: 20 * ms}
	spike := sim.LinkConfig{Latency: sim.Latency{Base: 20 * ms, Spike: sim.Spike{Height: time.Second, Length: 100 * ms, Period: 5 * time.Second}}, ReorderDelay: 20 * ms}
	half := sim.LinkConfig{Loss: 0.5, ReorderDelay: 20 * ms}
	for _, tc := range []struct {
		name     string
		args     []string
		up, down sim.LinkConfig
		seed     uint64
		duration time.Duration
	}{
		{"Defaults", up, none, none, 1, 0},
		{
			"Full",
			with("-listen", "127.0.0.1:0", "-latency", "50ms±10ms", "-spike", "400ms/600ms/2s",
				"-loss", "0.05", "-dup", "0.01", "-reorder", "0.01", "-reorder-delay", "30ms",
				"-bandwidth", "64000", "-queue", "8000", "-seed", "42", "-duration", "10s"),
			full, full, 42, 10 * time.Second,
		},
		{"JitterFlag", with("-latency", "50ms", "-jitter", "5ms"), jitter, jitter, 1, 0},
		{"JitterTilde", with("-latency", "50ms~5ms"), jitter, jitter, 1, 0},
		{"SpikeInLatency", with("-latency", "20ms spike 1s/100ms/5s"), spike, spike, 1, 0},
		{"UpOnly", with("-loss", "0.5", "-direction", "up"), half, sim.LinkConfig{}, 1, 0},
		{"DownOnly", with("-loss", "0.5", "-direction", "down"), sim.LinkConfig{}, half, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			o, err := parseProxyFlags(tc.args, &stderr)
			if err != nil {
				t.Fatalf("got %v (stderr %q), want no error", err, stderr.String())
			}
			if !reflect.DeepEqual(o.cfg.Up, tc.up) {
				t.Errorf("Up: got %+v, want %+v", o.cfg.Up, tc.up)
			}
			if !reflect.DeepEqual(o.cfg.Down, tc.down) {
				t.Errorf("Down: got %+v, want %+v", o.cfg.Down, tc.down)
			}
			if o.cfg.Seed != tc.seed || o.duration != tc.duration || o.cfg.Upstream != "127.0.0.1:9000" {
				t.Errorf("got seed %d, duration %v, upstream %q; want %d, %v, 127.0.0.1:9000", o.cfg.Seed, o.duration, o.cfg.Upstream, tc.seed, tc.duration)
			}
			if o.cfg.MaxClients != udpproxy.DefaultMaxClients {
				t.Errorf("MaxClients: got %d, want %d", o.cfg.MaxClients, udpproxy.DefaultMaxClients)
			}
		})
	}
}

func TestParseProxyFlagsErrors(t *testing.T) {
	up := []string{"-upstream", "127.0.0.1:9000"}
	with := func(args ...string) []string { return append(append([]string{}, up...), args...) }
	for _, tc := range []struct {
		name string
		args []string
		want string // in the error message
		is   error  // matched with errors.Is, if not nil
		flag string // in stderr, for errors the flag package reports
	}{
		{name: "NoUpstream", args: nil, want: "-upstream is required"},
		{name: "BadUpstream", args: []string{"-upstream", "127.0.0.1:99999"}, want: `-upstream "127.0.0.1:99999"`},
		{name: "BadListen", args: with("-listen", "nowhere"), want: `-listen "nowhere"`},
		{name: "NegativeLoss", args: with("-loss", "-0.1"), want: "-loss -0.1: want a probability in [0, 1]"},
		{name: "LossAboveOne", args: with("-loss", "1.5"), want: "-loss 1.5: want a probability in [0, 1]"},
		{name: "LossNaN", args: with("-loss", "NaN"), want: "-loss NaN: want a probability"},
		{name: "Dup", args: with("-dup", "2"), want: "-dup 2: want a probability"},
		{name: "Reorder", args: with("-reorder", "-1"), want: "-reorder -1: want a probability"},
		{name: "SpikeOnePart", args: with("-spike", "400ms"), want: "-spike: ", is: errSyntax},
		{name: "SpikeTwoParts", args: with("-spike", "400ms/600ms"), want: "want H/S/P", is: errSyntax},
		{name: "SpikeLongerThanPeriod", args: with("-spike", "400ms/3s/2s"), is: transport.ErrInvalidConfig},
		{name: "SpikeZeroPeriod", args: with("-spike", "400ms/0s/0s"), is: transport.ErrInvalidConfig},
		{name: "SpikeTwice", args: with("-latency", "1ms spike 1s/1s/2s", "-spike", "1s/1s/2s"), want: "already has a spike"},
		{name: "LatencySyntax", args: with("-latency", "fast"), want: "-latency: ", is: errSyntax},
		{name: "JitterAboveBase", args: with("-latency", "10ms", "-jitter", "20ms"), is: transport.ErrInvalidConfig},
		{name: "JitterTwice", args: with("-latency", "50ms±10ms", "-jitter", "5ms"), want: "already has a jitter"},
		{name: "ReorderDelay", args: with("-reorder-delay", "0s"), want: "-reorder-delay 0s: want a positive duration"},
		{name: "NegativeBandwidth", args: with("-bandwidth", "-5"), want: "-bandwidth -5"},
		{name: "QueueWithoutBandwidth", args: with("-queue", "100"), want: "-queue 100: needs -bandwidth"},
		{name: "NegativeQueue", args: with("-bandwidth", "100", "-queue", "-1"), want: "-queue -1"},
		{name: "NegativeDuration", args: with("-duration", "-1s"), want: "-duration -1s"},
		{name: "MaxClients", args: with("-max-clients", "0"), want: "-max-clients 0: want at least 1"},
		{name: "Direction", args: with("-direction", "sideways"), want: `-direction "sideways": want both, up or down`},
		{name: "Positional", args: with("extra"), want: `unexpected argument "extra"`},
		{name: "UnknownFlag", args: with("-netem"), is: errUsage, flag: "flag provided but not defined: -netem"},
		{name: "BadFloat", args: with("-loss", "lots"), is: errUsage, flag: `invalid value "lots" for flag -loss`},
		{name: "BadDuration", args: with("-duration", "forever"), is: errUsage, flag: "-duration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			_, err := parseProxyFlags(tc.args, &stderr)
			if err == nil {
				t.Fatal("got no error")
			}
			if tc.want != "" && !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %q, want it to contain %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("got %v, want errors.Is %v", err, tc.is)
			}
			if tc.flag != "" && !strings.Contains(stderr.String(), tc.flag) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tc.flag)
			}
		})
	}
}

// TestRunProxyExitCodes checks the exit codes of rollstep proxy through
// the command's dispatcher: 0 for -h, 2 for usage errors, 1 when the proxy
// cannot start.
func TestRunProxyExitCodes(t *testing.T) {
	busy, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"Help", []string{"proxy", "-h"}, 0, "usage: rollstep proxy"},
		{"BadLoss", []string{"proxy", "-upstream", "127.0.0.1:9000", "-loss", "2"}, 2, "rollstep proxy: -loss 2: want a probability in [0, 1]\n"},
		{"BadSpike", []string{"proxy", "-upstream", "127.0.0.1:9000", "-spike", "400ms"}, 2, "want H/S/P"},
		{"UnknownFlag", []string{"proxy", "-upstream", "127.0.0.1:9000", "-bogus"}, 2, "flag provided but not defined: -bogus"},
		{"NoUpstream", []string{"proxy"}, 2, "rollstep proxy: -upstream is required\n"},
		{"AddressInUse", []string{"proxy", "-upstream", "127.0.0.1:9000", "-listen", busy.LocalAddr().String()}, 1, "address already in use"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tc.args, &stdout, &stderr); code != tc.code {
				t.Fatalf("exit code: got %d, want %d (stderr %q)", code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Fatalf("stderr: got %q, want it to contain %q", stderr.String(), tc.stderr)
			}
		})
	}
}
