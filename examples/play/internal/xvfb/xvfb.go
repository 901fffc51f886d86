package xvfb

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// ErrNotInstalled is returned by Start when no Xvfb program is on PATH.
var ErrNotInstalled = errors.New("xvfb: no Xvfb on PATH (Debian: apt-get install xvfb)")

// readyTimeout bounds how long Start waits for the server to announce its
// display.
const readyTimeout = 30 * time.Second

// Display is a running virtual X server.
type Display struct {
	// Name is the value for DISPLAY, such as ":3".
	Name string
	cmd  *exec.Cmd
}

// Start runs Xvfb with one screen of width×height pixels at 24-bit colour
// and returns once it accepts connections. Stop it with Stop.
func Start(width, height int) (*Display, error) {
	path, err := exec.LookPath("Xvfb")
	if err != nil {
		return nil, ErrNotInstalled
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	// Xvfb writes the display number it took to file descriptor 3 once it
	// is ready: ExtraFiles[0] becomes descriptor 3 in the child.
	cmd := exec.Command(path, "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", width, height), "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("xvfb: %w", err)
	}
	_ = w.Close()

	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- s
	}()
	var s string
	select {
	case s = <-line:
	case <-time.After(readyTimeout):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("xvfb: no display announced within %v", readyTimeout)
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("xvfb: the server exited before it was ready (announced %q)", s)
	}
	return &Display{Name: ":" + strconv.Itoa(n), cmd: cmd}, nil
}

// Env returns the environment of the current process with DISPLAY set to
// d, for a command to run on it.
func (d *Display) Env() []string {
	env := []string{"DISPLAY=" + d.Name}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") {
			env = append(env, kv)
		}
	}
	return env
}

// Stop ends the server and waits for it.
func (d *Display) Stop() {
	_ = d.cmd.Process.Kill()
	_ = d.cmd.Wait()
}
