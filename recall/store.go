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

	"github.com/memoree/memoree/internal/atomicfile"
	"github.com/memoree/memoree/internal/lock"

	// The pure-Go SQLite driver (with FTS5), registered as "sqlite".
	"modernc.org/sqlite"
)

// Permission policy for this package: the data directory and every directory under it are 0700, the
// database and its -wal/-shm files 0600, artifact files 0400, whatever the umask.

// ErrNoStore is returned by [OpenExisting] when nothing was ever applied in the directory.
var ErrNoStore = errors.New("no recall store yet")

// dbName is the database file inside the store directory; casDir holds the artifact files; lockName is
// the lock file that serializes creating and migrating the database, and gateName the one that lets a
// waiting writer in before new readers (both never deleted; see lockExclusive).
const (
	dbName   = "recall.db"
	casDir   = "cas"
	lockName = "recall.lock"
	gateName = "recall.gate"
)

// busyTimeoutMS is how long a connection waits for another process's write lock before failing.
const busyTimeoutMS = 10000

// lockWait is how long a Store waits for the lock file before returning [ErrBusy].
const lockWait = 10 * time.Second

// ErrBusy is returned when the store stayed locked by another Store for longer than the wait allows, for
// example because this process holds a read-only Store open while it tries to write.
var ErrBusy = errors.New("recall store is busy")

// Locking protocol. SQLite's own locks make concurrent use safe; the lock file adds one guarantee on top,
// so that read-only Stores can read without creating files: the database file changes only under the
// exclusive lock (creating and migrating in Open, each apply, Optimize, and Close, which checkpoints the
// log), and a read-only Store holds the shared lock from OpenExisting to Close.
//
// flock lets a new shared lock in while an exclusive one waits, so readers that keep coming (one process
// after another, each holding the shared lock for its life) would starve a writer. The gate prevents that:
// a writer takes the gate exclusively before it waits for the lock, and a reader takes the gate shared only
// while it takes the lock. Once a writer waits, new readers queue at the gate, the readers already in
// finish, and the writer gets the lock.

// lockExclusive takes the exclusive lock of the store directory d, creating the lock files if needed, and
// returns its release. It waits at most lockWait, then returns [ErrBusy].
func lockExclusive(ctx context.Context, d *atomicfile.Dir) (func(), error) {
	ctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	var held []*lock.File
	release := func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i].Close()
		}
	}
	for _, name := range []string{gateName, lockName} {
		lk, err := lock.Open(d.Root(), d.Path(), name)
		if err != nil {
			release()
			return nil, fmt.Errorf("lock: %w", err)
		}
		held = append(held, lk)
		if err := lk.Lock(ctx, true); err != nil {
			release()
			if ctx.Err() != nil && context.Cause(ctx) == context.DeadlineExceeded {
				return nil, ErrBusy
			}
			return nil, fmt.Errorf("lock: %w", err)
		}
	}
	return release, nil
}

