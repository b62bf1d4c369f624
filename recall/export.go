package recall

// Export format. An export is JSON Lines, one object per line, each with a "type", in this order: one header;
// every artifact, by id, with its exact bytes (base64), metadata, flag and refs; every claim by id; every
// evidence row by claim, artifact and span; every supersession by superseded claim; and one trailer with the
// counts, so that a cut file is refused. Times are RFC 3339 with nanoseconds, UTC. Ids are the store's; an
// import into an empty store keeps them, so that export, import and export again give the same bytes. The
// undo history is not exported.

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/memoree/memoree/scan"
)

// exportFormat and exportVersion identify the format in the header line.
const (
	exportFormat  = "memoree-export"
	exportVersion = 1
)

// ExportLine is one line of an export. Type says which fields are set: "header" (Format, Version),
// "artifact" (ID, Hash, Kind, Source, Session, Task, Created, Flagged, Refs, Data), "claim" (ID, Key, Text,
// Context, Kind, Compiler, Created), "evidence" (Claim, Artifact, Start, End), "supersession" (Old, New, Created) and
// "end" (the counts).
type ExportLine struct {
	Type     string    `json:"type"`
	Format   string    `json:"format,omitempty"`
	Version  int       `json:"version,omitempty"`
	ID       int64     `json:"id,omitempty"`
	Hash     string    `json:"hash,omitempty"`
	Key      string    `json:"key,omitempty"`
	Text     string    `json:"text,omitempty"`
	Context  string    `json:"context,omitempty"`
	Kind     string    `json:"kind,omitempty"`
	Compiler string    `json:"compiler,omitempty"`
	Source   string    `json:"source,omitempty"`
	Session  string    `json:"session,omitempty"`
	Task     string    `json:"task,omitempty"`
	Created  string    `json:"created,omitempty"`
	Flagged  bool      `json:"flagged,omitempty"`
	Refs     []Ref     `json:"refs,omitempty"`
	Data     []byte    `json:"data,omitempty"`
	Claim    int64     `json:"claim,omitempty"`
	Artifact int64     `json:"artifact,omitempty"`
	Start    int       `json:"start,omitempty"`
	End      int       `json:"end,omitempty"`
	Old      int64     `json:"old,omitempty"`
	New      int64     `json:"new,omitempty"`
	Counts   *Counts   `json:"counts,omitempty"`
	created  time.Time // parsed Created
}

// Counts are the rows of an export or import.
type Counts struct {
	Artifacts     int   `json:"artifacts"`
	Claims        int   `json:"claims"`
	Evidence      int   `json:"evidence"`
	Supersessions int   `json:"supersessions"`
	Bytes         int64 `json:"bytes"` // artifact bytes
}

// MarshalJSON writes a Ref as {"key":…,"value":…}.
func (r Ref) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}{r.Key, r.Value})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Ref) UnmarshalJSON(b []byte) error {
	var v struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = Ref{v.Key, v.Value}
	return nil
}

func rfc3339(ns int64) string { return time.Unix(0, ns).UTC().Format(time.RFC3339Nano) }

