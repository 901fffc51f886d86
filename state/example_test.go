package state_test

import (
	"errors"
	"fmt"

	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/state"
)

// Unit is a game object with a layout mistake: Pos holds 8-byte values, so
// amd64 puts 4 bytes of padding after Kind and 386 does not.
type Unit struct {
	Kind int32
	Pos  fixed.Vec2
}

// BadWorld holds Units.
type BadWorld struct {
	Tick  int32
	_     [4]byte
	Units [16]Unit
}

// GoodUnit is Unit with the padding spelled out.
type GoodUnit struct {
	Kind int32
	_    [4]byte
	Pos  fixed.Vec2
}

// World is a valid game state: fixed-size fields only, no implicit padding,
// and its random generator inside.
type World struct {
	Tick  int32
	_     [4]byte
	Rng   state.Rand
	Units [16]GoodUnit
}

func ExampleValidate() {
	fmt.Println(state.Validate[BadWorld]())
	fmt.Println(state.Validate[World]())
	// Output:
	// state: state_test.BadWorld is not arena-serializable: 4 bytes of padding before Units[].Pos on amd64 and 0 on 386; add `_ [4]byte` after Kind in state_test.Unit, or reorder the fields
	// <nil>
}

func ExampleDiff() {
	var a World
	a.Rng = state.NewRand(7)
	b := a
	b.Tick = 61
	b.Units[3].Pos.X = fixed.FromRatio(5, 2)
	b.Units[9].Kind = 2
	for _, d := range state.Diff(&a, &b) {
		fmt.Println(d)
	}
	// Output:
	// Tick: 0 != 61
	// Units[3].Pos.X: 0 != 2.5
	// Units[9].Kind: 0 != 2
}

func ExampleEncode() {
	w := World{Tick: 42, Rng: state.NewRand(3)}
	snap := state.Encode(nil, &w)
	var back World
	err := state.Decode(snap, &back)
	fmt.Println(len(snap), err, back == w)
	// A snapshot of another type is refused.
	err = state.Decode(snap, &BadWorldFixed{})
	fmt.Println(errors.Is(err, state.ErrInvalidSnapshot))
	// Output:
	// 424 <nil> true
	// true
}

// BadWorldFixed has World's size but other field names.
type BadWorldFixed struct {
	Turn  int32
	_     [4]byte
	Rng   state.Rand
	Units [16]GoodUnit
}

func ExampleRand() {
	r := state.NewRand(2026)
	fmt.Println(r.Int32N(6)+1, r.Int32N(6)+1, r.Fixed() < fixed.One)
	// Output:
	// 2 2 true
}
