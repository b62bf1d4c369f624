//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Permission and trust policy for this file. A [Dir] is a directory that was opened once and checked through
// the handle that was opened, so what was checked is what is used: every name inside it is resolved relative to
// that handle, and a directory renamed or replaced by a symlink afterwards changes nothing. A directory is
// trusted when the user owns it and, for a directory memoree writes notes into, no one else has any access
// ([OpenPrivate], [Dir.Sub]); the data directory that holds those only has to be closed to writes by others
// ([OpenOwned]), as ssh asks of a home directory; and the directories above the data directory must be safe
// from others too (see checkAncestors).

// Dir is a checked directory. Its methods are safe for concurrent use.
type Dir struct {
	root *os.Root
	path string // for messages
}

// OpenOwned opens the directory at path, creating it and any missing parent with mode 0700, and checks that it
// is not a symlink, belongs to the user, and is not writable by group or others. It is meant for the data
// directory, which holds the private directories opened with [Dir.Sub].
func OpenOwned(path string) (*Dir, error) {
	return openChecked(path, 0o022, "writable by group or others", true)
}

// LookupOwned is [OpenOwned] for readers: it creates nothing, and returns an error wrapping [fs.ErrNotExist]
// when there is no directory at path.
func LookupOwned(path string) (*Dir, error) {
	return openChecked(path, 0o022, "writable by group or others", false)
}

// OpenPrivate is [OpenOwned] for a directory that no one but the user may read or enter either.
func OpenPrivate(path string) (*Dir, error) {
	return openChecked(path, 0o077, "open to group or others", true)
}

func openChecked(path string, mask fs.FileMode, what string, create bool) (*Dir, error) {
	path = filepath.Clean(path)
	if err := checkAncestors(path); err != nil {
		return nil, err
	}
	if create {
		if err := mkdirAll(path); err != nil {
			return nil, err
		}
	}
	before, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("check %s: %w", path, err)
	}
	if err := check(path, before, mask, what); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: unwrapPath(err)}
	}
	d := &Dir{root: root, path: path}
	if err := d.checkSelf(before, mask, what); err != nil {
		root.Close()
		return nil, err
	}
	return d, nil
}

