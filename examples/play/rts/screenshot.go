package main

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/rollstep/rollstep/examples/play/internal/pngfile"
)

// saveScreenshot writes the screen's pixels to name as a PNG.
func saveScreenshot(screen *ebiten.Image, name string) error {
	img := image.NewRGBA(screen.Bounds())
	screen.ReadPixels(img.Pix)
	return pngfile.Write(name, img)
}
