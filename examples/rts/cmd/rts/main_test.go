package main

import (
	"bytes"
	"fmt"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/rollstep/rollstep/internal/testenv"
)

func TestSimModeReports(t *testing.T) {
	var out, errs bytes.Buffer
	code := run([]string{"-peers", "3", "-units", "500", "-turns", "200", "-latency", "60ms", "-jitter", "10ms", "-loss", "0.05", "-seed", "3"}, &out, &errs)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out.String(), errs.String())
	}
	t.Log("\n" + out.String())
	for _, want := range []string{"peer 0: upload ", "peer 2: upload ", "stall ", "(all peers agree)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-nosuchflag"},
		{"extra"},
		{"-turns", "0"},
		{"-every", "0"},
		{"-peer", "127.0.0.1:1,127.0.0.1:2", "-player", "1"}, // no -token
		{"-peer", "127.0.0.1:1,127.0.0.1:2", "-player", "1", "-token", "zz"},
		{"-open", "1"}, // not over UDP
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errs bytes.Buffer
			if code := run(args, &out, &errs); code != 2 {
				t.Errorf("exit %d, want 2; stderr %q", code, errs.String())
			}
		})
	}
	var out, errs bytes.Buffer
	if code := run([]string{"-peers", "1"}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "bad setup") {
		t.Errorf("-peers 1: exit %d, stderr %q; want 1 and a bad setup", code, errs.String())
	}
}

// freeAddrs returns n loopback UDP addresses that were free a moment ago.
func freeAddrs(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	for range n {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Skip("no loopback UDP:", err)
		}
		out = append(out, c.LocalAddr().String())
		c.Close()
	}
	return out
}

// playLoopback runs one player of a match per args (each with -player i
// added) at once, each its own socket, over loopback UDP on the wall
// clock, and requires every one to exit 0 and print the same checksum. It
// returns what each printed.
func playLoopback(t *testing.T, args func(i int) []string) []string {
	t.Helper()
	outs := make([]bytes.Buffer, 3)
	codes := make([]int, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			var errs bytes.Buffer
			codes[i] = run(append(args(i), "-player", fmt.Sprint(i)), &outs[i], &errs)
			outs[i].Write(errs.Bytes())
		})
	}
	wg.Wait()
	sum := regexp.MustCompile(`checksum (0x[0-9a-f]+)`)
	var first string
	printed := make([]string, 3)
	for i := range 3 {
		printed[i] = outs[i].String()
		t.Logf("player %d:\n%s", i, printed[i])
		m := sum.FindStringSubmatch(printed[i])
		if codes[i] != 0 || m == nil {
			t.Fatalf("player %d: exit %d, no checksum", i, codes[i])
		}
		if first == "" {
			first = m[1]
		} else if m[1] != first {
			t.Errorf("player %d: checksum %s, player 0 %s", i, m[1], first)
		}
	}
	return printed
}

// TestUDPModeAgrees plays three real processes' worth of players (three
// goroutines of this test, each with its own socket) over loopback UDP on
// the wall clock, 60 turns of 10 ms (300 in the soak run), and checks they
// print the same checksum.
func TestUDPModeAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and the wall clock")
	}
	addrs := strings.Join(freeAddrs(t, 3), ",")
	playLoopback(t, func(int) []string {
		return []string{"-peer", addrs, "-token", "5e55101e7e57c0de",
			"-units", "1500", "-turns", testenv.Pick("60", "300"), "-turn", "10ms", "-timeout", "30s"}
	})
}

// TestUDPOpenSeatDropIn plays over loopback UDP on the wall clock a match
// of three seats whose seat 2 is open: players 0 and 1 start it without
// waiting, and player 2 drops in with -rejoin while it runs. All three
// print the same checksum, and each reports the drop-in.
func TestUDPOpenSeatDropIn(t *testing.T) {
	if testing.Short() {
		t.Skip("real sockets and the wall clock")
	}
	addrs := strings.Join(freeAddrs(t, 3), ",")
	outs := playLoopback(t, func(i int) []string {
		args := []string{"-peer", addrs, "-token", "5e55101e7e57c0de",
			"-units", "1500", "-turns", "400", "-turn", "10ms", "-timeout", "30s", "-open", "2"}
		if i == 2 {
			args = append(args, "-rejoin")
		}
		return args
	})
	for i, out := range outs {
		want := "player 2 joined: plays from turn "
		if i == 2 {
			want = "joined the running match: plays from turn "
		}
		if !strings.Contains(out, want) {
			t.Errorf("player %d does not report the drop-in (%q)", i, want)
		}
	}
}
