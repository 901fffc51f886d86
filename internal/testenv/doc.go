// Package testenv tells the module's tests how big to run, and gives the
// tests of real sockets a loopback UDP socket (Loopback).
//
// By default every test runs at a size that proves its property quickly, so
// that go test ./... stays near half a minute even on a busy machine. Setting
// ROLLSTEP_SOAK=1 in the environment runs the soak sizes instead: longer
// matches, more frames over real sockets, more oracle samples. CI runs both.
//
// The -short flag keeps its own meaning, independent of the size: tests that
// need real sockets or a real clock skip under -short, which the emulated
// targets of CI use.
//
// Only _test.go files import this package.
package testenv
