package pending

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/memoree/memoree/internal/atomicfile"
	"github.com/memoree/memoree/scan"
)

// IDPrefix starts every checkpoint ID.
const IDPrefix = "ck-"

// MinPrefix is the shortest ID prefix that commands accept.
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

// Dir is a pending directory.
type Dir struct {
	path string
}

// Open returns the pending directory at path, creating it (mode 0700) if needed. It refuses a directory that is
// a symlink, belongs to another user, or is open to group or others.
func Open(path string) (*Dir, error) {
	if err := atomicfile.MkdirPrivate(path); err != nil {
		return nil, fmt.Errorf("pending directory: %w", err)
	}
	if err := atomicfile.MkdirPrivate(filepath.Join(path, "locks")); err != nil {
		return nil, fmt.Errorf("pending directory: %w", err)
	}
	return &Dir{path: path}, nil
}

// Note is what a checkpoint stages.
type Note struct {
	Session, Task string
	Text          []byte // the text to store, already capped: shorter than OriginalBytes when it was cut
	OriginalBytes int
	Findings      []scan.Finding // in Text; any makes the checkpoint flagged
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
		Flagged: len(n.Findings) > 0, Findings: n.Findings, Text: string(n.Text),
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

// MarkApplied records that the checkpoint id was applied with the text whose hash is artifact. It fails if the
// text changed in the meantime, so a record never describes text that was not applied.
func (d *Dir) MarkApplied(id, artifact string, now time.Time) (Item, error) {
	unlock, err := d.lock(id)
	if err != nil {
		return Item{}, err
	}
	defer unlock()
	it, err := d.read(id)
	if err != nil {
		return Item{}, err
	}
	if TextHash(it.Text) != artifact {
		return Item{}, fmt.Errorf("checkpoint %s changed while it was being applied; apply it again", id)
	}
	it.Applied = &Applied{Artifact: artifact, Time: now.UTC()}
	return it, d.write(it)
}

// Get returns the checkpoint whose ID starts with prefix (at least MinPrefix characters; the "ck-" may be left out).
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
	if err := atomicfile.Remove(d.path, id+".json"); err != nil {
		return Item{}, fmt.Errorf("drop %s: %w", id, err)
	}
	return it, nil
}

// CheckPrefix reports whether prefix can name a checkpoint: at least [MinPrefix] characters, "ck-" counted
// when given, and hex digits after it, in either case. It looks nothing up, so callers can tell a malformed
// argument from a missing checkpoint.
func CheckPrefix(prefix string) error {
	prefix = strings.ToLower(prefix)
	if len(prefix) < MinPrefix {
		return fmt.Errorf("ID prefix %q is too short: give at least %d characters", prefix, MinPrefix)
	}
	if strings.Trim(strings.TrimPrefix(prefix, IDPrefix), "0123456789abcdef") != "" {
		return fmt.Errorf("ID prefix %q is not a checkpoint ID: give %s and hex digits, as 'memoree pending list' shows", prefix, IDPrefix)
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
// others: it is reported in the returned error alongside the items that could be read. It also removes temp
// files that an interrupted write left behind, once they are old enough that no write can be using them.
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

// ids lists the checkpoint IDs in the directory, skipping temp files and anything else. With sweep it also
// removes temp files that a crashed write left behind: list reads the directory anyway, and checkpoint, the hot
// path, need not. Errors in removing them are ignored: a stray temp file is harmless, since only this looks at it.
func (d *Dir) ids(sweep bool) ([]string, error) {
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return nil, fmt.Errorf("read pending directory: %w", err)
	}
	var ids []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.Type().IsRegular() && strings.HasPrefix(name, IDPrefix) && strings.HasSuffix(name, ".json"):
			ids = append(ids, strings.TrimSuffix(name, ".json"))
		case sweep && strings.HasPrefix(name, atomicfile.TempPrefix):
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > staleTemp {
				os.Remove(filepath.Join(d.path, name))
			}
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
	data, err := os.ReadFile(filepath.Join(d.path, id+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w %s", ErrNotFound, id)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", id, err)
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
	if err := atomicfile.Write(d.path, it.ID+".json", data, 0o600); err != nil {
		return fmt.Errorf("save checkpoint: %w", err)
	}
	return nil
}

// lock takes the exclusive lock of one checkpoint. Lock files are never deleted: deleting one while another
// process waits on it would let two writers in.
func (d *Dir) lock(id string) (unlock func(), err error) {
	l := flock.New(filepath.Join(d.path, "locks", id+".lock"), flock.SetPermissions(0o600))
	if err := l.Lock(); err != nil {
		return nil, fmt.Errorf("lock %s: %w", id, err)
	}
	return func() { l.Unlock() }, nil
}

// staleTemp is how old a temp file must be before a listing removes it; a live write takes milliseconds.
const staleTemp = 10 * time.Minute
