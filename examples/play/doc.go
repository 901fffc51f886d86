// Package play holds rollstep's playable examples, on Ebitengine, in a
// module of their own so that the library and its tests never need cgo,
// X11 or a display:
//
//   - ./fighter: the fighter of examples/fighter in a window, against a
//     bot, a second player at the same keyboard, or a player on another
//     machine over UDP, with sounds and hit sparks as effects and a
//     network overlay (F1);
//   - ./fighter-serve: the same fighter built for the browser, served with
//     rollstep's lobby: two tabs (or machines, or a tab and a native
//     peer) meet in a room and play over WebRTC;
//   - ./rts: the RTS of examples/rts rendered, played with the mouse
//     against bots, and replays played back with seek.
//
// Run them from this directory:
//
//	go run ./fighter
//	go run ./rts
//
// On Linux, Ebitengine needs a C compiler and the X11, OpenGL and ALSA
// headers (Debian: libx11-dev libxrandr-dev libxcursor-dev
// libxinerama-dev libxi-dev libxxf86vm-dev libgl1-mesa-dev
// libasound2-dev). The tests of this package run each command under a
// virtual display (Debian's xvfb) and check a screenshot; they skip, with
// the reason, where Xvfb or the headers are missing.
package play
