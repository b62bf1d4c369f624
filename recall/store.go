package recall

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"
	"github.com/memoree/memoree/internal/atomicfile"

	// Register the pure-Go SQLite driver (with FTS5) as "sqlite".
	_ "modernc.org/sqlite"
)

// Permission policy for this package: the data directory and every directory under it are 0700, the
// database and its -wal/-shm files 0600, artifact files 0400, whatever the umask.

// ErrNoStore is returned by [OpenExisting] when nothing was ever applied in the directory.
var ErrNoStore = errors.New("no recall store yet")

// dbName is the database file inside the store directory; casDir holds the artifact files; lockName is
// the lock file that serializes creating and migrating the database (never deleted).
const (
	dbName   = "recall.db"
	casDir   = "cas"
	lockName = "recall.lock"
)

// busyTimeoutMS is how long a connection waits for another process's write lock before failing.
const busyTimeoutMS = 10000

// lockWait is how long a Store waits for the lock file before returning [ErrBusy]; lockRetry is how often
// it tries meanwhile.
const (
	lockWait  = 10 * time.Second
	lockRetry = 5 * time.Millisecond
)

// ErrBusy is returned when the store stayed locked by another Store for longer than the wait allows, for
// example because this process holds a read-only Store open while it tries to write.
var ErrBusy = errors.New("recall store is busy")

// Locking protocol. SQLite's own locks make concurrent use safe; the lock file adds one guarantee on top,
// so that read-only Stores can read without creating files: the database file changes only under the
// exclusive lock (creating and migrating in Open, each apply, Optimize, and Close, which checkpoints the
// log), and a read-only Store holds the shared lock from OpenExisting to Close.

// lockExclusive takes the exclusive lock on dir's lock file, creating it if needed, and returns its release.
func lockExclusive(ctx context.Context, dir string) (func(), error) {
	lk := flock.New(filepath.Join(dir, lockName))
	ctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	locked, err := lk.TryLockContext(ctx, lockRetry)
	if err != nil && ctx.Err() == nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if !locked {
		return nil, ErrBusy
	}
	return func() { lk.Unlock() }, nil
}

// Store is the long-term memory: a SQLite database of artifacts, claims and evidence plus a content-addressed
// store of artifact bytes. A Store is safe for concurrent use by several goroutines, and several Stores (in
// this process or others) may use the same directory at once.
type Store struct {
	dir      string
	db       *sql.DB
	readOnly bool

	mu    sync.Mutex
	stmts map[string]*sql.Stmt // by SQL text; see prepare

	shared *flock.Flock // a read-only Store's shared lock, held until Close
}

// Open opens the store in dir, creating dir (0700) and the database (0600) if needed and migrating the schema
// to the current version. It refuses a dir that is a symlink, owned by another user or open to group or others.
func Open(dir string) (*Store, error) {
	if err := atomicfile.MkdirPrivate(dir); err != nil {
		return nil, fmt.Errorf("open recall store: %w", err)
	}
	// Creating the database, switching it to WAL and migrating it must not interleave with another process
	// doing the same: SQLite returns "database is locked" without waiting in parts of that sequence.
	unlock, err := lockExclusive(context.Background(), dir)
	if err != nil {
		return nil, fmt.Errorf("open recall store: %w", err)
	}
	defer unlock()
	path := filepath.Join(dir, dbName)
	// SQLite creates files with 0644 minus the umask and gives -wal and -shm the mode of the database, so the
	// database is created here first with the mode we want.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open recall store: %w", err)
	}
	err = f.Chmod(0o600)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("open recall store: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	// NORMAL syncs the log before each checkpoint and the database after it, not on every commit. Close
	// checkpoints under the exclusive lock before any caller reports success, so a commit is on disk by the time
	// anyone is told it happened, at three fewer fsyncs per apply.
	q.Add("_pragma", "synchronous(NORMAL)")
	// Writers take the write lock when the transaction begins, so two writers wait for each other through the
	// busy timeout instead of failing when a read transaction tries to become a write transaction.
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+escapePath(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open recall store: %w", err)
	}
	// One connection, kept until Close: the connection that closes last checkpoints the log into the
	// database file, which must happen under the exclusive lock (see lockExclusive).
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	s := &Store{dir: dir, db: db}
	if err := migrate(context.Background(), db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open recall store %s: %w", dir, err)
	}
	return s, nil
}

