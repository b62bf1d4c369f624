package recall

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrReadOnly is returned by writes on a Store opened with [OpenExisting].
var ErrReadOnly = errors.New("recall store opened read-only")

// Span is a byte range [Start, End) of an artifact's text.
type Span struct{ Start, End int }

// Artifact is a reviewed text to store, with where it came from.
type Artifact struct {
	Kind    string // "checkpoint" or "note"
	Source  string // e.g. "pending:ck-1a2b3c4d5e6f" or "remember"
	Session string
	Task    string
	Text    []byte
	Flagged bool  // applied although the secret scan flagged it (see filter.go)
	Refs    []Ref // provenance references (see refs.go)
}

// ClaimInput is one statement extracted from an artifact. Key identifies the statement across artifacts
// (the same key applied again adds evidence, not a claim). Text must equal the bytes of the first span, so
// that the store only ever holds text that appears in a reviewed artifact. Context is what the artifact
// says around the statement (see compiler.Claim); it is indexed with the text and kept from the first
// artifact that gave the claim.
type ClaimInput struct {
	Key, Text, Kind, Compiler string
	Context                   string
	Spans                     []Span
}

// ApplyResult says what an apply changed.
type ApplyResult struct {
	Artifact        string // lowercase hex SHA-256
	ArtifactExisted bool
	NewClaims       int
	KnownClaims     int
	NewEvidence     int            // see NoOp
	Superseded      []Supersession // claims this apply superseded (see supersede.go)
	Revived         []int64        // superseded claims that this note states again, current again
	Record          int64          // the undo record of the apply (shared by a batch), 0 for a no-op
}

// NoOp reports whether the apply changed nothing because everything was already stored: no new rows, and
// no claim superseded or made current again (an applied note given again with --supersede supersedes).
func (r ApplyResult) NoOp() bool {
	return r.ArtifactExisted && r.NewClaims == 0 && r.NewEvidence == 0 && len(r.Superseded) == 0 && len(r.Revived) == 0
}

// Batch is one artifact and its claims, for [Store.ApplyBatch].
type Batch struct {
	Artifact Artifact
	Claims   []ClaimInput
}

// Apply stores the artifact and its claims: the rows go in one transaction, which commits only once the
// artifact file is written and synced. On error the database is as it was (the artifact file may remain,
// unreferenced). Applying the same artifact and claims again changes nothing and returns a result whose
// NoOp is true; a claim whose key is already stored gains the new evidence instead of a duplicate.
// Concurrent applies, from this or other processes, wait for each other and create no duplicates. now is
// the creation time recorded for new rows.
func (s *Store) Apply(ctx context.Context, a Artifact, claims []ClaimInput, now time.Time) (ApplyResult, error) {
	res, err := s.ApplyBatch(ctx, []Batch{{Artifact: a, Claims: claims}}, now)
	if err != nil {
		return ApplyResult{}, err
	}
	return res[0], nil
}

// ApplyBatch is [Store.Apply] for many artifacts in one transaction: all of them are stored or none.
func (s *Store) ApplyBatch(ctx context.Context, batches []Batch, now time.Time) ([]ApplyResult, error) {
	return s.applyBatch(ctx, batches, nil, now, opApply, 0)
}

