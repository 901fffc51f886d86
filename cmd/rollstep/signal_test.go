package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rollstep/rollstep/lobby"
)

func TestSignalServesAMatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	run, stop := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	var out bytes.Buffer
	go func() {
		code <- runSignalContext(run, []string{"-addr", "127.0.0.1:0"}, pw, &stderr)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	require.True(t, lines.Scan(), "no first line; stderr: %s", stderr.String())
	first := lines.Text()
	require.True(t, strings.HasPrefix(first, "listening on ws://127.0.0.1:"), first)
	url := strings.TrimPrefix(first, "listening on ")

	joined := make(chan *lobby.Match, 2)
	for range 2 {
		go func() {
			m, err := lobby.Join(ctx, url, "cli", 2)
			assert.NoError(t, err)
			joined <- m
		}()
	}
	a, b := <-joined, <-joined
	require.NotNil(t, a)
	require.NotNil(t, b)
	assert.Equal(t, a.Token, b.Token)
	require.NoError(t, a.Close())
	require.NoError(t, b.Close())

	stop()
	for lines.Scan() {
		out.WriteString(lines.Text() + "\n")
	}
	assert.Equal(t, 0, <-code, "stderr: %s", stderr.String())
	assert.Contains(t, out.String(), "matches made 1,")
}

func TestSignalFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-tls-cert", "c.pem"},
		{"extra"},
		{"-rate", "x"},
		{"-burst", "-1"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, runSignalContext(context.Background(), args, &stdout, &stderr), "%v", args)
		assert.NotEmpty(t, stderr.String(), "%v says why", args)
	}
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, runSignalContext(context.Background(), []string{"-h"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "-max-conns")
	assert.Equal(t, 1, runSignalContext(context.Background(), []string{"-addr", "256.0.0.1:1"}, &stdout, &stderr))
}
