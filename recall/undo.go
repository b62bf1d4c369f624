package recall

// Undo policy. Every operation that changes the store (apply, forget, supersede, import, reindex) writes, in the same
// transaction, one record of the rows it added and the rows it removed. Undoing a record removes what it
// added and puts back what it removed; redoing it does the reverse, so an undo can itself be undone. Records
// are undone newest first and redone in the reverse order of undoing; any new operation discards the records
// waiting for a redo.
//
// A record holds text only for rows that are not in the store: an applied artifact's record names its rows by
// id, and takes their text and bytes when the apply is undone (so that it can be redone); a forget's record
// holds the forgotten rows (so that it can be undone), unless the forget purged them, in which case there is no
// record and every record that holds text is deleted too.

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"
)

// Operations an undo record names.
const (
	opApply     = "apply"
	opForget    = "forget"
	opSupersede = "supersede"
	opImport    = "import"
	opReindex   = "reindex"
)

// rowQuerier is what reading rows needs of a *sql.DB or a *sql.Tx.
type rowQuerier interface {
	querier
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ErrNothingToUndo is returned by [Store.Undo] and [Store.Redo] when no record is waiting.
var ErrNothingToUndo = errors.New("nothing to undo")

// ErrNothingToRedo is returned by [Store.Redo] when no undone operation is waiting.
var ErrNothingToRedo = errors.New("nothing to redo")

// ErrUndoConflict is returned when an undo or redo would put back a row whose id or key another row holds
// now (possible only after a purge removed the records in between).
var ErrUndoConflict = errors.New("cannot undo: the store changed in a way this record does not cover")

type artifactRow struct {
	ID      int64  `json:"id"`
	Hash    string `json:"hash"`
	Kind    string `json:"kind,omitempty"`
	Source  string `json:"source,omitempty"`
	Session string `json:"session,omitempty"`
	Task    string `json:"task,omitempty"`
	Created int64  `json:"created,omitempty"`
	Flagged bool   `json:"flagged,omitempty"`
	Data    []byte `json:"data,omitempty"` // the exact bytes, when the row is held
}

type claimRow struct {
	ID       int64  `json:"id"`
	Key      string `json:"key,omitempty"`
	Text     string `json:"text,omitempty"`
	Kind     string `json:"kind,omitempty"`
	Compiler string `json:"compiler,omitempty"`
	Created  int64  `json:"created,omitempty"`
	Context  string `json:"context,omitempty"`
	Status   string `json:"status,omitempty"` // "" is active
}

type evidenceRow struct {
	Claim    int64 `json:"claim"`
	Artifact int64 `json:"artifact"`
	Start    int   `json:"start"`
	End      int   `json:"end"`
}

type supersessionRow struct {
	Old     int64 `json:"old"`
	New     int64 `json:"new"`
	Created int64 `json:"created"`
}

type refRow struct {
	Artifact int64  `json:"artifact"`
	Key      string `json:"key"`
	Value    string `json:"value"`
}

// delta is a set of rows. Evidence, supersession and ref rows are always whole; artifact and claim rows are
// whole (held) or ids only.
type delta struct {
	Artifacts     []artifactRow     `json:"artifacts,omitempty"`
	Claims        []claimRow        `json:"claims,omitempty"`
	Evidence      []evidenceRow     `json:"evidence,omitempty"`
	Supersessions []supersessionRow `json:"supersessions,omitempty"`
	Refs          []refRow          `json:"refs,omitempty"`
}

func (d delta) empty() bool {
	return len(d.Artifacts)+len(d.Claims)+len(d.Evidence)+len(d.Supersessions)+len(d.Refs) == 0
}

// holdsText reports whether d holds artifact bytes or claim text.
func (d delta) holdsText() bool {
	return slices.ContainsFunc(d.Artifacts, func(a artifactRow) bool { return a.Data != nil }) ||
		slices.ContainsFunc(d.Claims, func(c claimRow) bool { return c.Text != "" })
}

// strip reduces d's artifact and claim rows to their ids.
func (d *delta) strip() {
	for i, a := range d.Artifacts {
		d.Artifacts[i] = artifactRow{ID: a.ID, Hash: a.Hash}
	}
	for i, c := range d.Claims {
		d.Claims[i] = claimRow{ID: c.ID}
	}
}

// undoRecord is one row of undo_log.
type undoRecord struct {
	Added   delta `json:"added"`
	Removed delta `json:"removed"`
}

// fill loads the artifact and claim rows of d from the store, bytes and text included, and drops rows
// that are no longer there.
func (s *Store) fill(ctx context.Context, tx rowQuerier, d *delta) error {
	arts := d.Artifacts[:0]
	for _, a := range d.Artifacts {
		var flagged int
		err := tx.QueryRowContext(ctx, `SELECT hash, kind, source, session, task, created, flagged FROM artifacts WHERE id = ?`, a.ID).
			Scan(&a.Hash, &a.Kind, &a.Source, &a.Session, &a.Task, &a.Created, &flagged)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return err
		}
		a.Flagged = flagged != 0
		if a.Data, err = s.readArtifact(a.Hash); err != nil {
			return err
		}
		arts = append(arts, a)
	}
	d.Artifacts = arts
	claims := d.Claims[:0]
	for _, c := range d.Claims {
		err := tx.QueryRowContext(ctx, `SELECT key, text, kind, compiler, created, context, status FROM claims WHERE id = ?`, c.ID).
			Scan(&c.Key, &c.Text, &c.Kind, &c.Compiler, &c.Created, &c.Context, &c.Status)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return err
		}
		claims = append(claims, c)
	}
	d.Claims = claims
	return nil
}

