package pending

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memoree/memoree/internal/atomicfile"
	"github.com/memoree/memoree/internal/lock"
	"github.com/memoree/memoree/scan"
)

// IDPrefix starts every checkpoint ID.
const IDPrefix = "ck-"

// MinPrefix is the fewest hex digits of an ID prefix that commands accept, after its "ck-" if given.
const MinPrefix = 4

// ErrNotFound means no checkpoint matches an ID or prefix.
var ErrNotFound = errors.New("no such checkpoint")

// ErrCorrupt means a checkpoint's file cannot be read as a checkpoint (cut short, edited by hand); [Dir.Drop]
// still removes it.
var ErrCorrupt = errors.New("unreadable checkpoint")

// AmbiguousError reports an ID prefix that matches more than one checkpoint.
type AmbiguousError struct {
	Prefix     string
	Candidates []string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("ID prefix %q is ambiguous: it matches %s", e.Prefix, strings.Join(e.Candidates, ", "))
}

// Item is one staged checkpoint as stored on disk.
type Item struct {
	ID            string         `json:"id"`
	Session       string         `json:"session"`
	Task          string         `json:"task"`
	Created       time.Time      `json:"created"`
	Updated       time.Time      `json:"updated"`
	Bytes         int            `json:"bytes"`
	OriginalBytes int            `json:"original_bytes"`
	Truncated     bool           `json:"truncated"`
	Flagged       bool           `json:"flagged"`
	Findings      []scan.Finding `json:"findings"`
	Refs          []Ref          `json:"refs,omitempty"`
	Applied       *Applied       `json:"applied,omitempty"`
	Text          string         `json:"text"`
}

// Applied records the last promotion of a checkpoint into the recall store.
type Applied struct {
	Artifact string    `json:"artifact"` // SHA-256 of the exact text applied, lowercase hex
	Time     time.Time `json:"time"`
}

// Unapplied reports whether the text has never been applied: no apply recorded, or the text replaced since.
func (it *Item) Unapplied() bool {
	return it.Applied == nil || it.ChangedSinceApply()
}

// ChangedSinceApply reports whether the text was replaced after its last apply.
func (it *Item) ChangedSinceApply() bool {
	return it.Applied != nil && it.Applied.Artifact != TextHash(it.Text)
}

// TextHash returns the lowercase hex SHA-256 of text: the address the recall store gives the same bytes.
func TextHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// IDFor returns the checkpoint ID of a session: stable, short, and safe as a file name whatever the session ID
// holds, because it is a hash of it.
func IDFor(session string) string {
	sum := sha256.Sum256([]byte(session))
	return IDPrefix + hex.EncodeToString(sum[:6])
}

// Dir is a pending directory, opened once: every file in it is reached through the directory handles that
// [Open] checked, so replacing the directory or a part of it afterwards, by a symlink or another directory,
// redirects nothing.
type Dir struct {
	dir   *atomicfile.Dir // the checkpoint files and their temp files
	locks *atomicfile.Dir // one lock file per checkpoint
}