// applyBatch is ApplyBatch with options for each batch (none: [SupersedeNone]), recording an undo record of op
// in group grp (0: its own).
func (s *Store) applyBatch(ctx context.Context, batches []Batch, opts []ApplyOptions, now time.Time, op string, grp int64) (_ []ApplyResult, err error) {
	defer func() { err = noSpace(s.dir, err) }()
	if s.readOnly {
		return nil, fmt.Errorf("apply: %w", ErrReadOnly)
	}
	hashes := make([]string, len(batches))
	for i, b := range batches {
		if err := validate(b); err != nil {
			return nil, fmt.Errorf("apply: %w", err)
		}
		hashes[i] = hashBytes(b.Artifact.Text)
	}
	if err := s.checkSupersede(ctx, batches, opts); err != nil {
		return nil, err
	}
	// The files must be durable before any row refers to them. They are written and synced while the rows
	// go in, and the commit waits for them: the syncs mostly wait on the disk, the inserts on the CPU.
	wrote := make(chan error, 1)
	go func() {
		for i, b := range batches {
			if err := ctx.Err(); err != nil {
				wrote <- err
				return
			}
			if err := s.writeArtifact(hashes[i], b.Artifact.Text); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	}()
	waited := false
	waitFiles := func() error {
		waited = true
		return <-wrote
	}
	// Nothing of the writes outlives the call, whatever it returns.
	defer func() {
		if !waited {
			waitFiles()
		}
	}()
	unlock, err := lockExclusive(ctx, s.root)
	if err != nil {
		return nil, fmt.Errorf("apply: %w", err)
	}
	defer unlock()
	// Statement journals in memory: an apply's statements, each of at most rowsPerStatement rows, touch a few
	// hundred pages at most, and a statement journal that spills opens and writes a temporary file. It only
	// ever undoes a failed statement inside the transaction; crash recovery does not use it.
	if _, err := s.db.ExecContext(ctx, `PRAGMA temp_store = MEMORY`); err != nil {
		return nil, fmt.Errorf("apply: %w", err)
	}
	defer s.db.ExecContext(context.WithoutCancel(ctx), `PRAGMA temp_store = DEFAULT`)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("apply: begin: %w", err)
	}
	defer tx.Rollback()
	ins, err := prepareApply(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("apply: %w", err)
	}
	defer ins.close()
	results := make([]ApplyResult, len(batches))
	created := now.UnixNano()
	for i, b := range batches {
		var opt ApplyOptions
		if opts != nil {
			opt = opts[i]
		}
		// The claims this note may supersede are found before its own go in: the search skips the note's
		// claims anyway, and a full-text query after inserts in the same transaction first writes them out
		// to the index, once per claim searched.
		var cands [][]Candidate
		var err error
		if opt.Supersede != SupersedeNone {
			cands, err = candidates(ctx, ins.tx, b.Claims)
		}
		var r ApplyResult
		var ids map[string]int64
		if err == nil {
			r, ids, err = ins.apply(ctx, hashes[i], b, created)
		}
		if err == nil {
			err = ins.flagAndRefs(ctx, b, &r)
		}
		if err == nil && opt.Supersede != SupersedeNone {
			err = ins.supersedeClaims(ctx, b, opt, &r, created, cands, ids)
		}
		if err != nil {
			return nil, fmt.Errorf("apply artifact %s: %w", hashes[i][:12], err)
		}
		results[i] = r
	}
	if err := ins.record(ctx, op, grp, results, now); err != nil {
		return nil, fmt.Errorf("apply: %w", err)
	}
	superseded := 0
	for _, r := range results {
		superseded += len(r.Superseded)
	}
	if superseded > 0 {
		// Superseding deletes from the active claims' index, which keeps a tombstone for each until its
		// segment is merged; a bounded merge after each apply keeps the candidate search from walking them.
		if _, err := tx.ExecContext(ctx, `INSERT INTO claims_active (claims_active, rank) VALUES ('merge', ?)`, activeMergePages); err != nil {
			return nil, fmt.Errorf("apply: merge the active claims' index: %w", err)
		}
	}
	if err := waitFiles(); err != nil {
		return nil, fmt.Errorf("apply: %w", err)
	}
	// A context cancelled during the inserts must not commit.
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("apply: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("apply: commit: %w", cancelled(ctx, err))
	}
	return results, nil
}

// activeMergePages bounds the merge work an apply does on the active claims' index, in pages.
const activeMergePages = 64

// validate checks an artifact and its claims before anything is written.
func validate(b Batch) error {
	a := b.Artifact
	if a.Kind != "checkpoint" && a.Kind != "note" {
		return fmt.Errorf("artifact kind %q: want checkpoint or note", a.Kind)
	}
	if len(a.Text) == 0 {
		return errors.New("empty artifact")
	}
	for i, c := range b.Claims {
		if strings.TrimSpace(c.Key) == "" || strings.TrimSpace(c.Text) == "" {
			return fmt.Errorf("claim %d: empty key or text", i)
		}
		if len(c.Spans) == 0 {
			return fmt.Errorf("claim %d (%s): no evidence span", i, c.Key)
		}
		for _, sp := range c.Spans {
			if sp.Start < 0 || sp.End <= sp.Start || sp.End > len(a.Text) {
				return fmt.Errorf("claim %d (%s): span [%d,%d) outside the artifact (%d bytes)", i, c.Key, sp.Start, sp.End, len(a.Text))
			}
		}
		if sp := c.Spans[0]; string(a.Text[sp.Start:sp.End]) != c.Text {
			return fmt.Errorf("claim %d (%s): text differs from the artifact bytes at [%d,%d)", i, c.Key, sp.Start, sp.End)
		}
		if err := checkContext(a.Text, a.Task, c.Context); err != nil {
			return fmt.Errorf("claim %d (%s): %w", i, c.Key, err)
		}
	}
	return nil
}

// contextSep separates the parts of a claim's context, as compiler.Claim joins them.
const contextSep = " > "

