package pngfile

import (
	"image"
	"image/png"
	"os"
)

// Write encodes img as a PNG file at path, replacing any file there.
func Write(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