// OpenExisting opens the store in dir for reading. It creates no file or directory: when dir holds no
// database it returns [ErrNoStore]. Apply on a read-only Store fails. A process that exits right after
// reading need not Close it: the exit releases the store's lock and files, and nothing is written back.
func OpenExisting(dir string) (*Store, error) {
	path := filepath.Join(dir, dbName)
	if ok, err := Exists(dir); err != nil || !ok {
		return nil, cmp.Or(err, ErrNoStore)
	}
	if err := atomicfile.CheckPrivate(dir); err != nil {
		return nil, fmt.Errorf("open recall store: %w", err)
	}
	// Hold a shared lock until Close: writers take the exclusive lock to change the database file, so
	// while it is held the file cannot change under this Store. The lock file is opened read-only, so a
	// missing one (a store from before it existed) is not created.
	lk := flock.New(filepath.Join(dir, lockName), flock.SetFlag(os.O_RDONLY))
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	locked, err := lk.TryRLockContext(ctx, lockRetry)
	cancel()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		lk = nil
	case err != nil:
		return nil, fmt.Errorf("open recall store: lock: %w", err)
	case !locked:
		return nil, fmt.Errorf("open recall store: %w", ErrBusy)
	}
	release := func() {
		if lk != nil {
			lk.Unlock()
		}
	}
	q := url.Values{}
	q.Set("mode", "ro")
	// With no log file, every committed write is in the database file and, under the shared lock, no
	// writer can change it: open it as immutable, which reads without creating the -wal and -shm files
	// that SQLite otherwise needs for a database in WAL mode.
	// An immutable database takes no locks, so only the other kind waits for writers.
	if _, err := os.Lstat(path + "-wal"); errors.Is(err, fs.ErrNotExist) && lk != nil {
		q.Set("immutable", "1")
	} else {
		q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	}
	q.Add("_pragma", "mmap_size(268435456)")
	db, err := sql.Open("sqlite", "file:"+escapePath(path)+"?"+q.Encode())
	if err != nil {
		release()
		return nil, fmt.Errorf("open recall store: %w", err)
	}
	v, err := schemaVersion(context.Background(), db)
	if err == nil && v == 0 {
		err = ErrNoStore
	} else if err == nil && v > len(migrations) {
		err = fmt.Errorf("open recall store %s: schema version %d is newer than this program knows (%d)", dir, v, len(migrations))
	}
	if err != nil {
		db.Close()
		release()
		if errors.Is(err, ErrNoStore) {
			return nil, err
		}
		return nil, fmt.Errorf("open recall store %s: %w", dir, err)
	}
	return &Store{dir: dir, db: db, readOnly: true, shared: lk}, nil
}

// Exists reports whether dir holds a store, that is a database that [Open] created; it opens and creates
// nothing.
func Exists(dir string) (bool, error) {
	fi, err := os.Stat(filepath.Join(dir, dbName))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("open recall store: %w", err)
	}
	return fi.Size() > 0, nil
}

// Close releases the database and, for a read-only Store, its shared lock. A writable Store waits for the
// exclusive lock, because closing the last connection writes the log into the database file.
func (s *Store) Close() error {
	s.mu.Lock()
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = nil
	s.mu.Unlock()
	if !s.readOnly {
		unlock, err := lockExclusive(context.Background(), s.dir)
		if err != nil {
			s.db.Close()
			return fmt.Errorf("close recall store: %w", err)
		}
		defer unlock()
	}
	err := s.db.Close()
	if s.shared != nil {
		s.shared.Unlock()
	}
	if err != nil {
		return fmt.Errorf("close recall store: %w", err)
	}
	return nil
}

// escapePath makes a file path safe inside a file: URI (a '?' or '#' in a directory name would end the path).
func escapePath(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}

// prepare returns a prepared statement for text, preparing it once per Store: SQLite's parser costs as
// much as a small query.
func (s *Store) prepare(ctx context.Context, text string) (*sql.Stmt, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.stmts[text]; ok {
		return st, nil
	}
	st, err := s.db.PrepareContext(ctx, text)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	if s.stmts == nil {
		s.stmts = map[string]*sql.Stmt{}
	}
	s.stmts[text] = st
	return st, nil
}

// query runs a read statement through the statement cache.
func (s *Store) query(ctx context.Context, text string, args ...any) (*sql.Rows, error) {
	st, err := s.prepare(ctx, text)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// column runs a statement whose rows have one column and returns that column.
func column[T any](ctx context.Context, db *sql.DB, text string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, text, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Optimize merges the full-text indexes into one segment each, which makes later queries faster (FTS5 merges
// incrementally on every write, which leaves many small segments), then rewrites the database file, which
// gives back the pages the merge freed. Results and ids stay as they were. It takes the write lock for a
// time that grows with the store (about a second per 100,000 claims), and needs free disk space while it
// runs: about the database's size in dir for the log, and as much again in the temporary directory
// ($TMPDIR) for SQLite's copy.
func (s *Store) Optimize(ctx context.Context) error {
	if s.readOnly {
		return fmt.Errorf("optimize: %w", ErrReadOnly)
	}
	unlock, err := lockExclusive(ctx, s.dir)
	if err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	defer unlock()
	for _, t := range []string{"claims_fts", "artifacts_fts"} {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO `+t+` (`+t+`) VALUES ('optimize')`); err != nil {
			return fmt.Errorf("optimize %s: %w", t, err)
		}
	}
	// Every table keeps its ids through VACUUM: each has an INTEGER PRIMARY KEY or no rowid, the full-text
	// shadow tables included.
	if _, err := s.db.ExecContext(ctx, `VACUUM`); err != nil {
		return fmt.Errorf("optimize: compact: %w", err)
	}
	// The rewrite went through the log, which is now as large as the database: write it back and empty it.
	var busy, logPages, written int
	if err := s.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logPages, &written); err != nil {
		return fmt.Errorf("optimize: checkpoint: %w", err)
	}
	if busy != 0 {
		return fmt.Errorf("optimize: checkpoint: %w", ErrBusy)
	}
	return nil
}

// FileSize returns the size of the database file in bytes, without its log: after [Store.Optimize] or
// [Store.Close], everything.
func (s *Store) FileSize() (int64, error) {
	fi, err := os.Stat(filepath.Join(s.dir, dbName))
	if err != nil {
		return 0, fmt.Errorf("recall store size: %w", err)
	}
	return fi.Size(), nil
}
