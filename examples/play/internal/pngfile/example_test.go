package pngfile_test

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"

	"github.com/rollstep/rollstep/examples/play/internal/pngfile"
)

// A 4×2 image written and read back.
func ExampleWrite() {
	img := image.NewRGBA(image.Rect(0, 0, 4, 2))
	img.Set(3, 1, color.RGBA{R: 255, A: 255})
	dir, err := os.MkdirTemp("", "pngfile")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "shot.png")
	if err := pngfile.Write(path, img); err != nil {
		fmt.Println(err)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	back, err := png.Decode(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _, _, _ := back.At(3, 1).RGBA()
	fmt.Println(back.Bounds().Size(), r>>8)
	// Output: (4,2) 255
}
