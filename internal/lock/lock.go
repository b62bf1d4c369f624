//go:build unix

// Package lock takes advisory locks (flock) on lock files that are never deleted. A lock file is created with
// mode 0600 whatever the umask, and one that its owner can no longer open because of its mode is repaired.
package lock

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// File is an open lock file. Locks on it are held by its open file description: two Files on the same lock
// file, in one process or two, exclude each other as processes would. A File is not safe for concurrent use.
type File struct {
	f    *os.File
	path string // for messages
}

// Open opens the lock file name in the directory root (whose path dir is used in messages), creating it with
// mode 0600 if needed. A lock file of the user's whose mode is not 0600 is given that mode; one owned by
// another user is refused.
func Open(root *os.Root, dir, name string) (*File, error) {
	return open(root, dir, name, os.O_RDWR|os.O_CREATE)
}

// OpenExisting opens the lock file name for shared locks only, creating nothing: it returns an error wrapping
// [fs.ErrNotExist] when there is no such file. Its mode is repaired as [Open] does.
func OpenExisting(root *os.Root, dir, name string) (*File, error) {
	return open(root, dir, name, os.O_RDONLY)
}

func open(root *os.Root, dir, name string, flag int) (*File, error) {
	path := filepath.Join(dir, name)
	flag |= syscall.O_NOFOLLOW | syscall.O_CLOEXEC
	f, err := root.OpenFile(name, flag, 0o600)
	if errors.Is(err, fs.ErrPermission) {
		// A lock file created under a umask that left its owner no access: give it back its mode and retry.
		if rerr := repairByName(root, name); rerr == nil {
			f, err = root.OpenFile(name, flag, 0o600)
		}
	}
	if errors.Is(err, syscall.EROFS) && flag&os.O_RDWR != 0 {
		// flock needs no write access: an existing lock file on a read-only filesystem still locks.
		f, err = root.OpenFile(name, syscall.O_NOFOLLOW|syscall.O_CLOEXEC|os.O_RDONLY, 0)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open lock file", Path: path, Err: unwrapPath(err)}
	}
	fi, err := f.Stat()
	if err == nil {
		err = notLink(root, name, fi)
	}
	if err == nil {
		err = checkMode(f, fi)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock file %s: %w", path, err)
	}
	return &File{f: f, path: path}, nil
}

// checkMode refuses a lock file of another user and gives the user's own the mode 0600: created through the
// umask, it may have less, and a mode 0000 file would lock its owner out once the umask changes back.
func checkMode(f *os.File, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("owned by uid %d, not by you (uid %d); refusing to use it", st.Uid, os.Geteuid())
	}
	if fi.Mode().Perm() != 0o600 {
		if err := f.Chmod(0o600); err != nil && !errors.Is(err, syscall.EROFS) {
			return err
		}
	}
	return nil
}

// notLink returns an error unless name in root is the file fi, not a symlink to it: a Root follows symlinks
// that stay inside it, whatever the open flags.
func notLink(root *os.Root, name string, fi fs.FileInfo) error {
	li, err := root.Lstat(name)
	if err != nil {
		return err
	}
	if li.Mode()&fs.ModeSymlink != 0 || !os.SameFile(li, fi) {
		return errors.New("is a symlink; refusing to use it")
	}
	return nil
}

// repairByName gives mode 0600 to the lock file name when it is a regular file of the user's.
func repairByName(root *os.Root, name string) error {
	fi, err := root.Lstat(name)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.Mode().IsRegular() || !ok || int(st.Uid) != os.Geteuid() {
		return fs.ErrPermission
	}
	return root.Chmod(name, 0o600)
}

// unwrapPath returns the error inside a *fs.PathError, whose path is relative to a root and so says less
// than the caller's.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Path returns the lock file's path.
func (l *File) Path() string { return l.path }

// Lock takes the lock, exclusive or shared, waiting until it is free or ctx is done; it returns ctx's error
// in the latter case. A ctx with no deadline and no cancellation waits in the kernel, which wakes the waiter
// as soon as the lock is released; otherwise Lock retries every few milliseconds.
func (l *File) Lock(ctx context.Context, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if ctx.Done() == nil {
		return l.flock(how)
	}
	for delay := time.Millisecond; ; delay = min(2*delay, 10*time.Millisecond) {
		ok, err := l.try(how)
		if err != nil || ok {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}

// TryLock takes the lock if it is free and reports whether it did.
func (l *File) TryLock(exclusive bool) (bool, error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	return l.try(how)
}

func (l *File) try(how int) (bool, error) {
	err := l.flock(how | syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

func (l *File) flock(how int) error {
	for {
		err := syscall.Flock(int(l.f.Fd()), how)
		if err != syscall.EINTR {
			if err != nil {
				return &fs.PathError{Op: "lock", Path: l.path, Err: err}
			}
			return nil
		}
	}
}

// Unlock releases the lock; the file stays open for another Lock.
func (l *File) Unlock() error {
	return l.flock(syscall.LOCK_UN)
}

// Close closes the file, which releases any lock it holds.
func (l *File) Close() error {
	return l.f.Close()
}
