package arena_test

import (
	"errors"
	"fmt"

	"github.com/rollstep/rollstep/fixed"
	"github.com/rollstep/rollstep/internal/arena"
	"github.com/rollstep/rollstep/state"
)

// GoodUnit is a game object, with the padding after Kind spelled out.
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

func ExampleRing() {
	// A rollback window of 8 frames needs 8 + 2 slots.
	ring, err := arena.NewRing[World](10)
	if err != nil {
		panic(err)
	}
	w := World{Rng: state.NewRand(1)}
	for f := range int32(20) {
		ring.Save(f, &w) // save frame f before stepping it
		w.Tick++
		w.Units[0].Pos.X += fixed.One
	}
	// Roll back to frame 15 and re-simulate from there.
	if err := ring.Load(15, &w); err != nil {
		panic(err)
	}
	fmt.Println("tick", w.Tick, "x", w.Units[0].Pos.X)
	// Frame 5 was overwritten by frame 15.
	err = ring.Load(5, &w)
	fmt.Println(err, errors.Is(err, arena.ErrFrameNotHeld))
	// Output:
	// tick 15 x 15
	// state: frame 5 not held (its slot holds frame 15) true
}

func ExampleBlockHashes() {
	var a World
	b := a
	b.Units[12].Pos.Y = fixed.One
	ha := arena.BlockHashes(&a, 64, nil)
	hb := arena.BlockHashes(&b, 64, nil)
	for i := range ha {
		if ha[i] != hb[i] {
			first, _ := arena.FieldAt[World](i * 64)
			last, _ := arena.FieldAt[World](min((i+1)*64, arena.Size[World]()) - 1)
			fmt.Printf("block %d differs: %s .. %s\n", i, first, last)
		}
	}
	// Output:
	// block 5 differs: Units[12].Pos.Y .. Units[15]._
}
