package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// File is one file for [WriteBatch]: Name in the checked directory Dir.
type File struct {
	Dir  *Dir
	Name string
	Data []byte
	Perm os.FileMode
}

// WriteBatch writes many files as [Dir.Write] does, each whole or not at all, but makes them durable together:
// each is written to a locked temp file, chmodded and renamed into place unsynced, and then one sync of the
// filesystem (syncfs on Linux; elsewhere a sync of every file and directory) covers them all, so that a batch
// costs one sync rather than two per file. The directories must be on one filesystem. When it returns nil
// every file is on disk; on error some files may be in place, each of them whole.
func WriteBatch(files []File) error {
	dirs := map[*Dir]bool{}
	for _, f := range files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || strings.HasPrefix(f.Name, ".") {
			return fmt.Errorf("write %q: not a plain file name", f.Name)
		}
		if err := f.Dir.writeUnsynced(f.Name, f.Data, f.Perm); err != nil {
			return err
		}
		dirs[f.Dir] = true
	}
	if len(files) == 0 {
		return nil
	}
	if err := syncFS(files[0].Dir, files, dirs); err != nil {
		return fmt.Errorf("write %d files: sync: %w", len(files), err)
	}
	return nil
}

// writeUnsynced puts data in place as the file name, through a temp file that stays locked (see
// [Dir.SweepTemps]) until it has its final name, and syncs nothing.
func (d *Dir) writeUnsynced(name string, data []byte, perm os.FileMode) error {
	f, tmp, err := d.createTemp(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = d.root.Rename(tmp, name)
	}
	if err != nil {
		d.root.Remove(tmp)
		return d.pathError("write", name, err)
	}
	return nil
}

// syncEach syncs every file and directory: the portable fallback of syncFS.
func syncEach(files []File, dirs map[*Dir]bool) error {
	for _, fl := range files {
		f, err := fl.Dir.root.Open(fl.Name)
		if err != nil {
			return fl.Dir.pathError("sync", fl.Name, err)
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return fl.Dir.pathError("sync", fl.Name, err)
		}
	}
	for d := range dirs {
		if err := d.sync(); err != nil {
			return err
		}
	}
	return nil
}
