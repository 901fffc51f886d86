package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestMain lets the test binary run the command itself: a test starts it
// as a child process with ROLLSTEP_FIGHTER_MAIN set.
func TestMain(m *testing.M) {
	if os.Getenv("ROLLSTEP_FIGHTER_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// freePorts returns n distinct loopback UDP ports nobody uses right now.
// It holds each socket until all are drawn: a port closed at once may be
// drawn again (two processes of a test once got the same one).
func freePorts(t *testing.T, n int) []string {
	t.Helper()
	ports := make([]string, n)
	for i := range ports {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Skipf("no loopback UDP: %v", err)
		}
		defer c.Close()
		ports[i] = strconv.Itoa(c.LocalAddr().(*net.UDPAddr).Port)
	}
	return ports
}

// start runs the fighter command as a child process.
func start(t *testing.T, out *bytes.Buffer, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ROLLSTEP_FIGHTER_MAIN=1")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

var finalChecksum = regexp.MustCompile(`checksum: final (0x[0-9a-f]+)`)

// Two fighter processes over loopback UDP; player 1's is killed with
// SIGKILL mid-match and started again with -rejoin. Both finish the
// match, report the rejoin and print the same final checksum. Real
// processes run on the wall clock: the test sleeps to kill mid-match and
// to leave a downtime, and asserts nothing about time.
func TestRejoinAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10-second match between real processes")
	}
	t.Parallel() // the other real-process test waits on the wall clock too
	p := freePorts(t, 2)
	a, b := p[0], p[1]
	common := []string{"-frames", "600", "-seed", "4", "-token", "00112233445566ff", "-timeout", "60s"}
	p0 := append([]string{"-listen", "127.0.0.1:" + a, "-peer", "127.0.0.1:" + b, "-player", "0"}, common...)
	p1 := append([]string{"-listen", "127.0.0.1:" + b, "-peer", "127.0.0.1:" + a, "-player", "1"}, common...)
	var out0, out1, outKilled bytes.Buffer
	c0 := start(t, &out0, p0...)
	killed := start(t, &outKilled, p1...)
	time.Sleep(3 * time.Second) // into the match: the process dies mid-match
	if err := killed.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = killed.Wait()
	time.Sleep(time.Second) // the downtime
	c1 := start(t, &out1, append(p1, "-rejoin")...)
	err0, err1 := c0.Wait(), c1.Wait()
	if err0 != nil || err1 != nil {
		t.Fatalf("player 0: %v\n%s\nplayer 1 (rejoined): %v\n%s\nplayer 1 (killed):\n%s", err0, out0.String(), err1, out1.String(), outKilled.String())
	}
	s0, s1 := finalChecksum.FindStringSubmatch(out0.String()), finalChecksum.FindStringSubmatch(out1.String())
	if s0 == nil || s1 == nil || s0[1] != s1[1] {
		t.Fatalf("final checksums differ or are missing:\nplayer 0:\n%s\nplayer 1:\n%s", out0.String(), out1.String())
	}
	for name, out := range map[string]string{"player 0": out0.String(), "player 1": out1.String()} {
		if !bytes.Contains([]byte(out), []byte("rejoin: 1")) {
			t.Fatalf("%s reports no rejoin: the kill missed the match\n%s", name, out)
		}
	}
	t.Logf("both players: final checksum %s\nplayer 0:\n%s\nplayer 1 (rejoined):\n%s", s0[1], out0.String(), out1.String())
}

// Two fighter processes play over loopback UDP, streaming to a spectator
// address where nobody listens until 6 s into the match; then a spectator
// process starts there. It is sent the state of a recent frame, watches
// the rest, and prints the players' final checksum. Real processes run on
// the wall clock: the test sleeps to start the spectator late and
// asserts nothing about time.
func TestSpectatorJoinsLate(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10-second match between real processes")
	}
	t.Parallel() // the other real-process test waits on the wall clock too
	p := freePorts(t, 3)
	a, b, s := p[0], p[1], p[2]
	common := []string{"-frames", "600", "-seed", "6", "-token", "00112233445566ee", "-timeout", "60s"}
	p0 := append([]string{"-listen", "127.0.0.1:" + a, "-peer", "127.0.0.1:" + b, "-player", "0", "-spectator", "127.0.0.1:" + s}, common...)
	p1 := append([]string{"-listen", "127.0.0.1:" + b, "-peer", "127.0.0.1:" + a, "-player", "1"}, common...)
	var out0, out1, outS bytes.Buffer
	c0, c1 := start(t, &out0, p0...), start(t, &out1, p1...)
	time.Sleep(6 * time.Second) // 360 frames in: past a replay from frame 0
	cs := start(t, &outS, append([]string{"-spectate", "-listen", "127.0.0.1:" + s, "-peer", "127.0.0.1:" + a}, common...)...)
	err0, err1, errS := c0.Wait(), c1.Wait(), cs.Wait()
	if err0 != nil || err1 != nil || errS != nil {
		t.Fatalf("player 0: %v\n%s\nplayer 1: %v\n%s\nspectator: %v\n%s", err0, out0.String(), err1, out1.String(), errS, outS.String())
	}
	sums := []string{}
	for _, out := range []*bytes.Buffer{&out0, &out1, &outS} {
		m := finalChecksum.FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("no final checksum:\n%s", out.String())
		}
		sums = append(sums, m[1])
	}
	if sums[0] != sums[1] || sums[0] != sums[2] {
		t.Fatalf("final checksums differ: %v\nplayer 0:\n%s\nspectator:\n%s", sums, out0.String(), outS.String())
	}
	t.Logf("all three: final checksum %s\nspectator:\n%s", sums[0], outS.String())
}
