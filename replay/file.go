package replay

import (
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes what src writes (a Recorder or a Replay) to the file
// name atomically: into a temporary file in the same directory, which is
// synced and then renamed over name, so a reader never sees a partial
// replay and a crash leaves either the old file or the new one. It is the
// one function of this package that does I/O itself; everything else
// reads from an io.Reader or writes to an io.Writer the caller passes.
func WriteFile(name string, src io.WriterTo) (err error) {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if _, err = src.WriteTo(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
