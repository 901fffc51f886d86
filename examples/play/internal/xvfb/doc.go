// Package xvfb starts a virtual X display (Debian's xvfb) for the tests
// of the playable examples, so a test can run a real Ebitengine window
// and save a screenshot of it on a machine without a screen.
//
// The display number is chosen by the server itself (-displayfd), so
// tests running at once never race for one, and Start returns only once
// the server accepts connections: no sleep, no polling.
package xvfb