// lockShared takes the shared lock of the store directory d for a reader, creating nothing: it returns nil
// and no error for a store with no lock file (made before there was one). It waits at most lockWait, then
// returns [ErrBusy].
func lockShared(d *atomicfile.Dir) (*lock.File, error) {
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	busy := func(err error) error {
		if ctx.Err() != nil {
			return ErrBusy
		}
		return fmt.Errorf("lock: %w", err)
	}
	// Through the gate, if there is one: it is shut while a writer waits.
	gate, err := lock.OpenExisting(d.Root(), d.Path(), gateName)
	switch {
	case err == nil:
		defer gate.Close()
		if err := gate.Lock(ctx, false); err != nil {
			return nil, busy(err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("lock: %w", err)
	}
	lk, err := lock.OpenExisting(d.Root(), d.Path(), lockName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if err := lk.Lock(ctx, false); err != nil {
		lk.Close()
		return nil, busy(err)
	}
	return lk, nil
}

// openDir opens the store directory through checked handles: its parent, the data directory, must be the
// user's and closed to writes by others, and dir itself private (see [atomicfile.OpenOwned]). With create
// it creates them (mode 0700); without, it creates nothing and reports a missing one as [ErrNoStore].
func openDir(dir string, create bool) (*atomicfile.Dir, error) {
	dir = filepath.Clean(dir)
	if create {
		data, err := atomicfile.OpenOwned(filepath.Dir(dir))
		if err != nil {
			return nil, fmt.Errorf("data directory: %w", err)
		}
		defer data.Close()
		return data.Sub(filepath.Base(dir))
	}
	data, err := atomicfile.LookupOwned(filepath.Dir(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoStore
	}
	if err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	defer data.Close()
	d, err := data.Lookup(filepath.Base(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoStore
	}
	return d, err
}

// Store is the long-term memory: a SQLite database of artifacts, claims and evidence plus a content-addressed
// store of artifact bytes. A Store is safe for concurrent use by several goroutines, and several Stores (in
// this process or others) may use the same directory at once.
type Store struct {
	dir      string
	root     *atomicfile.Dir // dir, opened and checked once; lock files and artifacts are reached through it
	db       *sql.DB
	readOnly bool

	mu    sync.Mutex
	stmts map[string]*sql.Stmt // by SQL text; see prepare

	shared *lock.File // a read-only Store's shared lock, held until Close
}

// Open opens the store in dir, creating dir (0700) and the database (0600) if needed and migrating the schema
// to the current version. It refuses a dir that is a symlink, owned by another user or open to group or others,
// and a parent of dir (the data directory) that is not the user's or that others can write. An error for lack
// of space wraps syscall.ENOSPC and names dir.
func Open(dir string) (_ *Store, err error) {
	defer func() { err = noSpace(dir, err) }()
	root, err := openDir(dir, true)
	if err != nil {
		return nil, fmt.Errorf("open recall store: %w", err)
	}
	defer func() {
		if err != nil {
			root.Close()
		}
	}()
	// Creating the database, switching it to WAL and migrating it must not interleave with another process
	// doing the same: SQLite returns "database is locked" without waiting in parts of that sequence.
	unlock, err := lockExclusive(context.Background(), root)
	if err != nil {
		return nil, fmt.Errorf("open recall store: %w", err)
	}
	defer unlock()
	path := filepath.Join(dir, dbName)
	// SQLite creates files with 0644 minus the umask and gives -wal and -shm the mode of the database, so the
	// database is created here first with the mode we want.
	f, err := root.Root().OpenFile(dbName, os.O_RDWR|os.O_CREATE, 0o600)
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
	// The log is kept between Stores (see persistLog) and cut to nothing whenever it is emptied.
	q.Add("_pragma", "journal_size_limit(0)")
	// Pages are read through a memory map, as readers read them (see openExisting), instead of one pread per
	// page: an apply is a process of its own and starts with an empty page cache. Writes still go through
	// the log and write(2), so what is synced and when does not change.
	q.Add("_pragma", "mmap_size(268435456)")
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
	s := &Store{dir: dir, root: root, db: db}
	if err := persistLog(context.Background(), db, true); err != nil {
		db.Close()
		return nil, fmt.Errorf("open recall store %s: %w", dir, err)
	}
	if err := migrate(context.Background(), db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open recall store %s: %w", dir, err)
	}
	if err := s.finishScrub(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open recall store %s: %w", dir, err)
	}
	return s, nil
}

// OpenExisting opens the store in dir for reading. It creates no file or directory: when dir holds no
// database it returns [ErrNoStore]. Apply on a read-only Store fails. A process that exits right after
// reading need not Close it: the exit releases the store's lock and files, and nothing is written back.
//
// A store of an older schema version cannot be read as it is: OpenExisting first migrates it as [Open]
// does (under the exclusive lock, writing the database), once, and then opens it for reading.
func OpenExisting(dir string) (*Store, error) {
	s, err := openExisting(dir)
	if !errors.Is(err, errOldSchema) {
		return s, err
	}
	w, err := Open(dir)
	if err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return openExisting(dir)
}

// errOldSchema is openExisting's error for a database that needs migrating first.
var errOldSchema = errors.New("recall store has an older schema")

func openExisting(dir string) (_ *Store, err error) {
	defer func() { err = noSpace(dir, err) }()
	path := filepath.Join(dir, dbName)
	root, err := openDir(dir, false)
	if errors.Is(err, ErrNoStore) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("open recall store: %w", err)
	}
	if ok, err := exists(root); err != nil || !ok {
		root.Close()
		return nil, cmp.Or(err, ErrNoStore)
	}
	// Hold a shared lock until Close: writers take the exclusive lock to change the database file, so
	// while it is held the file cannot change under this Store. The lock files are opened read-only, so a
	// missing one (a store from before it existed) is not created.
	lk, err := lockShared(root)
	if err != nil {
		root.Close()
		return nil, fmt.Errorf("open recall store: %w", err)
	}
	release := func() {
		if lk != nil {
			lk.Close()
		}
		root.Close()
	}
	q := url.Values{}
	q.Set("mode", "ro")
	// With no log file or an empty one, every committed write is in the database file and, under the shared
	// lock, no writer can change it: open it as immutable, which reads without creating or using the -wal
	// and -shm files that SQLite otherwise needs for a database in WAL mode. A writable Store leaves the log
	// empty when it closes (see persistLog), and a write that failed for lack of space leaves one, with a
	// -shm file too short to use, and reading must still work then.
	// An immutable database takes no locks, so only the other kind waits for writers.
	if fi, err := root.Root().Lstat(dbName + "-wal"); (errors.Is(err, fs.ErrNotExist) || err == nil && fi.Size() == 0) && lk != nil {
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
	} else if err == nil && v < len(migrations) {
		err = errOldSchema
	}
	if err != nil {
		db.Close()
		release()
		if errors.Is(err, ErrNoStore) || errors.Is(err, errOldSchema) {
			return nil, err
		}
		return nil, fmt.Errorf("open recall store %s: %w", dir, err)
	}
	return &Store{dir: dir, root: root, db: db, readOnly: true, shared: lk}, nil
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

// exists is [Exists] for an opened store directory.
func exists(d *atomicfile.Dir) (bool, error) {
	fi, err := d.Root().Lstat(dbName)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("open recall store: %w", err)
	}
	return fi.Mode().IsRegular() && fi.Size() > 0, nil
}

// Close releases the database and, for a read-only Store, its shared lock. A writable Store waits for the
// exclusive lock, because closing the last connection writes the log into the database file.
func (s *Store) Close() (err error) {
	defer func() { err = noSpace(s.dir, err) }()
	defer s.root.Close()
	s.mu.Lock()
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = nil
	s.mu.Unlock()
	if !s.readOnly {
		unlock, err := lockExclusive(context.Background(), s.root)
		if err != nil {
			s.db.Close()
			return fmt.Errorf("close recall store: %w", err)
		}
		defer unlock()
	}
	err = s.db.Close()
	if s.shared != nil {
		s.shared.Close()
	}
	if err != nil {
		return fmt.Errorf("close recall store: %w", err)
	}
	return nil
}

// persistLog has the connection keep the log (-wal) and its index (-shm) when it closes, instead of deleting
// them, or (on false) delete them again. The checkpoint at Close writes every frame into the database file
// and, with journal_size_limit 0, cuts the log to zero bytes, so the next Store (every apply is one process)
// reuses both files instead of creating them again. The syncs are the same, and an empty log reads as no
// log (see openExisting).
func persistLog(ctx context.Context, db *sql.DB, on bool) error {
	c, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Raw(func(dc any) error {
		fc, ok := dc.(sqlite.FileControl)
		if !ok {
			return errors.New("sqlite driver without file control")
		}
		mode := 0
		if on {
			mode = 1
		}
		_, err := fc.FileControlPersistWAL("main", mode)
		return err
	})
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
func column[T any](ctx context.Context, db querier, text string, args ...any) ([]T, error) {
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
	unlock, err := lockExclusive(ctx, s.root)
	if err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	defer unlock()
	for _, t := range []string{"claims_fts", "claims_active", "artifacts_fts"} {
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
	// A compacted store keeps no log: Close deletes it.
	if err := persistLog(ctx, s.db, false); err != nil {
		return fmt.Errorf("optimize: %w", err)
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
