package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestSimPrintsSummary(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"-sim", "-frames", "600", "-latency", "60ms", "-loss", "0.02", "-seed", "3"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{"600 frames between 2 simulated peers", "player 0:", "player 1:", "checksums: all 600 frames agree", "spectator: final", "winner:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no mode", nil},
		{"bad player", []string{"-listen", "127.0.0.1:1", "-peer", "127.0.0.1:2", "-player", "2"}},
		{"bad loss", []string{"-sim", "-loss", "1.5"}},
		{"no frames", []string{"-sim", "-frames", "0"}},
		{"spectator over DTLS", []string{"-listen", "127.0.0.1:1", "-peer", "127.0.0.1:2", "-psk", "k", "-spectator", "127.0.0.1:3"}},
		{"stray argument", []string{"-sim", "extra"}},
		{"player 1 without a token", []string{"-listen", "127.0.0.1:1", "-peer", "127.0.0.1:2", "-player", "1"}},
		{"spectator without a token", []string{"-spectate", "-listen", "127.0.0.1:1", "-peer", "127.0.0.1:2"}},
		{"bad token", []string{"-listen", "127.0.0.1:1", "-peer", "127.0.0.1:2", "-player", "1", "-token", "not hex"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			if code := run(tc.args, &out, &errs); code != 2 {
				t.Errorf("exit %d, want 2 (usage); stderr %q", code, errs.String())
			}
		})
	}
}
