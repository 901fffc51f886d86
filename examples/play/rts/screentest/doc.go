// Package screentest holds the tests that build the rts viewer
// (examples/play/rts), run it under a virtual X display (package
// internal/xvfb) and check its screenshots. They live here, not in the
// command's package, because a test binary of the command would import
// Ebitengine, whose initialisation panics without a display; this
// package imports nothing of it and runs the command as a separate
// process.
package screentest