// checkAncestors returns an error unless every directory above path, symlinks resolved, is safe from other
// users, as ssh asks of the directories above ~/.ssh: owned by root or the user, and not writable by group or
// others unless sticky (as /tmp is: there only an entry's owner may rename it). A directory that others could
// write would let them rename the data directory away and put their own, or a symlink, in its place; the
// handles opened here would not follow, but SQLite opens its files by path. Directories on the path that do
// not exist yet are skipped: they are created private.
func checkAncestors(path string) error {
	d := filepath.Dir(path)
	for {
		if _, err := os.Lstat(d); err == nil || d == filepath.Dir(d) {
			break
		}
		d = filepath.Dir(d)
	}
	real, err := filepath.EvalSymlinks(d)
	if err != nil {
		return fmt.Errorf("check %s: %w", d, err)
	}
	for d := real; ; d = filepath.Dir(d) {
		fi, err := os.Lstat(d)
		if err != nil {
			return fmt.Errorf("check %s: %w", d, err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if ok && st.Uid != 0 && int(st.Uid) != os.Geteuid() {
			return fmt.Errorf("%s, above %s, is owned by uid %d, who could replace what is inside it; refusing to use it: use a data directory under directories of your own", d, path, st.Uid)
		}
		if perm := fi.Mode(); perm&0o022 != 0 && perm&fs.ModeSticky == 0 {
			return fmt.Errorf("%s, above %s, has mode %04o: others could replace what is inside it; refusing to use it: run: chmod go-w %s (or chmod +t %s)", d, path, perm.Perm(), d, d)
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

// checkSelf checks the opened directory itself, through its handle, and that it is the one checked by name
// before (not a directory swapped in between).
func (d *Dir) checkSelf(before fs.FileInfo, mask fs.FileMode, what string) error {
	fi, err := d.root.Stat(".")
	if err != nil {
		return fmt.Errorf("check %s: %w", d.path, unwrapPath(err))
	}
	if err := check(d.path, fi, mask, what); err != nil {
		return err
	}
	if !os.SameFile(before, fi) {
		return fmt.Errorf("%s was replaced while it was being opened; refusing to use it", d.path)
	}
	return nil
}

// check returns the error that explains why the directory at path, whose Lstat is fi, is not trusted.
func check(path string, fi fs.FileInfo, mask fs.FileMode, what string) error {
	if fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symlink; refusing to use it: replace it with a private directory (mode 0700)", path)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", path)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%s is owned by uid %d, not by you (uid %d); refusing to use it: use a directory of your own", path, st.Uid, os.Geteuid())
	}
	if perm := fi.Mode().Perm(); perm&mask != 0 {
		return fmt.Errorf("%s has mode %04o, %s; run: chmod 700 %s", path, perm, what, path)
	}
	return nil
}

// Path returns the directory's path, as given when it was opened.
func (d *Dir) Path() string { return d.path }

// Root returns the handle through which names in the directory are resolved.
func (d *Dir) Root() *os.Root { return d.root }

// Close releases the directory's handle.
func (d *Dir) Close() error { return d.root.Close() }

// Lookup opens the existing directory name inside d and checks it as [Dir.Sub] does; it creates nothing, and
// returns an error wrapping [fs.ErrNotExist] when there is no such directory.
func (d *Dir) Lookup(name string) (*Dir, error) {
	path := filepath.Join(d.path, name)
	before, err := d.root.Lstat(name)
	if err != nil {
		return nil, fmt.Errorf("check %s: %w", path, unwrapPath(err))
	}
	const mask, what = 0o077, "open to group or others"
	if err := check(path, before, mask, what); err != nil {
		return nil, err
	}
	root, err := d.root.OpenRoot(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: unwrapPath(err)}
	}
	sub := &Dir{root: root, path: path}
	if err := sub.checkSelf(before, mask, what); err != nil {
		root.Close()
		return nil, err
	}
	return sub, nil
}

// Sub opens the directory name inside d, creating it with mode 0700 whatever the umask, and checks it as
// [OpenPrivate] does. name is a single path element.
func (d *Dir) Sub(name string) (*Dir, error) {
	path := filepath.Join(d.path, name)
	if name == "" || name != filepath.Base(name) || name == "." || name == ".." {
		return nil, fmt.Errorf("open %s: not a plain directory name", path)
	}
	const mask, what = 0o077, "open to group or others"
	created := false
	switch err := d.root.Mkdir(name, 0o700); {
	case err == nil:
		created = true
		// The umask may have left the owner without the bits needed to open the directory at all: give them
		// back by name first (d is private, so no one else can have swapped the name), then check through the
		// handle below.
		if err := d.root.Chmod(name, 0o700); err != nil {
			return nil, &fs.PathError{Op: "create", Path: path, Err: unwrapPath(err)}
		}
	case !errors.Is(err, fs.ErrExist):
		return nil, &fs.PathError{Op: "create", Path: path, Err: unwrapPath(err)}
	}
	before, err := d.root.Lstat(name)
	if err != nil {
		return nil, fmt.Errorf("check %s: %w", path, unwrapPath(err))
	}
	if !created || before.Mode()&os.ModeSymlink != 0 {
		if err := check(path, before, mask, what); err != nil {
			return nil, err
		}
	}
	root, err := d.root.OpenRoot(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: unwrapPath(err)}
	}
	sub := &Dir{root: root, path: path}
	if created {
		// Chmod through the handle: the umask may have taken bits the directory needs, and the name may no
		// longer be the directory made.
		err = sub.chmodSelf(0o700)
		if err == nil {
			err = d.sync()
		}
		if err == nil {
			before, err = root.Stat(".")
		}
		if err != nil {
			root.Close()
			return nil, fmt.Errorf("create %s: %w", path, unwrapPath(err))
		}
	}
	if err := sub.checkSelf(before, mask, what); err != nil {
		root.Close()
		return nil, err
	}
	return sub, nil
}

func (d *Dir) chmodSelf(mode fs.FileMode) error {
	f, err := d.root.Open(".")
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Chmod(mode)
}

// sync flushes the directory's entries to disk, so that a rename or removal in it survives a crash.
func (d *Dir) sync() error {
	f, err := d.root.Open(".")
	if err != nil {
		return &fs.PathError{Op: "sync", Path: d.path, Err: unwrapPath(err)}
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return &fs.PathError{Op: "sync", Path: d.path, Err: unwrapPath(err)}
	}
	return nil
}

// pathError returns err, from an operation op on name in d, as a *fs.PathError that names the whole path: the
// errors of a Root name the path relative to it. errors.Is still finds the cause (syscall.ENOSPC for a full
// disk), and the message says it ("no space left on device").
func (d *Dir) pathError(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: filepath.Join(d.path, name), Err: unwrapPath(err)}
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// ReadFile returns the content of the file name in d. It refuses a symlink.
func (d *Dir) ReadFile(name string) ([]byte, error) {
	f, err := d.root.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, d.pathError("read", name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err == nil && (!fi.Mode().IsRegular() || !d.isAt(f, name)) {
		// A Root follows a symlink that stays inside it, whatever the flags.
		err = errors.New("not a regular file")
	}
	var data []byte
	if err == nil {
		data, err = io.ReadAll(f)
	}
	if err != nil {
		return nil, d.pathError("read", name, err)
	}
	return data, nil
}

// ReadDir returns the entries of d, sorted by name.
func (d *Dir) ReadDir() ([]fs.DirEntry, error) {
	f, err := d.root.Open(".")
	if err != nil {
		return nil, d.pathError("read", ".", err)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, d.pathError("read", ".", err)
	}
	return entries, nil
}

// Remove deletes the file name in d and makes the removal durable.
func (d *Dir) Remove(name string) error {
	if err := d.root.Remove(name); err != nil {
		return d.pathError("remove", name, err)
	}
	return d.sync()
}

// Write atomically replaces the file name in d with data and the given permissions, as the package's Write.
func (d *Dir) Write(name string, data []byte, perm fs.FileMode) error {
	t, err := d.Prepare(name, data, perm)
	if err != nil {
		return err
	}
	return t.Commit()
}

// Temp is a new content for a file, written and synced but not yet in place: [Temp.Commit] puts it there,
// [Temp.Abort] discards it. Until either is called its temp file is locked, so that [Dir.SweepTemps] knows it
// is in use.
type Temp struct {
	d         *Dir
	name, tmp string
	f         *os.File
}

// Prepare writes data, with the given permissions, to a temp file beside the file name in d and syncs it, so
// that only the rename is left to [Temp.Commit]: it needs no space and cannot fail for lack of it. On error
// nothing is left behind.
func (d *Dir) Prepare(name string, data []byte, perm fs.FileMode) (*Temp, error) {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		return nil, fmt.Errorf("write %q: not a plain file name", name)
	}
	f, tmp, err := d.createTemp(name)
	if err != nil {
		return nil, err
	}
	t := &Temp{d: d, name: name, tmp: tmp, f: f}
	if _, err := f.Write(data); err != nil {
		t.Abort()
		return nil, d.pathError("write", tmp, err)
	}
	// Chmod through the descriptor: the mode must not depend on the umask.
	if err := f.Chmod(perm); err != nil {
		t.Abort()
		return nil, d.pathError("chmod", tmp, err)
	}
	if err := f.Sync(); err != nil {
		t.Abort()
		return nil, d.pathError("sync", tmp, err)
	}
	return t, nil
}

// createTemp creates and locks a new temp file for name. The lock is taken after the file is created, so a
// sweep may take the file in between and remove it; the name is then checked to still be the file locked, and
// another name is tried if it is not.
func (d *Dir) createTemp(name string) (*os.File, string, error) {
	var err error
	for range 1000 {
		tmp := TempPrefix + name + "-" + strconv.FormatUint(uint64(rand.Uint32()), 10)
		var f *os.File
		f, err = d.root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", d.pathError("create", tmp, err)
		}
		// Owner access at once: under a umask that takes it, a sweep could not even open the file to see that
		// it is in use.
		if err = f.Chmod(0o600); err == nil {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		}
		if err == nil && d.isAt(f, tmp) {
			return f, tmp, nil
		}
		f.Close()
		if err != nil && !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, "", d.pathError("create", tmp, err)
		}
	}
	return nil, "", d.pathError("create", TempPrefix+name, fmt.Errorf("no free temp file name: %v", err))
}