// checkContext checks that a claim's context is the task its artifact was written for, then parts that are
// each text of the artifact, so that the context, like the claim text, holds nothing the artifact does not.
// The task is taken whole: it may itself hold the separator ("ops > db").
func checkContext(text []byte, task, context string) error {
	if task != "" {
		if context == task {
			return nil
		}
		context = strings.TrimPrefix(context, task+contextSep)
	}
	if context == "" {
		return nil
	}
	for _, part := range strings.Split(context, contextSep) {
		if !bytes.Contains(text, []byte(part)) {
			return fmt.Errorf("context %q is not text of the artifact", part)
		}
	}
	return nil
}

// applyStmts are the statements of one apply transaction, prepared once for all its artifacts. Claims go in
// with a few multi-row statements per artifact instead of a few statements per claim: a statement costs
// more to run than a row costs to insert.
type applyStmts struct {
	tx                                *sql.Tx
	artifact, artifactID, artifactFTS *sql.Stmt

	added   delta // the rows this transaction added, for its undo record
	removed delta // and those it removed
	lastID  int64 // the id of the artifact applied last
}

func prepareApply(ctx context.Context, tx *sql.Tx) (*applyStmts, error) {
	st := &applyStmts{tx: tx}
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&st.artifact, `INSERT INTO artifacts (hash, kind, source, session, task, created) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (hash) DO NOTHING RETURNING id`},
		{&st.artifactID, `SELECT id FROM artifacts WHERE hash = ?`},
		{&st.artifactFTS, `INSERT INTO artifacts_fts (rowid, text) VALUES (?, ?)`},
	} {
		s, err := tx.PrepareContext(ctx, p.sql)
		if err != nil {
			st.close()
			return nil, fmt.Errorf("prepare: %w", err)
		}
		*p.dst = s
	}
	return st, nil
}

func (st *applyStmts) close() {
	for _, s := range []*sql.Stmt{st.artifact, st.artifactID, st.artifactFTS} {
		if s != nil {
			s.Close()
		}
	}
}

// insertOrGet runs an INSERT … ON CONFLICT DO NOTHING RETURNING id and falls back to lookup when the row
// already existed.
func insertOrGet(ctx context.Context, ins, get *sql.Stmt, key string, args ...any) (id int64, existed bool, err error) {
	err = ins.QueryRowContext(ctx, args...).Scan(&id)
	if err == nil {
		return id, false, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, false, err
	}
	if err := get.QueryRowContext(ctx, key).Scan(&id); err != nil {
		return 0, false, err
	}
	return id, true, nil
}

// rowsPerStatement bounds the rows of one multi-row statement, well under SQLite's limit of 32,766 bound
// parameters.
const rowsPerStatement = 200

// valueRows returns n parenthesized groups of cols placeholders, for a multi-row VALUES or IN list.
func valueRows(n, cols int) string {
	row := "(?" + strings.Repeat(", ?", cols-1) + ")"
	return row + strings.Repeat(", "+row, n-1)
}

// inChunks calls f with the consecutive ranges [i, j) of n rows, at most rowsPerStatement at a time.
func inChunks(n int, f func(i, j int) error) error {
	for i := 0; i < n; i += rowsPerStatement {
		if err := f(i, min(n, i+rowsPerStatement)); err != nil {
			return err
		}
	}
	return nil
}

// readIDs runs query, whose rows are claim ids and keys, and adds them to ids.
func (st *applyStmts) readIDs(ctx context.Context, ids map[string]int64, query string, args ...any) error {
	rows, err := st.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var key string
		if err := rows.Scan(&id, &key); err != nil {
			return err
		}
		ids[key] = id
	}
	return rows.Err()
}

