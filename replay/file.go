package replay

import (
	"os"
	"path/filepath"
)

// WriteFile writes data (a Recorder's Bytes) to the file name
// atomically: into a temporary file in the same directory, which is
// synced and then renamed over name, so a reader never sees a partial
// replay and a crash leaves either the old file or the new one. It is the
// one function of this package that does I/O itself; everything else
// works on bytes the caller passes or reads from an io.Reader it passes.
func WriteFile(name string, data []byte) (err error) {
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
	if _, err = f.Write(data); err != nil {
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