// Open returns the pending directory at path, creating it and its locks directory (mode 0700) if needed. The
// parent of path is the data directory: it is created too if needed (mode 0700), and must belong to the user
// and be closed to writes by group and others. Open refuses a pending directory, or locks directory, that is a
// symlink, belongs to another user, or is open to group or others; the error says how to fix the mode.
func Open(path string) (*Dir, error) {
	path = filepath.Clean(path)
	data, err := atomicfile.OpenOwned(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	defer data.Close()
	dir, err := data.Sub(filepath.Base(path))
	if err != nil {
		return nil, fmt.Errorf("pending directory: %w", err)
	}
	locks, err := dir.Sub("locks")
	if err != nil {
		dir.Close()
		return nil, fmt.Errorf("pending directory: %w", err)
	}
	return &Dir{dir: dir, locks: locks}, nil
}

// Close releases the directory's handles. A process that exits right after its command need not call it.
func (d *Dir) Close() error {
	return errors.Join(d.dir.Close(), d.locks.Close())
}

// Note is what a checkpoint stages.
type Note struct {
	Session, Task string
	Text          []byte // the text to store, already capped: shorter than OriginalBytes when it was cut
	OriginalBytes int
	Findings      []scan.Finding // in Text; any makes the checkpoint flagged
	Refs          []Ref          // provenance references; a replacement's refs replace the earlier ones
}

// Ref is a provenance reference a checkpoint records, KEY=VALUE: the context window, work item or issue the
// note relies on, or the git commit and branch it was written on. It travels with the note when it is applied.
type Ref struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Put stages n as the checkpoint of its session, replacing any earlier text of that session. A replacement
// keeps the ID, the creation time, the task when n has none, and the record of the last apply. It returns the
// earlier checkpoint it replaced, or nil. Puts for one session are serialized by a lock; puts for different
// sessions do not wait for each other.
func (d *Dir) Put(n Note, now time.Time) (it Item, prev *Item, err error) {
	id := IDFor(n.Session)
	unlock, err := d.lock(id)
	if err != nil {
		return Item{}, nil, err
	}
	defer unlock()

	it = Item{
		ID: id, Session: n.Session, Task: n.Task, Created: now, Updated: now,
		Bytes: len(n.Text), OriginalBytes: n.OriginalBytes, Truncated: n.OriginalBytes > len(n.Text),
		Flagged: len(n.Findings) > 0, Findings: n.Findings, Refs: n.Refs, Text: string(n.Text),
	}
	if it.Findings == nil {
		it.Findings = []scan.Finding{}
	}
	old, err := d.read(id)
	switch {
	case err == nil:
		if old.Session != n.Session {
			return Item{}, nil, fmt.Errorf("checkpoint %s belongs to another session; refusing to replace it", id)
		}
		prev = &old
		it.Created = old.Created
		it.Applied = old.Applied
		if it.Task == "" {
			it.Task = old.Task
		}
	case errors.Is(err, ErrNotFound):
	default:
		return Item{}, nil, err
	}
	if err := d.write(it); err != nil {
		return Item{}, nil, err
	}
	return it, prev, nil
}

// Apply promotes the checkpoint whose ID starts with prefix as one decision with its record: it holds the
// checkpoint's lock while it calls store with the checkpoint as it is then, and records the apply (the hash of
// the text and now) before it releases the lock. So a replacement or a drop racing it happens wholly before
// (Apply then stores the new text, or fails with [ErrNotFound]) or wholly after, and Apply has only two
// outcomes: it returns nil, and store stored the text and the record says so; or it returns an error, and store
// was not called or failed.
//
// store must store it.Text and return its [TextHash]; it is called at most once, and its error is returned as
// it is (so an error that store wraps keeps its meaning for the caller). The record is written to a temp file
// before store is called, so a directory where the record cannot be written (full, read-only) fails the apply
// before anything is stored. Only the rename that puts the record in place can fail after store succeeded;
// the error then starts "applied" and says so, and applying again records it.
func (d *Dir) Apply(prefix string, now time.Time, store func(it Item) (artifact string, err error)) (Item, error) {
	id, err := d.Resolve(prefix)
	if err != nil {
		return Item{}, err
	}
	unlock, err := d.lock(id)
	if err != nil {
		return Item{}, err
	}
	defer unlock()
	it, err := d.read(id)
	if err != nil {
		return Item{}, err
	}
	rec := it
	rec.Applied = &Applied{Artifact: TextHash(it.Text), Time: now.UTC()}
	data, err := json.Marshal(rec)
	if err != nil {
		return Item{}, fmt.Errorf("encode %s: %w", id, err)
	}
	tmp, err := d.dir.Prepare(id+".json", data, 0o600)
	if err != nil {
		return Item{}, fmt.Errorf("apply %s: nothing stored: cannot record it: %w", id, err)
	}
	artifact, err := store(it)
	if err == nil && artifact != rec.Applied.Artifact {
		err = fmt.Errorf("apply %s: stored as artifact %s, not the hash of its text %s", id, artifact, rec.Applied.Artifact)
	}
	if err != nil {
		tmp.Abort()
		return Item{}, err
	}
	if err := tmp.Commit(); err != nil {
		return Item{}, fmt.Errorf("applied %s as artifact %s, but could not record it in the pending item (apply it again to record it): %w", id, artifact, err)
	}
	return rec, nil
}

// Get returns the checkpoint whose ID starts with prefix (at least MinPrefix hex digits; the "ck-" may be left out).
func (d *Dir) Get(prefix string) (Item, error) {
	id, err := d.Resolve(prefix)
	if err != nil {
		return Item{}, err
	}
	return d.read(id)
}

// Drop deletes the checkpoint whose ID starts with prefix, for good, and returns what it was: only its ID when
// its file was unreadable ([ErrCorrupt]), since dropping is the way out of that.
func (d *Dir) Drop(prefix string) (Item, error) {
	id, err := d.Resolve(prefix)
	if err != nil {
		return Item{}, err
	}
	unlock, err := d.lock(id)
	if err != nil {
		return Item{}, err
	}
	defer unlock()
	it, err := d.read(id)
	if errors.Is(err, ErrCorrupt) {
		it, err = Item{ID: id}, nil
	}
	if err != nil {
		return Item{}, err
	}
	// No write of this checkpoint runs while its lock is held: every temp file it has is a leftover, and
	// holds its text.
	d.dir.SweepTemps(id + ".json")
	if err := d.dir.Remove(id + ".json"); err != nil {
		return Item{}, fmt.Errorf("drop %s: %w", id, err)
	}
	return it, nil
}

// CheckPrefix reports whether prefix can name a checkpoint: at least [MinPrefix] hex digits, in either
// case, after a "ck-" when given ("ck-3" is as short as "3": a destructive command must not act on one
// digit). It looks nothing up, so callers can tell a malformed argument from a missing checkpoint.
func CheckPrefix(prefix string) error {
	digits := strings.TrimPrefix(strings.ToLower(prefix), IDPrefix)
	if strings.Trim(digits, "0123456789abcdef") != "" {
		return fmt.Errorf("ID prefix %q is not a checkpoint ID: give %s and hex digits, as 'memoree pending list' shows", prefix, IDPrefix)
	}
	if len(digits) < MinPrefix {
		return fmt.Errorf("ID prefix %q is too short: give at least %d hex digits", prefix, MinPrefix)
	}
	return nil
}

// Resolve returns the one checkpoint ID that starts with prefix. The prefix is compared with file names, never
// used as a path.
func (d *Dir) Resolve(prefix string) (string, error) {
	if err := CheckPrefix(prefix); err != nil {
		return "", err
	}
	prefix = strings.ToLower(prefix)
	if !strings.HasPrefix(prefix, IDPrefix) {
		prefix = IDPrefix + prefix
	}
	ids, err := d.ids(false)
	if err != nil {
		return "", err
	}
	var match []string
	for _, id := range ids {
		if strings.HasPrefix(id, prefix) {
			match = append(match, id)
		}
	}
	switch len(match) {
	case 0:
		return "", fmt.Errorf("%w %s: run 'memoree pending list --all' to see the IDs", ErrNotFound, prefix)
	case 1:
		return match[0], nil
	}
	return "", &AmbiguousError{Prefix: prefix, Candidates: match}
}

// List returns every staged checkpoint, most recently updated first. A file that cannot be read does not hide the
// others: it is reported in the returned error alongside the items that could be read. It also removes the temp
// files that interrupted writes left behind, as [Dir.SweepTemps] does.
func (d *Dir) List() ([]Item, error) {
	ids, err := d.ids(true)
	if err != nil {
		return nil, err
	}
	items := make([]Item, 0, len(ids))
	var errs []error
	for _, id := range ids {
		it, err := d.read(id)
		if err != nil {
			if !errors.Is(err, ErrNotFound) { // dropped since the directory was read
				errs = append(errs, err)
			}
			continue
		}
		items = append(items, it)
	}
	sort.SliceStable(items, func(i, j int) bool {
		if !items[i].Updated.Equal(items[j].Updated) {
			return items[i].Updated.After(items[j].Updated)
		}
		return items[i].ID < items[j].ID
	})
	return items, errors.Join(errs...)
}

// SweepTemps removes the temp files that writes killed or cut short left in the directory, each holding the
// whole text of a note, and returns how many it removed. It removes only files it can prove dead: a writer holds
// a lock on its temp file for as long as the file exists, so a live write's file is never touched. Every
// command that takes a checkpoint's lock sweeps the whole directory this way; artifact gc should call it too.
func (d *Dir) SweepTemps() (int, error) {
	n, err := d.dir.SweepTemps("")
	if err != nil {
		return n, fmt.Errorf("sweep pending directory: %w", err)
	}
	return n, nil
}

// ids lists the checkpoint IDs in the directory, skipping temp files and anything else. With sweep it also
// removes the temp files that crashed writes left behind. Errors in removing them are ignored: a stray temp file
// costs space, not correctness, since nothing reads it.
func (d *Dir) ids(sweep bool) ([]string, error) {
	if sweep {
		d.dir.SweepTemps("")
	}
	entries, err := d.dir.ReadDir()
	if err != nil {
		return nil, fmt.Errorf("read pending directory: %w", err)
	}
	var ids []string
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && strings.HasPrefix(name, IDPrefix) && strings.HasSuffix(name, ".json") {
			ids = append(ids, strings.TrimSuffix(name, ".json"))
		}
	}
	return ids, nil
}

