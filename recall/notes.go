package recall

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memoree/memoree/checkpoint"
	"github.com/memoree/memoree/compiler"
	"github.com/memoree/memoree/internal/atomicfile"
	"github.com/memoree/memoree/scan"
)

// ErrFlagged is what a [*FlaggedNotesError] matches.
var ErrFlagged = errors.New("flagged by the secret scan")

// FlaggedNotesError lists the notes the secret scan flagged, which [Store.ImportNotes] refuses unless
// allowed. It never holds a finding's text.
type FlaggedNotesError struct {
	Files    []string // relative to the directory, in walk order
	Findings int      // in all
}

func (e *FlaggedNotesError) Error() string {
	return fmt.Sprintf("%d note(s) %v: %d possible secret(s) in %s", len(e.Files), ErrFlagged, e.Findings, strings.Join(e.Files, ", "))
}

func (e *FlaggedNotesError) Is(target error) bool { return target == ErrFlagged }

// NotesOptions controls [Store.ImportNotes].
type NotesOptions struct {
	Compiler     compiler.Compiler // compiles each note into claims; nil means compiler.Rules
	AllowFlagged bool              // apply notes the scan flagged, marked flagged
	Now          time.Time
	BatchSize    int                   // notes whose artifact files are written and synced together; 0 means 500
	Progress     func(done, total int) // called after each transaction, when set
}

// NotesResult says what [Store.ImportNotes] did.
type NotesResult struct {
	Notes       int      // notes applied that were not stored already
	Unchanged   int      // notes stored already, byte for byte
	NewClaims   int      //
	KnownClaims int      //
	Evidence    int      // evidence spans added
	Bytes       int64    // bytes of the notes applied
	Flagged     []string // notes applied although flagged (with AllowFlagged)
	Compiler    string
	Record      int64 // the undo record: one operation however many transactions
}

// noteExt reports whether name is a note ImportNotes takes.
func noteExt(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".md" || ext == ".txt"
}

