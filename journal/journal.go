package journal

// File policy for this package: the journal directory is 0700 and every day file 0600, whatever the umask.
// A day file is only ever appended to, one whole line per write(2) on a descriptor opened with O_APPEND,
// under an exclusive flock of the lock file, and synced before Append returns.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/memoree/memoree/internal/atomicfile"
	"github.com/memoree/memoree/internal/lock"
)

// Op names an operation.
type Op string

// The operations a journal records.
const (
	Staged     Op = "staged"     // a checkpoint was staged
	Replaced   Op = "replaced"   // a staged checkpoint was replaced by a newer one of its session
	Flagged    Op = "flagged"    // a staged checkpoint was flagged by the secret scan
	Dropped    Op = "dropped"    // a pending checkpoint was dropped
	Applied    Op = "applied"    // a note or checkpoint was applied to the recall store
	Forgot     Op = "forgot"     // claims or artifacts were forgotten
	Superseded Op = "superseded" // claims were marked superseded by hand
	Undone     Op = "undone"     // an operation was undone
	Redone     Op = "redone"     // an undone operation was redone
	Imported   Op = "imported"   // an export file or a directory of notes was imported
	Exported   Op = "exported"   // the store was exported
	Reindexed  Op = "reindexed"  // claims were compiled again
)

var knownOps = map[Op]bool{Staged: true, Replaced: true, Flagged: true, Dropped: true, Applied: true, Forgot: true,
	Superseded: true, Undone: true, Redone: true, Imported: true, Exported: true, Reindexed: true}

// Entry is one journal line. It holds identifiers, counts and sizes only: no note text, claim text or secret
// ever goes in, and the type has no field that could carry one. Seq and Prev are set by [Journal.Append].
type Entry struct {
	Seq         int64     `json:"seq"`                    // 1 for the first entry ever, then one more per entry
	Time        time.Time `json:"time"`                   // UTC
	Op          Op        `json:"op"`                     //
	Session     string    `json:"session,omitempty"`      // session ID
	Checkpoint  string    `json:"checkpoint,omitempty"`   // checkpoint ID (ck-…)
	Artifact    string    `json:"artifact,omitempty"`     // artifact hash (or several, comma-separated, shortened)
	NewClaims   int       `json:"new_claims,omitempty"`   // claims first stored
	KnownClaims int       `json:"known_claims,omitempty"` // claims stored before, given new evidence
	Claims      int       `json:"claims,omitempty"`       // claims removed, superseded, restored or moved
	Artifacts   int       `json:"artifacts,omitempty"`    // artifacts affected
	Bytes       int64     `json:"bytes,omitempty"`        // bytes of note or artifact text affected
	Compiler    string    `json:"compiler,omitempty"`     // claim compiler and version, e.g. rules/1
	Findings    int       `json:"findings,omitempty"`     // secret-scan findings (never their text)
	Purge       bool      `json:"purge,omitempty"`        // forget kept no copy: it cannot be undone
	Target      int64     `json:"target,omitempty"`       // for undone and redone: the undo record's number
	Prev        string    `json:"prev"`                   // hex SHA-256 of the previous entry's line, "" for the first
	// Sum is the hex SHA-256 of the entry's own line as it reads with sum "": the chain shows an edit of an
	// entry by the next entry's prev, and Sum shows one of the newest entry, which no entry follows yet.
	Sum string `json:"sum"`
}

// Journal appends to and reads the journal in one directory. A Journal holds no open file between calls;
// several Journals, in this process or others, may append to the same directory at once.
type Journal struct {
	dir    string
	noSync bool
}

// Options controls a Journal.
type Options struct {
	// NoSync leaves writing entries back to the operating system instead of syncing each one: an Append then
	// costs a fraction of what it does, and a power failure may lose the newest entries (a crash of the
	// program loses none). Entries are never torn into each other either way.
	NoSync bool
}

// lockName is the lock file that serializes appends (never deleted).
const lockName = "journal.lock"

