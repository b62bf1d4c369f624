package recall

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// lowSpace is the free space below which an I/O error of SQLite's is taken to be a full disk. SQLite reports
// a log index (-shm) it cannot grow as a generic I/O error, without the errno; it needs 32 KiB for one.
const lowSpace = 256 << 10

// noSpace returns err wrapped with an error that says "no space left on device", names dir and wraps
// syscall.ENOSPC, when err is SQLite's report of a full disk, or an I/O error of SQLite's while the filesystem
// of dir has almost no space left; otherwise it returns err as it is. An error that already wraps
// syscall.ENOSPC (from a file write, which names its path) is left alone.
func noSpace(dir string, err error) error {
	var se *sqlite.Error
	if err == nil || errors.Is(err, syscall.ENOSPC) || !errors.As(err, &se) {
		return err
	}
	full := se.Code()&0xff == sqlite3.SQLITE_FULL
	if !full && se.Code()&0xff == sqlite3.SQLITE_IOERR {
		var st unix.Statfs_t
		full = unix.Statfs(dir, &st) == nil && uint64(st.Bavail)*uint64(st.Bsize) < lowSpace
	}
	if !full {
		return err
	}
	return fmt.Errorf("%w: %w", err, &fs.PathError{Op: "write", Path: dir, Err: syscall.ENOSPC})
}
