// Package xvfb starts a virtual X display (Debian's xvfb) for the tests
// of the playable examples, so a test can run a real Ebitengine window
// and save a screenshot of it on a machine without a screen.
//
// The display number is chosen by the server itself (-displayfd), so
// tests running at once never race for one, and Start returns only once
// the server accepts connections: no sleep, no polling. For tests, Build
// compiles a command, StartForTest starts a display for a test's lifetime,
// and both skip the test where the machine lacks Xvfb or Ebitengine's
// headers, except in CI (CI=true), where they fail it.
package xvfb
