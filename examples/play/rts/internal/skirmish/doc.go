// Package skirmish is the part of the rts viewer (examples/play/rts)
// that needs no display: the camera's screen↔world mapping, the human's
// selection of control groups and the orders built from it, the local
// match of sessions over transport/sim, replay playback with seek, and
// the -autoplay script. The command draws what it holds with Ebitengine;
// this package never imports Ebitengine, whose initialisation needs a
// display, so its tests run anywhere.
//
// Nothing here feeds a simulation step but rts.Command values: the
// floats of the camera end at MapPoint, which clamps them to a command's
// integers.
package skirmish