// ImportNotes applies every *.md and *.txt file under dir (any case; hidden files and directories, symbolic
// links and blank files skipped) as a note, in one process and one transaction: the way to bring existing
// Markdown memory in. Notes go in oldest file first, by modification time. It holds every note's text and claims in memory until the commit (notes are at most 64
// KiB each); artifact files are written opt.BatchSize notes at a time. Each note must be what a checkpoint may be ([checkpoint.Validate]: UTF-8,
// at most 64 KiB, not blank) and is secret-scanned first; if any is flagged and opt.AllowFlagged is not set,
// nothing is applied and the error is a [*FlaggedNotesError]. Notes are kind "note" with source
// "import:RELATIVE/PATH". Nothing is superseded. The whole import is one operation for [Store.Undo]; a crash or
// an error part way leaves the store as it was.
func (s *Store) ImportNotes(ctx context.Context, dir string, opt NotesOptions) (NotesResult, error) {
	var res NotesResult
	comp := opt.Compiler
	if comp == nil {
		comp = compiler.Rules
	}
	res.Compiler = comp.Name()
	if opt.BatchSize <= 0 {
		opt.BatchSize = 500
	}
	// First pass: find, check and scan every note, so that a refusal writes nothing.
	var files []string
	modified := map[string]time.Time{}
	flagged := map[string]bool{}
	var fe FlaggedNotesError
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !noteExt(d.Name()) {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		text, err := readNote(path, rel)
		if err != nil || text == nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		modified[rel] = fi.ModTime()
		if n := len(scan.Text(string(text))); n > 0 {
			flagged[rel] = true
			fe.Files = append(fe.Files, rel)
			fe.Findings += n
		}
		files = append(files, rel)
		return ctx.Err()
	})
	if err != nil {
		return res, fmt.Errorf("import notes: %w", err)
	}
	if len(fe.Files) > 0 && !opt.AllowFlagged {
		return res, &fe
	}
	// Every note is stored at opt.Now, so the order they go in is the only age they have: the oldest file
	// (by modification time) goes first, and of two notes that state a fact, recall ranks the newer file's
	// first. Files modified at the same time go in walk order.
	slices.SortStableFunc(files, func(a, b string) int { return modified[a].Compare(modified[b]) })
	// Second pass: read again (a note must be applied as it is now) and compile, writing the artifact files a
	// part at a time, synced together; then apply every note in one transaction, so that a crash or an error
	// leaves the store as it was (the files aside, which artifact gc removes).
	var batches []Batch
	for i := 0; i < len(files); i += opt.BatchSize {
		part := len(batches)
		for _, rel := range files[i:min(len(files), i+opt.BatchSize)] {
			text, err := readNote(filepath.Join(dir, rel), rel)
			if err != nil {
				return res, fmt.Errorf("import notes: %w", err)
			}
			if text == nil {
				continue // blank now
			}
			// The file may have changed since it was scanned.
			isFlagged := len(scan.Text(string(text))) > 0
			if isFlagged && !opt.AllowFlagged {
				return res, fmt.Errorf("import notes: %w", &FlaggedNotesError{Files: []string{rel}, Findings: 1})
			}
			a := Artifact{Kind: "note", Source: "import:" + filepath.ToSlash(rel), Text: text, Flagged: isFlagged}
			cr := comp.Compile(string(text), compiler.Source{Kind: a.Kind})
			batches = append(batches, Batch{Artifact: a, Claims: ClaimsOf(cr)})
			if isFlagged {
				res.Flagged = append(res.Flagged, rel)
			}
		}
		if err := s.writeArtifacts(batches[part:]); err != nil {
			return res, fmt.Errorf("import notes: %w", err)
		}
		if opt.Progress != nil {
			opt.Progress(min(len(files), i+opt.BatchSize), len(files))
		}
	}
	got, err := s.applyBatch(ctx, batches, nil, opt.Now, opImport, 0)
	if err != nil {
		return res, fmt.Errorf("import notes: %w", err)
	}
	for j, r := range got {
		if r.ArtifactExisted {
			res.Unchanged++
		} else {
			res.Notes++
			res.Bytes += int64(len(batches[j].Artifact.Text))
		}
		res.NewClaims += r.NewClaims
		res.KnownClaims += r.KnownClaims
		res.Evidence += r.NewEvidence
		if res.Record == 0 {
			res.Record = r.Record
		}
	}
	return res, nil
}

// readNote reads one note and checks it as checkpoint input. A blank note is skipped: nil and no error.
func readNote(path, rel string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > checkpoint.MaxInput {
		return nil, fmt.Errorf("%s: %w", rel, checkpoint.Validate(make([]byte, checkpoint.MaxInput+1)))
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if checkpoint.Blank(text) {
		return nil, nil
	}
	if err := checkpoint.Validate(text); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return text, nil
}

// writeArtifacts makes the artifact files of batches durable with one sync for all of them, where
// [Store.writeArtifact] syncs each file and its directory.
func (s *Store) writeArtifacts(batches []Batch) error {
	var files []atomicfile.File
	dirs := map[string]*atomicfile.Dir{} // by hash prefix
	defer func() {
		for _, d := range dirs {
			d.Close()
		}
	}()
	for _, b := range batches {
		hash := hashBytes(b.Artifact.Text)
		if got, err := s.root.ReadFile(casPath(hash)); err == nil && bytes.Equal(got, b.Artifact.Text) {
			continue
		}
		d := dirs[hash[:2]]
		if d == nil {
			var err error
			if d, err = s.casSub(hash[:2]); err != nil {
				return fmt.Errorf("store artifact %s: %w", hash, err)
			}
			dirs[hash[:2]] = d
		}
		files = append(files, atomicfile.File{Dir: d, Name: hash, Data: b.Artifact.Text, Perm: 0o400})
	}
	return atomicfile.WriteBatch(files)
}