// apply stores b's artifact, claims and evidence, and returns the ids of its claims by key.
func (st *applyStmts) apply(ctx context.Context, hash string, b Batch, created int64) (ApplyResult, map[string]int64, error) {
	a := b.Artifact
	r := ApplyResult{Artifact: hash}
	aid, existed, err := insertOrGet(ctx, st.artifact, st.artifactID, hash,
		hash, a.Kind, a.Source, a.Session, a.Task, created)
	if err != nil {
		return r, nil, fmt.Errorf("artifact row: %w", err)
	}
	r.ArtifactExisted = existed
	st.lastID = aid
	if !existed {
		st.added.Artifacts = append(st.added.Artifacts, artifactRow{ID: aid, Hash: hash})
		if _, err := st.artifactFTS.ExecContext(ctx, aid, string(a.Text)); err != nil {
			return r, nil, fmt.Errorf("artifact index: %w", err)
		}
	}
	claims := b.Claims
	ids := make(map[string]int64, len(claims)) // by key
	// Insert the claims; RETURNING names the new ones. A key repeated in claims is new once and then known,
	// as when it is applied twice.
	var fresh []ClaimInput
	err = inChunks(len(claims), func(i, j int) error {
		args := make([]any, 0, 6*(j-i))
		for _, c := range claims[i:j] {
			args = append(args, c.Key, c.Text, c.Kind, c.Compiler, created, c.Context)
		}
		return st.readIDs(ctx, ids, `INSERT INTO claims (key, text, kind, compiler, created, context) VALUES `+
			valueRows(j-i, 6)+` ON CONFLICT (key) DO NOTHING RETURNING id, key`, args...)
	})
	if err != nil {
		return r, nil, fmt.Errorf("claims: %w", err)
	}
	seen := make(map[string]bool, len(claims))
	var known []string
	for _, c := range claims {
		switch {
		case seen[c.Key]:
		case ids[c.Key] != 0:
			fresh = append(fresh, c)
		default:
			known = append(known, c.Key)
		}
		seen[c.Key] = true
	}
	r.NewClaims = len(fresh)
	for _, c := range fresh {
		st.added.Claims = append(st.added.Claims, claimRow{ID: ids[c.Key]})
	}
	r.KnownClaims = len(claims) - len(fresh)
	err = inChunks(len(fresh), func(i, j int) error {
		args := make([]any, 0, 3*(j-i))
		for _, c := range fresh[i:j] {
			args = append(args, ids[c.Key], c.Text, c.Context)
		}
		_, err := st.tx.ExecContext(ctx, `INSERT INTO claims_fts (rowid, text, context) VALUES `+valueRows(j-i, 3), args...)
		return err
	})
	if err != nil {
		return r, nil, fmt.Errorf("claim index: %w", err)
	}
	// The ids of claims that were stored before.
	err = inChunks(len(known), func(i, j int) error {
		args := make([]any, j-i)
		for k, key := range known[i:j] {
			args[k] = key
		}
		return st.readIDs(ctx, ids, `SELECT id, key FROM claims WHERE key IN `+valueRows(1, j-i), args...)
	})
	if err != nil {
		return r, nil, fmt.Errorf("known claims: %w", err)
	}
	var spans [][4]any
	for _, c := range claims {
		for _, sp := range c.Spans {
			spans = append(spans, [4]any{ids[c.Key], aid, sp.Start, sp.End})
		}
	}
	err = inChunks(len(spans), func(i, j int) error {
		args := make([]any, 0, 4*(j-i))
		for _, e := range spans[i:j] {
			args = append(args, e[:]...)
		}
		rows, err := st.tx.QueryContext(ctx, `INSERT INTO evidence (claim, artifact, start, "end") VALUES `+
			valueRows(j-i, 4)+` ON CONFLICT DO NOTHING RETURNING claim, start, "end"`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			e := evidenceRow{Artifact: aid}
			if err := rows.Scan(&e.Claim, &e.Start, &e.End); err != nil {
				return err
			}
			st.added.Evidence = append(st.added.Evidence, e)
			r.NewEvidence++
		}
		return rows.Err()
	})
	if err != nil {
		return r, nil, fmt.Errorf("evidence: %w", err)
	}
	return r, ids, nil
}

// flagAndRefs stores what an apply adds beside claims and evidence: the artifact's flag, when the apply
// created the artifact, and its refs.
func (st *applyStmts) flagAndRefs(ctx context.Context, b Batch, r *ApplyResult) error {
	aid := st.lastID
	if b.Artifact.Flagged && !r.ArtifactExisted {
		if _, err := st.tx.ExecContext(ctx, `UPDATE artifacts SET flagged = 1 WHERE id = ?`, aid); err != nil {
			return fmt.Errorf("flag: %w", err)
		}
	}
	for _, ref := range b.Artifact.Refs {
		if err := ref.check(); err != nil {
			return err
		}
		rows, err := st.tx.QueryContext(ctx, `INSERT INTO refs (artifact, key, value) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1`,
			aid, ref.Key, ref.Value)
		if err != nil {
			return fmt.Errorf("ref: %w", err)
		}
		added := rows.Next()
		rows.Close()
		if added {
			st.added.Refs = append(st.added.Refs, refRow{Artifact: aid, Key: ref.Key, Value: ref.Value})
		}
	}
	return nil
}

// Known reports, for each of keys, whether a claim with that key is stored. Keys that are not stored are
// absent from the map or false.
func (s *Store) Known(ctx context.Context, keys []string) (map[string]bool, error) {
	known := make(map[string]bool, len(keys))
	err := inChunks(len(keys), func(i, j int) error {
		args := make([]any, j-i)
		for k, key := range keys[i:j] {
			args[k] = key
		}
		got, err := column[string](ctx, s.db, `SELECT key FROM claims WHERE key IN `+valueRows(1, j-i), args...)
		for _, k := range got {
			known[k] = true
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("known claims: %w", err)
	}
	return known, nil
}