// Export writes the whole store to w in the export format and returns what it wrote. It streams: memory
// stays bounded by one artifact whatever the store's size. It reads in one transaction, so the export is
// one consistent state even while others apply.
func (s *Store) Export(ctx context.Context, w io.Writer) (Counts, error) {
	var n Counts
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: s.readOnly})
	if err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	defer tx.Rollback()
	if err := enc.Encode(ExportLine{Type: "header", Format: exportFormat, Version: exportVersion}); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	each := func(query string, scan func(*sql.Rows) (ExportLine, error)) error {
		rows, err := tx.QueryContext(ctx, query)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			l, err := scan(rows)
			if err != nil {
				return err
			}
			if err := enc.Encode(l); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	err = each(`SELECT id, hash, kind, source, session, task, created, flagged,
		(SELECT json_group_array(json_object('key', key, 'value', value))
			FROM (SELECT key, value FROM refs WHERE artifact = a.id ORDER BY key, value))
		FROM artifacts a ORDER BY id`, func(r *sql.Rows) (ExportLine, error) {
		l := ExportLine{Type: "artifact"}
		var created int64
		var refs string
		if err := r.Scan(&l.ID, &l.Hash, &l.Kind, &l.Source, &l.Session, &l.Task, &created, &l.Flagged, &refs); err != nil {
			return l, err
		}
		l.Created = rfc3339(created)
		if err := json.Unmarshal([]byte(refs), &l.Refs); err != nil {
			return l, err
		}
		data, err := s.readArtifact(l.Hash)
		if err != nil {
			return l, err
		}
		l.Data = data
		n.Artifacts++
		n.Bytes += int64(len(data))
		return l, nil
	})
	if err == nil {
		err = each(`SELECT id, key, text, context, kind, compiler, created FROM claims ORDER BY id`, func(r *sql.Rows) (ExportLine, error) {
			l := ExportLine{Type: "claim"}
			var created int64
			err := r.Scan(&l.ID, &l.Key, &l.Text, &l.Context, &l.Kind, &l.Compiler, &created)
			l.Created = rfc3339(created)
			n.Claims++
			return l, err
		})
	}
	if err == nil {
		err = each(`SELECT claim, artifact, start, "end" FROM evidence ORDER BY claim, artifact, start, "end"`, func(r *sql.Rows) (ExportLine, error) {
			l := ExportLine{Type: "evidence"}
			n.Evidence++
			return l, r.Scan(&l.Claim, &l.Artifact, &l.Start, &l.End)
		})
	}
	if err == nil {
		err = each(`SELECT old, new, created FROM supersessions ORDER BY old`, func(r *sql.Rows) (ExportLine, error) {
			l := ExportLine{Type: "supersession"}
			var created int64
			err := r.Scan(&l.Old, &l.New, &created)
			l.Created = rfc3339(created)
			n.Supersessions++
			return l, err
		})
	}
	if err == nil {
		c := n
		err = enc.Encode(ExportLine{Type: "end", Counts: &c})
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	return n, nil
}

// ErrImport marks an import file that is not a complete, valid export.
var ErrImport = errors.New("not a valid export")

// importError is a rejection of an import file at a line; it matches [ErrImport].
type importError struct {
	line int
	msg  string
}

func (e *importError) Error() string        { return fmt.Sprintf("import: line %d: %s", e.line, e.msg) }
func (e *importError) Is(target error) bool { return target == ErrImport }

// ImportOptions controls [Store.Import].
type ImportOptions struct {
	Now time.Time
	// AllowFlagged imports, marked flagged, the artifacts the secret scan flags that the export does not
	// mark flagged; without it the import refuses them (see [Store.Import]).
	AllowFlagged bool
	BatchSize    int // rows per undo record, which bounds the memory the record's rows take; 0 means 2,000
}

// ImportResult says what [Store.Import] added. Rows the store already held (artifacts by hash, claims by key,
// evidence, refs, supersessions of a claim superseded already) are skipped and not counted.
type ImportResult struct {
	Counts
	Record  int64    // the undo record of the import
	Flagged []string // artifacts the export did not mark flagged, imported marked flagged (AllowFlagged)
}

// FlaggedArtifactsError lists the artifacts of an export that the secret scan flags though the export
// does not mark them flagged, which [Store.Import] refuses unless allowed. It never holds a finding's text.
type FlaggedArtifactsError struct {
	Hashes   []string // in file order
	Findings int      // in all
}

func (e *FlaggedArtifactsError) Error() string {
	return fmt.Sprintf("%d artifact(s) not marked flagged in the export are %v: %d possible secret(s) in %s", len(e.Hashes),
		ErrFlagged, e.Findings, strings.Join(e.Hashes, ", "))
}

func (e *FlaggedArtifactsError) Is(target error) bool { return target == ErrFlagged }

// maxImportLine bounds one line of an import file: an artifact of 16 MiB, base64-encoded.
const maxImportLine = 24 << 20

// Import loads an export from r into the store, in one transaction, and returns what it added: a crash or an
// error part way leaves the store as it was, apart from artifact files that [Store.CollectGarbage] removes. Into an empty store it keeps the export's ids; otherwise artifacts and claims the store holds are
// matched by hash and key, and new rows take new ids. It checks each artifact's bytes against its hash, every
// span against its artifact, and that each claim's text is the bytes of one of its spans, so an import adds
// no text that is not part of an artifact. A file that is not a complete export returns an error wrapping
// [ErrImport]. Each artifact the store does not hold is secret-scanned: one the export does not mark flagged
// that the scan flags (the file was edited, or written before the scan knew the secret) is imported marked
// flagged with opt.AllowFlagged, and otherwise the import adds nothing and returns a
// [*FlaggedArtifactsError]; what the export marks flagged stays flagged. The import is one operation for
// [Store.Undo], recorded in parts of opt.BatchSize rows. It holds the write lock throughout, and memory for a
// map of the export's ids to the store's (a few dozen bytes per artifact and claim), not for the rows
// themselves.
func (s *Store) Import(ctx context.Context, r io.Reader, opt ImportOptions) (ImportResult, error) {
	var res ImportResult
	if s.readOnly {
		return res, fmt.Errorf("import: %w", ErrReadOnly)
	}
	if opt.BatchSize <= 0 {
		opt.BatchSize = 2000
	}
	unlock, err := lockExclusive(ctx, s.root)
	if err != nil {
		return res, fmt.Errorf("import: %w", err)
	}
	defer unlock()
	im := &importer{s: s, opt: opt, artIDs: map[int64]int64{}, claimIDs: map[int64]int64{}, artLen: map[int64]int{},
		verified: map[int64]bool{}, newClaims: map[int64]bool{}}
	// A statement the cancel interrupted fails with the database's own error.
	if err = im.run(ctx, r); err != nil {
		err = cancelled(ctx, err)
	}
	if im.tx != nil {
		// Not committed: an error, or a cancel. Nothing of the import is kept, not even the files it
		// wrote: a refused import may hold a secret.
		im.tx.Rollback()
		if rerr := s.removeFiles(im.wrote); rerr != nil && err == nil {
			err = fmt.Errorf("import: %w", rerr)
		}
	}
	if err != nil {
		return ImportResult{}, err
	}
	res.Counts, res.Record, res.Flagged = im.added, im.grp, im.flagged.Hashes
	return res, nil
}

type importer struct {
	s   *Store
	opt ImportOptions

	empty     bool            // the store held nothing: keep ids
	nextArt   int64           // next free artifact id otherwise
	nextClaim int64           // next free claim id
	artIDs    map[int64]int64 // export id -> store id
	claimIDs  map[int64]int64
	artLen    map[int64]int  // store id -> artifact length, for span checks
	newClaims map[int64]bool // store ids of claims this import adds
	verified  map[int64]bool // new claims whose text one of their spans holds
	lastArt   int64          // the artifact whose bytes are cached
	lastData  []byte
	lastTask  string
	flagged   FlaggedArtifactsError // artifacts the scan flagged that the export does not mark flagged
	wrote     []string              // hashes of the artifact files the import created, removed unless it commits

	tx    *sql.Tx
	d     delta // rows of the open transaction
	rows  int
	grp   int64
	added Counts
}

func (im *importer) run(ctx context.Context, r io.Reader) error {
	var na, nc int64
	if err := im.s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM artifacts), (SELECT count(*) FROM claims)`).Scan(&na, &nc); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	im.empty = na == 0 && nc == 0
	if err := im.s.db.QueryRowContext(ctx, `SELECT coalesce((SELECT max(id) FROM artifacts), 0) + 1, coalesce((SELECT max(id) FROM claims), 0) + 1`).
		Scan(&im.nextArt, &im.nextClaim); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	order := map[string]int{"header": 0, "artifact": 1, "claim": 2, "evidence": 3, "supersession": 4, "end": 5}
	stage := -1
	var seen Counts
	for n := 1; ; n++ {
		line, err := readLine(br, maxImportLine)
		if err == io.EOF {
			return &importError{n, "the file ends before its last line: it is cut"}
		}
		if errors.Is(err, errNoNewline) {
			return &importError{n, err.Error()}
		}
		if err != nil {
			return fmt.Errorf("import: line %d: %w", n, err)
		}
		var l ExportLine
		dec := json.NewDecoder(bytesReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return &importError{n, err.Error()}
		}
		st, ok := order[l.Type]
		if !ok || st < stage || (st == 0) != (n == 1) {
			return &importError{n, fmt.Sprintf("unexpected %q line", l.Type)}
		}
		stage = st
		if l.Created != "" {
			if l.created, err = time.Parse(time.RFC3339Nano, l.Created); err != nil {
				return &importError{n, "bad time: " + err.Error()}
			}
		}
		switch l.Type {
		case "header":
			if l.Format != exportFormat || l.Version != exportVersion {
				return &importError{n, fmt.Sprintf("format %q version %d: want %s version %d", l.Format, l.Version, exportFormat, exportVersion)}
			}
			continue
		case "end":
			if l.Counts == nil || *l.Counts != seen {
				return &importError{n, "the counts do not match the lines: the file was cut or edited"}
			}
			if len(im.flagged.Hashes) > 0 && !im.opt.AllowFlagged {
				return &im.flagged
			}
			if err := im.flush(ctx); err != nil {
				return err
			}
			for id := range im.newClaims {
				if !im.verified[id] {
					return &importError{n, fmt.Sprintf("claim %d: no span of its evidence holds its text, in an artifact that holds its context", id)}
				}
			}
			if _, err := readLine(br, maxImportLine); err != io.EOF {
				return &importError{n + 1, "data after the end line"}
			}
			return im.commit(ctx)
		case "artifact":
			seen.Artifacts++
			seen.Bytes += int64(len(l.Data))
		case "claim":
			seen.Claims++
		case "evidence":
			seen.Evidence++
		case "supersession":
			seen.Supersessions++
		}
		if err := im.add(ctx, n, l); err != nil {
			return err
		}
		if im.rows >= im.opt.BatchSize {
			if err := im.flush(ctx); err != nil {
				return err
			}
		}
	}
}

// add takes one data line into the open transaction.
func (im *importer) add(ctx context.Context, n int, l ExportLine) error {
	if im.tx == nil {
		tx, err := im.s.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		im.tx = tx
	}
	im.rows++
	bad := func(format string, a ...any) error { return &importError{n, fmt.Sprintf(format, a...)} }
	switch l.Type {
	case "artifact":
		if _, dup := im.artIDs[l.ID]; dup || l.ID <= 0 {
			return bad("artifact id %d repeated or invalid", l.ID)
		}
		if hashBytes(l.Data) != l.Hash {
			return bad("artifact %d: its bytes do not hash to %s", l.ID, l.Hash)
		}
		if err := validate(Batch{Artifact: Artifact{Kind: l.Kind, Text: l.Data}}); err != nil {
			return bad("artifact %d: %v", l.ID, err)
		}
		for _, ref := range l.Refs {
			if err := ref.check(); err != nil {
				return bad("artifact %d: %v", l.ID, err)
			}
		}
		var id int64
		err := im.tx.QueryRowContext(ctx, `SELECT id FROM artifacts WHERE hash = ?`, l.Hash).Scan(&id)
		existed := err == nil
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("import: %w", err)
		}
		if !existed {
			flagged := l.Flagged
			if !flagged {
				if f := len(scan.Text(string(l.Data))); f > 0 {
					flagged = true
					im.flagged.Hashes = append(im.flagged.Hashes, l.Hash[:12])
					im.flagged.Findings += f
				}
			}
			if _, err := im.s.root.Root().Lstat(casPath(l.Hash)); errors.Is(err, fs.ErrNotExist) {
				im.wrote = append(im.wrote, l.Hash)
			}
			id = im.newID(l.ID, &im.nextArt)
			row := artifactRow{ID: id, Hash: l.Hash, Kind: l.Kind, Source: l.Source, Session: l.Session, Task: l.Task,
				Created: l.created.UnixNano(), Flagged: flagged, Data: l.Data}
			if err := im.s.insertRows(ctx, im.tx, delta{Artifacts: []artifactRow{row}}); err != nil {
				return fmt.Errorf("import: line %d: %w", n, err)
			}
			im.d.Artifacts = append(im.d.Artifacts, artifactRow{ID: id, Hash: l.Hash})
			im.added.Artifacts++
			im.added.Bytes += int64(len(l.Data))
		}
		im.artIDs[l.ID], im.artLen[id] = id, len(l.Data)
		for _, ref := range l.Refs {
			rows, err := im.tx.QueryContext(ctx, `INSERT INTO refs (artifact, key, value) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1`,
				id, ref.Key, ref.Value)
			if err != nil {
				return fmt.Errorf("import: %w", err)
			}
			if rows.Next() {
				im.d.Refs = append(im.d.Refs, refRow{Artifact: id, Key: ref.Key, Value: ref.Value})
			}
			rows.Close()
		}
	case "claim":
		if _, dup := im.claimIDs[l.ID]; dup || l.ID <= 0 {
			return bad("claim id %d repeated or invalid", l.ID)
		}
		if l.Key == "" || l.Text == "" {
			return bad("claim %d: empty key or text", l.ID)
		}
		var id int64
		err := im.tx.QueryRowContext(ctx, `SELECT id FROM claims WHERE key = ?`, l.Key).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			id = im.newID(l.ID, &im.nextClaim)
			row := claimRow{ID: id, Key: l.Key, Text: l.Text, Kind: l.Kind, Compiler: l.Compiler, Created: l.created.UnixNano(),
				Context: l.Context}
			if err := im.s.insertRows(ctx, im.tx, delta{Claims: []claimRow{row}}); err != nil {
				return fmt.Errorf("import: line %d: %w", n, err)
			}
			im.d.Claims = append(im.d.Claims, claimRow{ID: id})
			im.newClaims[id] = true
			im.added.Claims++
		} else if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		im.claimIDs[l.ID] = id
	case "evidence":
		cid, ok1 := im.claimIDs[l.Claim]
		aid, ok2 := im.artIDs[l.Artifact]
		if !ok1 || !ok2 {
			return bad("evidence for claim %d in artifact %d: no such claim or artifact above", l.Claim, l.Artifact)
		}
		if l.Start < 0 || l.End <= l.Start || l.End > im.artLen[aid] {
			return bad("evidence span [%d,%d) outside artifact %d (%d bytes)", l.Start, l.End, l.Artifact, im.artLen[aid])
		}
		if im.newClaims[cid] && !im.verified[cid] {
			if err := im.verify(ctx, cid, aid, l.Start, l.End); err != nil {
				return fmt.Errorf("import: line %d: %w", n, err)
			}
		}
		res, err := im.tx.ExecContext(ctx, `INSERT INTO evidence (claim, artifact, start, "end") VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			cid, aid, l.Start, l.End)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		if k, _ := res.RowsAffected(); k > 0 {
			im.d.Evidence = append(im.d.Evidence, evidenceRow{Claim: cid, Artifact: aid, Start: l.Start, End: l.End})
			im.added.Evidence++
		}
	case "supersession":
		old, ok1 := im.claimIDs[l.Old]
		nw, ok2 := im.claimIDs[l.New]
		if !ok1 || !ok2 || old == nw {
			return bad("supersession of claim %d by %d: no such claims above", l.Old, l.New)
		}
		var status string
		if err := im.tx.QueryRowContext(ctx, `SELECT status FROM claims WHERE id = ?`, old).Scan(&status); err != nil {
			return fmt.Errorf("import: %w", err)
		}
		if status == "superseded" {
			return nil
		}
		sr := supersessionRow{Old: old, New: nw, Created: l.created.UnixNano()}
		if err := supersede(ctx, im.tx, sr); err != nil {
			return fmt.Errorf("import: %w", err)
		}
		im.d.Supersessions = append(im.d.Supersessions, sr)
		im.added.Supersessions++
	}
	return nil
}

