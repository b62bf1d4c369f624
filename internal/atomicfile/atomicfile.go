// Package atomicfile writes files so that a crash leaves either the old content or the new, never a torn file,
// and opens the directories it writes into only after checking that they are the user's.
//
// Every write goes through the same sequence: a temp file in the destination directory, locked for as long as
// it has its temp name, write, chmod, fsync, rename over the destination, fsync the directory. Files get the
// mode asked for whatever the umask.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// TempPrefix starts the name of every temp file this package creates, so that directory listings can skip
// them and [Dir.SweepTemps] can remove the ones a crash left behind.
const TempPrefix = ".tmp-"

// Write atomically replaces dir/name with data and the given permissions. name must be a plain file name, not a
// path. On error the destination is left as it was and the temp file is removed, except when only the final
// sync of the directory fails: the new content is then in place, and the error says it may not survive a
// crash. An error for lack of space wraps syscall.ENOSPC and names the path.
func Write(dir, name string, data []byte, perm os.FileMode) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return &fs.PathError{Op: "write", Path: filepath.Join(dir, name), Err: unwrapPath(err)}
	}
	defer root.Close()
	return (&Dir{root: root, path: dir}).Write(name, data, perm)
}

// Remove deletes dir/name and makes the removal durable.
func Remove(dir, name string) error {
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		return err
	}
	return syncDir(dir)
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

// MkdirPrivate creates dir (and missing parents) with mode 0700 whatever the umask, durably: the parent of each
// directory it creates is synced, so that what is later written inside stays reachable after a crash. It
// returns an error if dir exists but is a symlink, is not a directory, is owned by another user, or is open
// to group or others. Prefer [OpenPrivate], which also returns a handle to use the directory through.
func MkdirPrivate(dir string) error {
	dir = filepath.Clean(dir)
	if err := mkdirAll(dir); err != nil {
		return err
	}
	return CheckPrivate(dir)
}

// mkdirAll creates dir and its missing parents with mode 0700, each synced into its parent. It checks nothing
// that exists.
func mkdirAll(dir string) error {
	// The directories to create, deepest first. An existing dir costs one Lstat.
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		_, err := os.Lstat(d)
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
		} else if errors.Is(err, fs.ErrExist) { // made meanwhile by another process; checked by the caller
			continue
		}
		if err == nil {
			err = syncDir(filepath.Dir(d))
		}
		if err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	return nil
}