func (d *Dir) read(id string) (Item, error) {
	var it Item
	err := d.decode(id, &it, &it.ID)
	return it, err
}

// decode reads the file of checkpoint id into v, and checks that the ID it holds, which v decodes into
// *got, is id.
func (d *Dir) decode(id string, v any, got *string) error {
	data, err := d.dir.ReadFile(id + ".json")
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w %s", ErrNotFound, id)
	}
	if err != nil {
		return fmt.Errorf("read checkpoint %s: %w", id, err)
	}
	err = json.Unmarshal(data, v)
	if err == nil && *got != id {
		err = fmt.Errorf("the file holds checkpoint %q", *got)
	}
	if err != nil {
		return fmt.Errorf("%w %s (%v): run 'memoree pending drop %s' to discard it", ErrCorrupt, id, err, id)
	}
	return nil
}

func (d *Dir) write(it Item) error {
	data, err := json.Marshal(it)
	if err != nil {
		return fmt.Errorf("encode %s: %w", it.ID, err)
	}
	if err := d.dir.Write(it.ID+".json", data, 0o600); err != nil {
		return fmt.Errorf("save checkpoint: %w", err)
	}
	return nil
}

// lock takes the exclusive lock of one checkpoint, then sweeps the temp files that dead writes left (see
// [Dir.SweepTemps]). Lock files are never deleted: deleting one while another process waits on it would let two
// writers in.
func (d *Dir) lock(id string) (unlock func(), err error) {
	l, err := lock.Open(d.locks.Root(), d.locks.Path(), id+".lock")
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", id, err)
	}
	if err := l.Lock(context.Background(), true); err != nil {
		l.Close()
		return nil, fmt.Errorf("lock %s: %w", id, err)
	}
	d.dir.SweepTemps("")
	return func() { l.Close() }, nil
}