// newID returns the id a new row takes: the export's into an empty store, else the next free one.
func (im *importer) newID(exported int64, next *int64) int64 {
	if im.empty {
		return exported
	}
	id := *next
	*next++
	return id
}

// verify marks claim cid verified when the span [start, end) of artifact aid holds its text and the artifact
// holds its context, as [Store.Apply] requires.
func (im *importer) verify(ctx context.Context, cid, aid int64, start, end int) error {
	if im.lastArt != aid {
		var hash, task string
		if err := im.tx.QueryRowContext(ctx, `SELECT hash, task FROM artifacts WHERE id = ?`, aid).Scan(&hash, &task); err != nil {
			return err
		}
		data, err := im.s.readArtifact(hash)
		if err != nil {
			return err
		}
		im.lastArt, im.lastData, im.lastTask = aid, data, task
	}
	var text, context string
	if err := im.tx.QueryRowContext(ctx, `SELECT text, context FROM claims WHERE id = ?`, cid).Scan(&text, &context); err != nil {
		return err
	}
	if string(im.lastData[start:end]) == text && checkContext(im.lastData, im.lastTask, context) == nil {
		im.verified[cid] = true
	}
	return nil
}

// flush records the rows added since the last flush as part of the import's undo group, in the import's one
// transaction, so that the record's rows need not all be held in memory at once.
func (im *importer) flush(ctx context.Context) error {
	if im.tx == nil || im.d.empty() {
		im.d, im.rows = delta{}, 0
		return nil
	}
	id, err := record(ctx, im.tx, opImport, im.grp, undoRecord{Added: im.d}, im.opt.Now)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if im.grp == 0 {
		im.grp = id
	}
	im.d, im.rows = delta{}, 0
	return nil
}

// commit flushes what is left and commits the import's transaction: everything it added becomes visible at
// once, and a crash before this leaves the store as it was.
func (im *importer) commit(ctx context.Context) error {
	if err := im.flush(ctx); err != nil {
		return err
	}
	if im.tx == nil {
		return nil
	}
	tx := im.tx
	im.tx = nil
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("import: commit: %w", err)
	}
	return nil
}

// readLine returns the next line of r without its newline, io.EOF at the end, and an error for a line longer
// than limit or a last line without a newline.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit {
			return nil, fmt.Errorf("line longer than %d bytes", limit)
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(line) == 0:
			return nil, io.EOF
		case err == io.EOF:
			return nil, errNoNewline
		default:
			return nil, err
		}
	}
}

// errNoNewline is readLine's error for a last line without a newline.
var errNoNewline = errors.New("the last line has no newline: the file is cut")

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// ExportEmpty writes what [Store.Export] writes for a store that holds nothing, for callers that have no
// store yet and must not create one.
func ExportEmpty(w io.Writer) (Counts, error) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var n Counts
	if err := enc.Encode(ExportLine{Type: "header", Format: exportFormat, Version: exportVersion}); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	if err := enc.Encode(ExportLine{Type: "end", Counts: &n}); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	return n, nil
}
