//go:build unix

package atomicfile

import (
	"fmt"
	"os"
	"syscall"
)

// CheckPrivate returns an error unless dir is a real directory (not a symlink) owned by the current user with no
// permission bits for group or others. It checks modes and ownership itself rather than relying on the kernel,
// which lets root write anywhere.
func CheckPrivate(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("check %s: %w", dir, err)
	}
	return checkPrivate(dir, fi)
}

// checkPrivate is [CheckPrivate] for dir's Lstat result fi.
func checkPrivate(dir string, fi os.FileInfo) error {
	if fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symlink; refusing to use it: replace it with a private directory (mode 0700)", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%s is owned by uid %d, not by you (uid %d); refusing to use it", dir, st.Uid, os.Geteuid())
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s has mode %04o, open to group or others; run: chmod 700 %s", dir, perm, dir)
	}
	return nil
}