// lockWait bounds how long Append waits for another writer.
const lockWait = 10 * time.Second

// dayFile matches a day file's name; the name is the UTC date of its entries.
var dayFile = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}\.jsonl$`)

// ErrBusy is returned when another writer held the journal for longer than Append waits.
var ErrBusy = errors.New("journal is busy")

// Open returns the journal in dir, creating dir (0700) if needed. It refuses a dir that is a symlink, owned by
// another user or open to group or others.
func Open(dir string) (*Journal, error) { return OpenOptions(dir, Options{}) }

// OpenOptions is [Open] with options.
func OpenOptions(dir string, opt Options) (*Journal, error) {
	if err := atomicfile.MkdirPrivate(dir); err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	return &Journal{dir: dir, noSync: opt.NoSync}, nil
}

// lock takes the exclusive lock of the journal, waiting at most lockWait for another writer, and returns
// what releases it.
func (j *Journal) lock() (func(), error) {
	root, err := os.OpenRoot(j.dir)
	if err != nil {
		return nil, fmt.Errorf("journal: lock: %w", err)
	}
	defer root.Close() // the lock file stays open on its own
	lk, err := lock.Open(root, j.dir, lockName)
	if err != nil {
		return nil, fmt.Errorf("journal: lock: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	if err := lk.Lock(ctx, true); err != nil {
		lk.Close()
		if ctx.Err() != nil {
			return nil, ErrBusy
		}
		return nil, fmt.Errorf("journal: lock: %w", err)
	}
	return func() { lk.Close() }, nil
}

// Dir returns the journal's directory.
func (j *Journal) Dir() string { return j.dir }

// Append adds e as the newest entry and returns it as written, with Seq and Prev set. e.Time is made UTC; it
// picks the day file, but never one older than the newest file, so that files, chain and lines stay in the same
// order if the clock steps back. The entry is on disk when Append returns (unless [Options.NoSync]).
// Concurrent Appends never interleave, and none is lost. After a partial last line (an append cut short by a
// crash, or a file cut by hand) the entry starts on a line of its own and chains to the last whole entry;
// [Verify] keeps reporting the partial line.
func (j *Journal) Append(e Entry) (Entry, error) {
	out, err := j.AppendAll([]Entry{e})
	if err != nil {
		return Entry{}, err
	}
	return out[0], nil
}

// AppendAll adds the entries as the newest, in order, as [Journal.Append] adds one: in one write and one
// sync, so that the entries of one operation (an apply and the supersessions it made) are on disk together
// or, after a crash, cut at the same place. The entries share the day file of the first.
func (j *Journal) AppendAll(es []Entry) ([]Entry, error) {
	if len(es) == 0 {
		return nil, nil
	}
	es = slices.Clone(es)
	for i := range es {
		if !knownOps[es[i].Op] {
			return nil, fmt.Errorf("journal: unknown operation %q", es[i].Op)
		}
		if es[i].Time.IsZero() {
			return nil, errors.New("journal: entry without time")
		}
		es[i].Time = es[i].Time.UTC()
	}
	unlock, err := j.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	e := &es[0] // chains to the newest entry; the others chain to the one before them

	files, err := dayFiles(j.dir)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	e.Seq, e.Prev = 1, ""
	start := 0 // where the entry being marshalled starts in line, below
	name := e.Time.Format("2006-01-02") + ".jsonl"
	torn := false // the newest file ends in a partial line
	// The newest file with a whole line holds the newest entry.
	for i := len(files) - 1; i >= 0; i-- {
		last, tail, err := lastLine(filepath.Join(j.dir, files[i]))
		if err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
		if len(tail) > 0 {
			// Only the newline may be missing: then the tail is the newest entry.
			if _, err := Parse(tail); err == nil {
				last = tail
			}
			torn = torn || i == len(files)-1
		}
		if last == nil {
			continue
		}
		prev, err := Parse(last)
		if err != nil {
			return nil, fmt.Errorf("journal: %s: last entry: %w; run memoree log --verify", files[i], err)
		}
		e.Seq, e.Prev = prev.Seq+1, lineHash(last)
		break
	}
	if len(files) > 0 && files[len(files)-1] > name {
		name = files[len(files)-1]
	}
	var line []byte
	for i := range es {
		if i > 0 {
			es[i].Seq, es[i].Prev = es[i-1].Seq+1, lineHash(line[start:len(line)-1])
		}
		start = len(line)
		if es[i].Sum, err = entrySum(es[i]); err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
		b, err := json.Marshal(es[i])
		if err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
		line = append(append(line, b...), '\n')
	}
	path := filepath.Join(j.dir, name)
	if torn && name == files[len(files)-1] {
		line = append([]byte{'\n'}, line...)
	}
	_, statErr := os.Lstat(path)
	// Nothing in the data directory follows a symlink: one in place of a day file would have the entries
	// written wherever it points, and the journal read as empty. O_NONBLOCK keeps a FIFO there from holding
	// the open; the check below refuses it.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("journal: %s is a symlink, which memoree does not follow in its data directory: remove it", path)
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("journal: %s is not a regular file: remove it", path)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		if err := f.Chmod(0o600); err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
	}
	// One write for the entries: with O_APPEND their lines land whole at the end, even if a writer that
	// ignores the lock appends too.
	if _, err := f.Write(line); err != nil {
		return nil, fmt.Errorf("journal: write: %w", err)
	}
	if j.noSync {
		return es, nil
	}
	if err := f.Sync(); err != nil {
		return nil, fmt.Errorf("journal: sync: %w", err)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		if err := syncDir(j.dir); err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
	}
	return es, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// lineHash is the chain link: the hex SHA-256 of a line without its newline.
func lineHash(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// dayFiles lists the day files in dir, oldest first.
func dayFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() && dayFile.MatchString(e.Name()) {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out, nil
}

// lastLine returns the last whole line of the file at path without its newline, or nil when it has none, and
// the partial line after it, if the file does not end in a newline.
func lastLine(path string) (line, tail []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil || size == 0 {
		return nil, nil, err
	}
	// Read backwards in blocks until the newline before the last whole line.
	const block = 4096
	var buf []byte
	end := -1 // index in buf of the newline that ends the last whole line
	for off := size; off > 0; {
		n := min(int64(block), off)
		off -= n
		chunk := make([]byte, n)
		if _, err := f.ReadAt(chunk, off); err != nil {
			return nil, nil, err
		}
		buf = append(chunk, buf...)
		if end >= 0 {
			end += int(n)
		} else if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			end = i
		}
		if end < 0 {
			continue
		}
		tail = buf[end+1:]
		if i := bytes.LastIndexByte(buf[:end], '\n'); i >= 0 {
			return buf[i+1 : end], tail, nil
		}
		if off == 0 {
			return buf[:end], tail, nil
		}
	}
	return nil, buf, nil
}

// Parse decodes one journal line (without its newline). It accepts exactly what [Journal.Append] writes:
// one JSON object with known fields only, a known operation, a positive sequence number and a time.
func Parse(line []byte) (Entry, error) {
	var e Entry
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return Entry{}, fmt.Errorf("malformed entry: %w", err)
	}
	if dec.More() {
		return Entry{}, errors.New("malformed entry: data after the object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return Entry{}, errors.New("malformed entry: data after the object")
	}
	switch {
	case e.Seq < 1:
		return Entry{}, fmt.Errorf("malformed entry: sequence number %d", e.Seq)
	case !knownOps[e.Op]:
		return Entry{}, fmt.Errorf("malformed entry: unknown operation %q", e.Op)
	case e.Time.IsZero():
		return Entry{}, errors.New("malformed entry: no time")
	case e.Prev != "" && !isHash(e.Prev):
		return Entry{}, errors.New("malformed entry: prev is not a SHA-256")
	}
	e.Time = e.Time.UTC()
	if sum, err := entrySum(e); err != nil || sum != e.Sum {
		return Entry{}, errors.New("changed entry: its sum does not match its fields")
	}
	return e, nil
}

// entrySum computes [Entry.Sum]: the hex SHA-256 of e's JSON line with Sum empty.
func entrySum(e Entry) (string, error) {
	e.Sum = ""
	line, err := json.Marshal(e)
	if err != nil {
		return "", err
	}
	return lineHash(line), nil
}

func isHash(s string) bool {
	return len(s) == 2*sha256.Size && strings.Trim(s, "0123456789abcdef") == ""
}

// Read yields the entries whose Time is at or after since (all of them for a zero since), oldest first, with
// the file and line each came from. It skips day files that end before since, so a recent since reads little.
// It does not check the chain (see [Verify]); a line that does not parse stops it with an error naming the
// file and line.
func Read(dir string, since time.Time) iter.Seq2[Located, error] {
	return func(yield func(Located, error) bool) {
		files, err := dayFiles(dir)
		if err != nil {
			yield(Located{}, fmt.Errorf("read journal: %w", err))
			return
		}
		day := since.UTC().Format("2006-01-02") + ".jsonl"
		for _, name := range files {
			// An entry is never in a file older than its day (Append writes into the newest file when the clock
			// steps back, never into an older one), so older files hold nothing since.
			if !since.IsZero() && name < day {
				continue
			}
			for loc, err := range readFile(filepath.Join(dir, name)) {
				if err != nil {
					yield(Located{}, err)
					return
				}
				if !since.IsZero() && loc.Entry.Time.Before(since) {
					continue
				}
				if !yield(loc, nil) {
					return
				}
			}
		}
	}
}

// Located is an entry with where it was read.
type Located struct {
	Entry Entry
	File  string // day file name, e.g. 2025-03-01.jsonl
	Line  int    // 1-based
	hash  string // lineHash of the line
	torn  bool
}

// maxLine bounds one journal line; entries are a few hundred bytes.
const maxLine = 1 << 20

// readFile yields the entries of one day file. A last line without a newline is yielded with torn set and
// no error, so that Verify can report it; Read reports it as an error.
func readFile(path string) iter.Seq2[Located, error] {
	return func(yield func(Located, error) bool) {
		f, err := os.Open(path)
		if err != nil {
			yield(Located{}, fmt.Errorf("read journal: %w", err))
			return
		}
		defer f.Close()
		name := filepath.Base(path)
		r := bufio.NewReaderSize(f, 64<<10)
		for n := 1; ; n++ {
			line, err := r.ReadSlice('\n')
			if errors.Is(err, bufio.ErrBufferFull) {
				// A long line: gather it whole, up to maxLine.
				full := append([]byte(nil), line...)
				for errors.Is(err, bufio.ErrBufferFull) && len(full) <= maxLine {
					line, err = r.ReadSlice('\n')
					full = append(full, line...)
				}
				line = full
				if len(full) > maxLine {
					yield(Located{}, fmt.Errorf("read journal: %s:%d: line longer than %d bytes", name, n, maxLine))
					return
				}
			}
			if err == io.EOF && len(line) == 0 {
				return
			}
			if err != nil && err != io.EOF {
				yield(Located{}, fmt.Errorf("read journal: %s: %w", name, err))
				return
			}
			torn := err == io.EOF
			body := bytes.TrimSuffix(line, []byte("\n"))
			e, perr := Parse(body)
			if perr != nil && !torn {
				yield(Located{}, fmt.Errorf("read journal: %s:%d: %w", name, n, perr))
				return
			}
			loc := Located{Entry: e, File: name, Line: n, hash: lineHash(body), torn: torn}
			if torn {
				yield(loc, &TornError{File: name, Line: n})
				return
			}
			if !yield(loc, nil) {
				return
			}
		}
	}
}

// TornError is a last line without its newline: an append that was cut short, or a file truncated by hand.
type TornError struct {
	File string
	Line int
}

func (e *TornError) Error() string {
	return fmt.Sprintf("read journal: %s:%d: truncated entry", e.File, e.Line)
}
