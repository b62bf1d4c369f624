// Package atomicfile writes files so that a crash leaves either the old content or the new, never a torn file.
//
// Every write goes through the same sequence: a temp file in the destination directory, write, chmod, fsync,
// close, rename over the destination, fsync the directory. Files get the mode asked for whatever the umask.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// TempPrefix starts the name of every temp file this package creates, so that directory listings can skip
// them and a later cleanup can remove the ones a crash left behind.
const TempPrefix = ".tmp-"

// Write atomically replaces dir/name with data and the given permissions. name must be a plain file name, not a
// path. On error the destination is left as it was and the temp file is removed, except when only the final
// sync of the directory fails: the new content is then in place, and the error says it may not survive a
// crash.
func Write(dir, name string, data []byte, perm os.FileMode) error {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return fmt.Errorf("write %q: not a plain file name", name)
	}
	f, err := os.CreateTemp(dir, TempPrefix+name+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	// Chmod through the descriptor: the mode must not depend on the umask.
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", name, err)
	}
	// Close before rename: some filesystems refuse to rename an open file.
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	ok = true
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("write %s: written, but it may not survive a crash: %w", name, err)
	}
	return nil
}

// syncDir flushes a directory's entries to disk, so that a rename or removal in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// Remove deletes dir/name and makes the removal durable.
func Remove(dir, name string) error {
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		return err
	}
	return syncDir(dir)
}

// MkdirPrivate creates dir (and missing parents) with mode 0700 whatever the umask, durably: the parent of each
// directory it creates is synced, so that what is later written inside stays reachable after a crash. It
// returns an error if dir exists but is a symlink, is not a directory, is owned by another user, or is open
// to group or others.
func MkdirPrivate(dir string) error {
	dir = filepath.Clean(dir)
	// The directories to create, deepest first. An existing dir is only checked: one Lstat on the common path.
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Lstat(d)
		if err == nil && d == dir {
			return checkPrivate(dir, fi)
		}
		if !errors.Is(err, fs.ErrNotExist) || d == filepath.Dir(d) {
			break
		}
		missing = append(missing, d)
	}
	// Shallowest first, each made 0700 before the next goes in it: the umask could leave a parent without the
	// write bit its child needs.
	for i := len(missing) - 1; i >= 0; i-- {
		d := missing[i]
		err := os.Mkdir(d, 0o700)
		if err == nil {
			err = os.Chmod(d, 0o700)
		} else if errors.Is(err, fs.ErrExist) { // made meanwhile by another process; checked below
			continue
		}
		if err == nil {
			err = syncDir(filepath.Dir(d))
		}
		if err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	return CheckPrivate(dir)
}