// isAt reports whether name in d is the open file f.
func (d *Dir) isAt(f *os.File, name string) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	at, err := d.root.Lstat(name)
	return err == nil && os.SameFile(fi, at)
}

// Commit renames the temp file over the destination and syncs the directory. The new content is in place
// unless the rename fails; when only the sync fails, the error says it may not survive a crash.
func (t *Temp) Commit() error {
	// The temp file stays open, and so locked, until it has its final name: a sweep must never see it
	// unlocked while it still has the temp name.
	defer t.f.Close()
	if err := t.d.root.Rename(t.tmp, t.name); err != nil {
		t.d.root.Remove(t.tmp)
		return t.d.pathError("write", t.name, err)
	}
	if err := t.d.sync(); err != nil {
		return fmt.Errorf("write %s: written, but it may not survive a crash: %w", filepath.Join(t.d.path, t.name), err)
	}
	return nil
}

// Abort removes the temp file.
func (t *Temp) Abort() {
	t.d.root.Remove(t.tmp)
	t.f.Close()
}

// SweepTemps removes the temp files in d that no writer holds any more (a writer holds its temp file's lock
// until the file has its final name or is gone, so a temp file whose lock is free was left by a writer that
// died), and returns how many it removed. With target set, only the temp files of writes to that name are
// considered. Temp files the user cannot open are left alone.
func (d *Dir) SweepTemps(target string) (int, error) {
	// Names only: commands that take a lock sweep, so this runs on every checkpoint, and a listing with types
	// costs a stat per entry on filesystems that do not report them.
	f, err := d.root.Open(".")
	if err != nil {
		return 0, d.pathError("read", ".", err)
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return 0, d.pathError("read", ".", err)
	}
	prefix := TempPrefix
	if target != "" {
		prefix += target + "-"
	}
	removed := 0
	var errs []error
	for _, name := range names {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		ok, err := d.RemoveDeadTemp(name)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			removed++
		}
	}
	if removed > 0 {
		if err := d.sync(); err != nil {
			errs = append(errs, err)
		}
	}
	return removed, errors.Join(errs...)
}

// RemoveDeadTemp removes the temp file name if no writer holds it (its lock is free), and reports whether it
// did.
func (d *Dir) RemoveDeadTemp(name string) (bool, error) {
	// Non-blocking: a FIFO with a temp file's name must not hang the sweep.
	f, err := d.root.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return false, nil
	}
	if err != nil {
		return false, d.pathError("sweep", name, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false, nil
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return false, nil // in use, or cannot tell: keep it
	}
	// The writer may have renamed the file to its final name after it was opened here: remove the name only
	// while it still is the file whose lock is held.
	if !d.isAt(f, name) {
		return false, nil
	}
	if err := d.root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, d.pathError("sweep", name, err)
	}
	return true, nil
}
