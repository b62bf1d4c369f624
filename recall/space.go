package recall

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// lowSpace is the free space below which an I/O error of SQLite's is taken to be a full disk. SQLite reports
// a log index (-shm) it cannot grow as a generic I/O error, without the errno; it needs 32 KiB for one.
const lowSpace = 256 << 10

// SpaceError reports that a write to the store failed for lack of space. It wraps syscall.ENOSPC, so
// errors.Is(err, syscall.ENOSPC) holds, and SQLite's error.
type SpaceError struct {
	Dir string // the store directory
	Err error  // as SQLite reported it
}

func (e *SpaceError) Error() string {
	return "recall store " + e.Dir + ": no space left on device (" + e.Err.Error() + ")"
}

func (e *SpaceError) Unwrap() []error { return []error{syscall.ENOSPC, e.Err} }

// noSpace returns err as a [*SpaceError] when it is SQLite's report of a full disk, or an I/O error of
// SQLite's while the filesystem of dir has almost no space left; otherwise it returns err as it is. An error
// that already wraps syscall.ENOSPC (from a file write, which names its path) is left alone.
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
	return &SpaceError{Dir: dir, Err: err}
}
