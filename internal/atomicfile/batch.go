package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// File is one file for [WriteBatch].
type File struct {
	Dir, Name string
	Data      []byte
	Perm      os.FileMode
}

// WriteBatch writes many files as [Write] does, each whole or not at all, but makes them durable together:
// each is written to a temp file, chmodded, closed and renamed into place unsynced, and then one sync of the
// filesystem (syncfs on Linux; elsewhere a sync of every file and directory) covers them all, so that a batch
// costs one sync rather than two per file. When it returns nil every file is on disk; on error some files may
// be in place, each of them whole.
func WriteBatch(files []File) error {
	dirs := map[string]bool{}
	var written []string
	for _, f := range files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || strings.HasPrefix(f.Name, ".") {
			return fmt.Errorf("write %q: not a plain file name", f.Name)
		}
		tmp, err := os.CreateTemp(f.Dir, TempPrefix+f.Name+"-*")
		if err != nil {
			return fmt.Errorf("write %s: %w", f.Name, err)
		}
		_, err = tmp.Write(f.Data)
		if err == nil {
			err = tmp.Chmod(f.Perm)
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), filepath.Join(f.Dir, f.Name))
		}
		if err != nil {
			os.Remove(tmp.Name())
			return fmt.Errorf("write %s: %w", f.Name, err)
		}
		dirs[f.Dir] = true
		written = append(written, filepath.Join(f.Dir, f.Name))
	}
	if len(files) == 0 {
		return nil
	}
	if err := syncFS(files[0].Dir, written, dirs); err != nil {
		return fmt.Errorf("write %d files: sync: %w", len(files), err)
	}
	return nil
}

// syncEach syncs every file and directory: the portable fallback of syncFS.
func syncEach(files []string, dirs map[string]bool) error {
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	for d := range dirs {
		if err := syncDir(d); err != nil {
			return err
		}
	}
	return nil
}
