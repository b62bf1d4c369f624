//go:build unix

package atomicfile

import (
	"fmt"
	"os"
)

// CheckPrivate returns an error unless dir is a real directory (not a symlink) owned by the current user with no
// permission bits for group or others. It checks modes and ownership itself rather than relying on the kernel,
// which lets root write anywhere.
func CheckPrivate(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("check %s: %w", dir, err)
	}
	return check(dir, fi, 0o077, "open to group or others")
}