// removeRows deletes the rows of d, which fill has loaded, with their index entries, and returns the hashes
// of the artifact files to remove once the transaction commits. Rows already gone are skipped.
func removeRows(ctx context.Context, tx *sql.Tx, d delta) ([]string, error) {
	for _, r := range d.Supersessions {
		if _, err := tx.ExecContext(ctx, `DELETE FROM supersessions WHERE old = ? AND new = ?`, r.Old, r.New); err != nil {
			return nil, fmt.Errorf("lift supersession: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE claims SET status = 'active' WHERE id = ? AND status = 'superseded'
			AND NOT EXISTS (SELECT 1 FROM supersessions WHERE old = ?)`, r.Old, r.Old); err != nil {
			return nil, fmt.Errorf("lift supersession: %w", err)
		}
	}
	for _, r := range d.Evidence {
		if _, err := tx.ExecContext(ctx, `DELETE FROM evidence WHERE claim = ? AND artifact = ? AND start = ? AND "end" = ?`,
			r.Claim, r.Artifact, r.Start, r.End); err != nil {
			return nil, fmt.Errorf("remove evidence: %w", err)
		}
	}
	for _, r := range d.Refs {
		if _, err := tx.ExecContext(ctx, `DELETE FROM refs WHERE artifact = ? AND key = ? AND value = ?`, r.Artifact, r.Key, r.Value); err != nil {
			return nil, fmt.Errorf("remove ref: %w", err)
		}
	}
	for _, c := range d.Claims {
		res, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE id = ?`, c.ID)
		if err != nil {
			return nil, fmt.Errorf("remove claim %d: %w", c.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
		// The external-content index needs the text the row was indexed with.
		if _, err := tx.ExecContext(ctx, `INSERT INTO claims_fts (claims_fts, rowid, text, context) VALUES ('delete', ?, ?, ?)`,
			c.ID, c.Text, c.Context); err != nil {
			return nil, fmt.Errorf("remove claim %d from the index: %w", c.ID, err)
		}
	}
	var files []string
	for _, a := range d.Artifacts {
		res, err := tx.ExecContext(ctx, `DELETE FROM artifacts WHERE id = ?`, a.ID)
		if err != nil {
			return nil, fmt.Errorf("remove artifact %s: %w", a.Hash[:12], err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO artifacts_fts (artifacts_fts, rowid, text) VALUES ('delete', ?, ?)`, a.ID, string(a.Data)); err != nil {
			return nil, fmt.Errorf("remove artifact %s from the index: %w", a.Hash[:12], err)
		}
		files = append(files, a.Hash)
	}
	return files, nil
}

// cancelled is err as the cancel of ctx when ctx was cancelled: a statement the cancel interrupted fails
// with the database's own error, and a commit after database/sql rolled the transaction back for it with
// sql.ErrTxDone; either must read as the interrupt (exit 130) it was, not as a failure.
func cancelled(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%w (%v)", cerr, err)
	}
	return err
}

// conflict is the error of a row insertRows could not put back: the context's when it was cancelled (the
// statement failed for that), else [ErrUndoConflict] with the database's reason.
func conflict(ctx context.Context, what string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("%s: %w", what, cerr)
	}
	return fmt.Errorf("%s: %w (%v)", what, ErrUndoConflict, err)
}

// insertRows puts back the rows of d, which must be held, with their ids, index entries and artifact files.
func (s *Store) insertRows(ctx context.Context, tx *sql.Tx, d delta) error {
	for _, a := range d.Artifacts {
		if a.Data == nil || hashBytes(a.Data) != a.Hash {
			return fmt.Errorf("restore artifact %d: %w", a.ID, ErrUndoConflict)
		}
		if err := s.writeArtifact(a.Hash, a.Data); err != nil {
			return err
		}
		flagged := 0
		if a.Flagged {
			flagged = 1
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO artifacts (id, hash, kind, source, session, task, created, flagged)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, a.ID, a.Hash, a.Kind, a.Source, a.Session, a.Task, a.Created, flagged); err != nil {
			return conflict(ctx, "restore artifact "+a.Hash[:12], err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO artifacts_fts (rowid, text) VALUES (?, ?)`, a.ID, string(a.Data)); err != nil {
			return fmt.Errorf("restore artifact %s: %w", a.Hash[:12], err)
		}
	}
	for _, c := range d.Claims {
		if c.Text == "" {
			return fmt.Errorf("restore claim %d: %w", c.ID, ErrUndoConflict)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO claims (id, key, text, kind, compiler, created, context, status)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, c.ID, c.Key, c.Text, c.Kind, c.Compiler, c.Created, c.Context, cmp.Or(c.Status, "active")); err != nil {
			return conflict(ctx, fmt.Sprintf("restore claim %d", c.ID), err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO claims_fts (rowid, text, context) VALUES (?, ?, ?)`, c.ID, c.Text, c.Context); err != nil {
			return fmt.Errorf("restore claim %d: %w", c.ID, err)
		}
	}
	for _, r := range d.Evidence {
		if _, err := tx.ExecContext(ctx, `INSERT INTO evidence (claim, artifact, start, "end") VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			r.Claim, r.Artifact, r.Start, r.End); err != nil {
			return conflict(ctx, "restore evidence", err)
		}
	}
	for _, r := range d.Refs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO refs (artifact, key, value) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			r.Artifact, r.Key, r.Value); err != nil {
			return conflict(ctx, "restore ref", err)
		}
	}
	for _, r := range d.Supersessions {
		if err := supersede(ctx, tx, r); err != nil {
			return err
		}
	}
	return nil
}

// supersede records that r.New replaced r.Old.
func supersede(ctx context.Context, tx *sql.Tx, r supersessionRow) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO supersessions (old, new, created) VALUES (?, ?, ?)`, r.Old, r.New, r.Created); err != nil {
		return fmt.Errorf("supersede claim %d: %w", r.Old, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE claims SET status = 'superseded' WHERE id = ?`, r.Old); err != nil {
		return fmt.Errorf("supersede claim %d: %w", r.Old, err)
	}
	return nil
}

// record writes rec as a new undo record of op in group grp (0: a group of its own) and returns its id. The
// first record of an operation discards the records waiting for a redo.
func record(ctx context.Context, tx *sql.Tx, op string, grp int64, rec undoRecord, now time.Time) (int64, error) {
	if grp == 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM undo_log WHERE state = 'undone'`); err != nil {
			return 0, fmt.Errorf("undo log: %w", err)
		}
	}
	var id int64
	if err := tx.QueryRowContext(ctx, `UPDATE counters SET last = last + 1 WHERE name = 'undo_log' RETURNING last`).Scan(&id); err != nil {
		return 0, fmt.Errorf("undo log: %w", err)
	}
	if grp == 0 {
		grp = id
	}
	js, err := json.Marshal(rec)
	if err != nil {
		return 0, fmt.Errorf("undo log: %w", err)
	}
	holds := rec.Added.holdsText() || rec.Removed.holdsText()
	if _, err := tx.ExecContext(ctx, `INSERT INTO undo_log (id, grp, op, created, state, holds_text, record) VALUES (?, ?, ?, ?, 'done', ?, ?)`,
		id, grp, op, now.UnixNano(), holds, string(js)); err != nil {
		return 0, fmt.Errorf("undo log: %w", err)
	}
	return id, nil
}

// UndoResult says what [Store.Undo] or [Store.Redo] changed.
type UndoResult struct {
	Record    int64  // the undo record's id (the first of its group)
	Op        string // the operation undone or redone: apply, forget, supersede, import, reindex
	Created   time.Time
	Artifacts int // artifacts removed (undo of an apply) or put back
	Claims    int // claims removed or put back
	Evidence  int
	Lifted    int // supersessions lifted
	Restored  int // supersessions put back
}

// Undo reverts the newest operation that is not undone yet and returns what it changed. It returns
// [ErrNothingToUndo] when there is none. Undoing an apply removes exactly what it added: its artifact if new,
// the claims first seen in it, the evidence it added to known claims, its refs, and the supersessions it made;
// undoing a forget puts back what it removed.
func (s *Store) Undo(ctx context.Context) (UndoResult, error) {
	return s.undoRedo(ctx, false)
}

// Redo does again the operation [Store.Undo] reverted last, unless an operation was recorded since. It
// returns [ErrNothingToRedo] when there is none.
func (s *Store) Redo(ctx context.Context) (UndoResult, error) {
	return s.undoRedo(ctx, true)
}

func (s *Store) undoRedo(ctx context.Context, redo bool) (res UndoResult, err error) {
	what := "undo"
	if redo {
		what = "redo"
	}
	if s.readOnly {
		return res, fmt.Errorf("%s: %w", what, ErrReadOnly)
	}
	unlock, err := lockExclusive(ctx, s.root)
	if err != nil {
		return res, fmt.Errorf("%s: %w", what, err)
	}
	defer unlock()
	return s.undoRedoLocked(ctx, redo)
}

// undoRedoLocked is [Store.Undo] or [Store.Redo] for a caller that holds the exclusive lock.
func (s *Store) undoRedoLocked(ctx context.Context, redo bool) (res UndoResult, err error) {
	what := "undo"
	if redo {
		what = "redo"
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("%s: %w", what, err)
	}
	defer tx.Rollback()
	// A record may take a row out and put it back with other values (a reindex changes claims in place):
	// rows that refer to it must be checked at commit, not while it is out.
	if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
		return res, fmt.Errorf("%s: %w", what, err)
	}
	pick := `SELECT grp FROM undo_log WHERE state = 'done' ORDER BY id DESC LIMIT 1`
	order := `DESC`
	if redo {
		pick = `SELECT grp FROM undo_log WHERE state = 'undone' ORDER BY undone DESC LIMIT 1`
		order = `ASC`
	}
	var grp int64
	if err := tx.QueryRowContext(ctx, pick).Scan(&grp); errors.Is(err, sql.ErrNoRows) {
		if redo {
			return res, ErrNothingToRedo
		}
		return res, ErrNothingToUndo
	} else if err != nil {
		return res, fmt.Errorf("%s: %w", what, err)
	}
	var undone int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(undone), 0) + 1 FROM undo_log`).Scan(&undone); err != nil {
		return res, fmt.Errorf("%s: %w", what, err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, op, created, record FROM undo_log WHERE grp = ? ORDER BY id `+order, grp)
	if err != nil {
		return res, fmt.Errorf("%s: %w", what, err)
	}
	type entry struct {
		id  int64
		rec undoRecord
	}
	var entries []entry
	for rows.Next() {
		var e entry
		var created int64
		var js string
		if err := rows.Scan(&e.id, &res.Op, &created, &js); err != nil {
			rows.Close()
			return res, fmt.Errorf("%s: %w", what, err)
		}
		if err := json.Unmarshal([]byte(js), &e.rec); err != nil {
			rows.Close()
			return res, fmt.Errorf("%s: record %d: %w", what, e.id, err)
		}
		res.Created = time.Unix(0, created).UTC()
		entries = append(entries, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("%s: %w", what, err)
	}
	res.Record = grp
	var files []string
	for _, e := range entries {
		// Undo takes out what the operation added and puts back what it removed; redo the reverse.
		out, in := &e.rec.Added, &e.rec.Removed
		if redo {
			out, in = in, out
		}
		if err := s.fill(ctx, tx, out); err != nil {
			return res, fmt.Errorf("%s: %w", what, err)
		}
		gone, err := removeRows(ctx, tx, *out)
		if err != nil {
			return res, fmt.Errorf("%s: %w", what, err)
		}
		files = append(files, gone...)
		if err := s.insertRows(ctx, tx, *in); err != nil {
			return res, fmt.Errorf("%s: %w", what, err)
		}
		res.Artifacts += len(out.Artifacts) + len(in.Artifacts)
		res.Claims += len(out.Claims) + len(in.Claims)
		res.Evidence += len(out.Evidence) + len(in.Evidence)
		res.Lifted += len(out.Supersessions)
		res.Restored += len(in.Supersessions)
		in.strip()
		js, err := json.Marshal(e.rec)
		if err != nil {
			return res, fmt.Errorf("%s: %w", what, err)
		}
		state := "undone"
		if redo {
			state = "done"
		}
		if _, err := tx.ExecContext(ctx, `UPDATE undo_log SET state = ?, undone = ?, holds_text = ?, record = ? WHERE id = ?`,
			state, undone, out.holdsText(), string(js), e.id); err != nil {
			return res, fmt.Errorf("%s: %w", what, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return res, fmt.Errorf("%s: commit: %w", what, cancelled(ctx, err))
	}
	if err := s.removeFiles(files); err != nil {
		return res, fmt.Errorf("%s: %w", what, err)
	}
	// Redoing a forget forgets again: leave nothing behind, as the forget did. It is committed: an
	// interrupt must not make it look undone, so the scrub runs to its end.
	if redo && res.Op == opForget {
		if err := s.scrub(context.WithoutCancel(ctx)); err != nil {
			return res, fmt.Errorf("%s: %w", what, err)
		}
	}
	return res, nil
}

// removeFiles deletes the artifact files of hashes, which no row refers to any more.
func (s *Store) removeFiles(hashes []string) error {
	for _, h := range hashes {
		if err := s.removeArtifact(h); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove artifact file %s: %w", h[:12], err)
		}
	}
	return nil
}

// removeArtifact deletes the artifact file of hash; an error wraps [fs.ErrNotExist] when there is none.
func (s *Store) removeArtifact(hash string) error {
	cas, err := s.root.Lookup(casDir)
	if err != nil {
		return err
	}
	defer cas.Close()
	d, err := cas.Lookup(hash[:2])
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Remove(hash)
}

// UndoEntry describes one operation in the undo history.
type UndoEntry struct {
	Record  int64
	Op      string
	Created time.Time
	Undone  bool // waiting for a redo
}

// UndoHistory lists the operations that can be undone (newest first) and those that can be redone.
func (s *Store) UndoHistory(ctx context.Context) ([]UndoEntry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT grp, op, min(created), state FROM undo_log GROUP BY grp ORDER BY grp DESC`)
	if err != nil {
		return nil, fmt.Errorf("undo history: %w", err)
	}
	defer rows.Close()
	out := []UndoEntry{}
	for rows.Next() {
		var e UndoEntry
		var created int64
		var state string
		if err := rows.Scan(&e.Record, &e.Op, &created, &state); err != nil {
			return nil, fmt.Errorf("undo history: %w", err)
		}
		e.Created, e.Undone = time.Unix(0, created).UTC(), state == "undone"
		out = append(out, e)
	}
	return out, rows.Err()
}
