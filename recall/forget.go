package recall

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrNoClaim is returned by [Store.Forget] and [Store.Supersede] for a claim ID that no stored claim has.
var ErrNoClaim = errors.New("no such claim")

// ErrTarget is returned for a forget target that is neither a claim ID nor an artifact hash prefix.
var ErrTarget = errors.New("not a claim ID or artifact hash prefix")

// AmbiguousTargetError is returned for a target that is both a stored claim's ID and a prefix of a stored
// artifact's hash; claim:N or artifact:PREFIX says which.
type AmbiguousTargetError struct{ Target string }

func (e *AmbiguousTargetError) Error() string {
	return fmt.Sprintf("%s is both a claim ID and an artifact hash prefix: write claim:%s or artifact:%s", e.Target, e.Target, e.Target)
}

// ForgetOptions controls [Store.Forget].
type ForgetOptions struct {
	DryRun bool // list what would go, change nothing (works on a read-only Store)
	Purge  bool // keep no copy: the forget cannot be undone, and undo records that hold text are deleted too
	Now    time.Time
}

// ForgottenClaim is a claim [Store.Forget] removed.
type ForgottenClaim struct {
	ID      int64
	Text    string
	Kind    string
	Created time.Time
	Flagged bool // it had evidence in a flagged artifact: its text may be a secret, never print it
}

// ForgottenArtifact is an artifact [Store.Forget] removed.
type ForgottenArtifact struct {
	Hash    string
	Kind    string
	Session string
	Task    string
	Created time.Time
	Bytes   int
	Flagged bool
}

// ForgetResult says what [Store.Forget] removed, or with DryRun would remove.
type ForgetResult struct {
	Claims    []ForgottenClaim    // in id order
	Artifacts []ForgottenArtifact // in hash order
	Evidence  int                 // evidence rows removed
	Revived   []int64             // claims that were superseded by a forgotten claim and are current again
	Bytes     int64               // artifact bytes removed
	StillIn   []string            // hashes of artifacts that are not forgotten and hold a forgotten claim's text
	// ClearedContext lists the claims that stay but lost their context, because it was text of a forgotten
	// artifact that no artifact that stays holds; not set by a dry run.
	ClearedContext []int64
	Record         int64 // the undo record, 0 for a dry run or a purge
	Purged         bool
	// RedoDropped lists the artifacts, named by a purge, that no row holds any more but an undone
	// operation's record keeps for [Store.Redo]: the purge deletes that copy, and redo cannot bring them back.
	RedoDropped []string
}

// Forget removes claims, named by ID ("42" or "claim:42"), and artifacts with every claim that only they
// support, named by hash prefix ("ab12" or "artifact:ab12"; at least [MinPrefix] hex digits). A claim goes
// with all its evidence; an artifact with its file, evidence, refs and the claims that have no evidence
// elsewhere; supersessions made by or of a removed claim are lifted. A forgotten claim's text may remain in an
// artifact that is not forgotten.
//
// Nothing forgotten survives in the store directory: the rows are deleted with SQLite's secure_delete, the
// full-text indexes rebuilt and merged so that no segment keeps a forgotten word, the database rewritten and
// its log emptied, and the artifact files removed. The undo record keeps a copy, so that [Store.Undo] can put
// it back, unless opt.Purge is set: then no copy is kept anywhere, and the undo records that could bring text
// back or act on the purged rows are deleted too (see pruneUndoLog). Forget holds the write lock while it runs,
// for a time that grows with the store (it rewrites the database file).
//
// An unknown claim ID returns an error wrapping [ErrNoClaim], an unknown prefix one wrapping [ErrNotFound],
// an ambiguous prefix an [*AmbiguousError], a bare number that is both an ID and a prefix an
// [*AmbiguousTargetError], and anything else one wrapping [ErrTarget]. Nothing is removed unless every
// target resolves.
func (s *Store) Forget(ctx context.Context, targets []string, opt ForgetOptions) (ForgetResult, error) {
	if opt.DryRun {
		var redo []string
		var err error
		if opt.Purge {
			if targets, redo, err = s.redoCopies(ctx, s.db, targets); err != nil {
				return ForgetResult{}, fmt.Errorf("forget: %w", err)
			}
		}
		p, err := s.forgetPlan(ctx, s.db, targets)
		if err != nil {
			return ForgetResult{}, fmt.Errorf("forget: %w", err)
		}
		res := p.result()
		res.RedoDropped = redo
		return res, nil
	}
	if s.readOnly {
		return ForgetResult{}, fmt.Errorf("forget: %w", ErrReadOnly)
	}
	unlock, err := lockExclusive(ctx, s.root)
	if err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	defer unlock()
	// Every page the deletes free is zeroed, not left on the free list with the text in it.
	if _, err := s.db.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	defer s.db.ExecContext(context.Background(), `PRAGMA secure_delete = OFF`)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	defer tx.Rollback()
	var redo []string
	if opt.Purge {
		if targets, redo, err = s.redoCopies(ctx, tx, targets); err != nil {
			return ForgetResult{}, fmt.Errorf("forget: %w", err)
		}
	}
	p, err := s.forgetPlan(ctx, tx, targets)
	if err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	d, res := p.d, p.result()
	res.RedoDropped = redo
	files, err := removeRows(ctx, tx, d)
	if err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	rec := undoRecord{Removed: d}
	if res.ClearedContext, err = s.clearContexts(ctx, tx, d, &rec); err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	if opt.Purge {
		res.Purged = true
		if err := pruneUndoLog(ctx, tx, d); err != nil {
			return ForgetResult{}, fmt.Errorf("forget: %w", err)
		}
	} else if res.Record, err = record(ctx, tx, opForget, 0, rec, opt.Now); err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	// From the commit until the scrub is done, old copies of the text remain in the file's free pages, the
	// log and the index segments: a marker, written first, makes the next writable open finish the scrub if
	// this process dies before it does.
	if err := s.root.Write(scrubMarker, []byte(strings.Join(files, "\n")), 0o600); err != nil {
		return ForgetResult{}, fmt.Errorf("forget: %w", err)
	}
	if err := tx.Commit(); err != nil {
		s.root.Remove(scrubMarker)
		return ForgetResult{}, fmt.Errorf("forget: commit: %w", cancelled(ctx, err))
	}
	// The forget is done: an interrupt from here on must not make it look undone (exit 130, no journal
	// entry) while it is not. The scrub runs to its end.
	ctx = context.WithoutCancel(ctx)
	if err := s.removeFiles(files); err != nil {
		return res, fmt.Errorf("forget: %w", err)
	}
	if err := s.scrub(ctx); err != nil {
		return res, fmt.Errorf("forget: %w", err)
	}
	if err := s.root.Remove(scrubMarker); err != nil {
		return res, fmt.Errorf("forget: %w", err)
	}
	return res, nil
}

// redoCopies splits targets into those [Store.Forget] resolves among stored rows (or refuses as usual) and
// the full hashes of the artifacts that no row holds but the record of an undone operation does, kept for its
// redo: an apply undone by mistake keeps its note's text until the next operation, and a purge must be able
// to name it. A purge deletes every operation waiting for a redo (see pruneUndoLog), so those copies go with it.
func (s *Store) redoCopies(ctx context.Context, q rowQuerier, targets []string) (stored, redo []string, err error) {
	var held []string
	loaded := false
	for _, t := range targets {
		if _, _, err := s.resolveTarget(ctx, q, t); !errors.Is(err, ErrNotFound) {
			stored = append(stored, t) // stored, ambiguous, malformed or a claim ID: as usual
			continue
		}
		if !loaded {
			if held, err = undoneArtifacts(ctx, q); err != nil {
				return nil, nil, err
			}
			loaded = true
		}
		p := strings.ToLower(strings.TrimPrefix(t, "artifact:"))
		var match []string
		for _, h := range held {
			if strings.HasPrefix(h, p) {
				match = append(match, h)
			}
		}
		if len(match) != 1 {
			stored = append(stored, t) // refused as not found, or as ambiguous below
			continue
		}
		if !slices.Contains(redo, match[0]) {
			redo = append(redo, match[0])
		}
	}
	return stored, redo, nil
}

// undoneArtifacts returns the hashes of the artifacts whose bytes the records of undone operations hold.
func undoneArtifacts(ctx context.Context, q rowQuerier) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT record FROM undo_log WHERE state = 'undone' AND holds_text`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hashes []string
	for rows.Next() {
		var js string
		if err := rows.Scan(&js); err != nil {
			return nil, err
		}
		var rec undoRecord
		if err := json.Unmarshal([]byte(js), &rec); err != nil {
			return nil, fmt.Errorf("undo record: %w", err)
		}
		for _, a := range slices.Concat(rec.Added.Artifacts, rec.Removed.Artifacts) {
			if a.Data != nil {
				hashes = append(hashes, a.Hash)
			}
		}
	}
	slices.Sort(hashes)
	return slices.Compact(hashes), rows.Err()
}

// pruneUndoLog deletes, for a purge of the rows of d, every operation of the undo log that could bring text
// back or act on rows that are gone, each whole:
//   - every operation waiting for a redo (a purge starts a new history);
//   - every operation whose record holds text (other forgets);
//   - every operation that names a row of d: nothing brings those rows back, and an undo or a redo of an
//     operation that added or removed them would act on rows that are gone (an undo that says it removed
//     claims already purged, a redo that fails on a missing artifact), or on rows that took their ids since;
//   - every older operation that names a row that a deleted newer one removed, or added and the purge left:
//     undo takes back the newest operation first, and such an operation's undo would now find its rows as
//     the deleted one left them (an apply whose rows an earlier forget removed, undone as though they were
//     still there).
//
// An older operation that shares no such row with what is deleted stays undoable.
func pruneUndoLog(ctx context.Context, tx *sql.Tx, d delta) error {
	purged := rowSet{arts: map[int64]bool{}, claims: map[int64]bool{}} // the rows the purge deletes, not those it refers to
	for _, a := range d.Artifacts {
		purged.arts[a.ID] = true
	}
	for _, c := range d.Claims {
		purged.claims[c.ID] = true
	}
	rows, err := tx.QueryContext(ctx, `SELECT grp, state, holds_text, record FROM undo_log ORDER BY grp DESC, id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	type group struct {
		id   int64
		drop bool
		rows rowSet // every row its records name
		left rowSet // the rows it removed, and those it added that the purge leaves
	}
	var groups []*group
	for rows.Next() {
		var grp int64
		var state, js string
		var holds bool
		if err := rows.Scan(&grp, &state, &holds, &js); err != nil {
			return err
		}
		var rec undoRecord
		if err := json.Unmarshal([]byte(js), &rec); err != nil {
			return fmt.Errorf("undo record of group %d: %w", grp, err)
		}
		if len(groups) == 0 || groups[len(groups)-1].id != grp {
			groups = append(groups, &group{id: grp})
		}
		g := groups[len(groups)-1]
		g.rows.add(rec.Added)
		g.rows.add(rec.Removed)
		if state == "undone" {
			// Its changes are taken back: what it names is as older operations left it.
			g.drop = true
			continue
		}
		g.left.add(rec.Removed)
		g.left.add(rec.Added.without(purged))
		if holds {
			g.drop = true
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	var gone rowSet // the rows of the deleted operations newer than the one at hand
	for _, g := range groups {
		if !g.drop && (g.rows.meets(purged) || g.rows.meets(gone)) {
			g.drop = true
		}
		if !g.drop {
			continue
		}
		gone.union(g.left)
		if _, err := tx.ExecContext(ctx, `DELETE FROM undo_log WHERE grp = ?`, g.id); err != nil {
			return err
		}
	}
	return nil
}

// without returns the rows of d that name none of the artifacts and claims of p.
func (d delta) without(p rowSet) delta {
	var out delta
	for _, a := range d.Artifacts {
		if !p.arts[a.ID] {
			out.Artifacts = append(out.Artifacts, a)
		}
	}
	for _, c := range d.Claims {
		if !p.claims[c.ID] {
			out.Claims = append(out.Claims, c)
		}
	}
	for _, e := range d.Evidence {
		if !p.arts[e.Artifact] && !p.claims[e.Claim] {
			out.Evidence = append(out.Evidence, e)
		}
	}
	for _, sp := range d.Supersessions {
		if !p.claims[sp.Old] && !p.claims[sp.New] {
			out.Supersessions = append(out.Supersessions, sp)
		}
	}
	for _, r := range d.Refs {
		if !p.arts[r.Artifact] {
			out.Refs = append(out.Refs, r)
		}
	}
	return out
}

// rowSet is the artifacts and claims that some deltas name, by id.
type rowSet struct{ arts, claims map[int64]bool }

// add puts in the artifacts and claims that d holds a row of or refers to.
func (r *rowSet) add(d delta) {
	if r.arts == nil {
		r.arts, r.claims = map[int64]bool{}, map[int64]bool{}
	}
	for _, a := range d.Artifacts {
		r.arts[a.ID] = true
	}
	for _, c := range d.Claims {
		r.claims[c.ID] = true
	}
	for _, e := range d.Evidence {
		r.arts[e.Artifact], r.claims[e.Claim] = true, true
	}
	for _, sp := range d.Supersessions {
		r.claims[sp.Old], r.claims[sp.New] = true, true
	}
	for _, rf := range d.Refs {
		r.arts[rf.Artifact] = true
	}
}

func (r *rowSet) union(o rowSet) {
	if r.arts == nil {
		r.arts, r.claims = map[int64]bool{}, map[int64]bool{}
	}
	for id := range o.arts {
		r.arts[id] = true
	}
	for id := range o.claims {
		r.claims[id] = true
	}
}

// meets reports whether r and o share an artifact or a claim.
func (r rowSet) meets(o rowSet) bool {
	for id := range r.arts {
		if o.arts[id] {
			return true
		}
	}
	for id := range r.claims {
		if o.claims[id] {
			return true
		}
	}
	return false
}

// scrubMarker is the file in the store directory that says a forget committed but may not have scrubbed.
const scrubMarker = "scrub.pending"

// finishScrub finishes what a forget that committed and then died left undone: it removes the forgotten
// artifacts' files that the marker names, unless a row refers to one again, and scrubs the database. The
// caller holds the exclusive lock.
func (s *Store) finishScrub(ctx context.Context) error {
	data, err := s.root.ReadFile(scrubMarker)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var gone []string
	for _, h := range strings.Fields(string(data)) {
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM artifacts WHERE hash = ?`, h).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			gone = append(gone, h)
		}
	}
	if err := s.removeFiles(gone); err != nil {
		return err
	}
	if err := s.scrub(ctx); err != nil {
		return err
	}
	return s.root.Remove(scrubMarker)
}

// clearContexts empties the context of each claim that stays although d removes some of its evidence, when no
// artifact that still supports it holds that context: the context came from a forgotten artifact, and its
// text must go with it. The rows as they were go into rec, so that undo puts the context back. It returns
// the claims it changed, by id.
func (s *Store) clearContexts(ctx context.Context, tx *sql.Tx, d delta, rec *undoRecord) ([]int64, error) {
	gone := map[int64]bool{}
	for _, c := range d.Claims {
		gone[c.ID] = true
	}
	stay := map[int64]bool{}
	for _, e := range d.Evidence {
		if !gone[e.Claim] {
			stay[e.Claim] = true
		}
	}
	if len(stay) == 0 {
		return nil, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT c.id, c.context, a.hash, a.task FROM claims c JOIN evidence e ON e.claim = c.id
		JOIN artifacts a ON a.id = e.artifact WHERE c.context != '' AND c.id`+inIDs+` GROUP BY c.id, a.id ORDER BY c.id, a.id`, jsonIDs(stay))
	if err != nil {
		return nil, err
	}
	held := map[int64]bool{} // claims whose context an artifact that stays holds
	var order []int64
	for rows.Next() {
		var id int64
		var context, hash, task string
		if err := rows.Scan(&id, &context, &hash, &task); err != nil {
			rows.Close()
			return nil, err
		}
		if len(order) == 0 || order[len(order)-1] != id {
			order = append(order, id)
		}
		if held[id] {
			continue
		}
		data, err := s.readArtifact(hash)
		if err != nil {
			rows.Close()
			return nil, err
		}
		held[id] = checkContext(data, task, context) == nil
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var cleared []int64
	for _, id := range order {
		if held[id] {
			continue
		}
		was := delta{Claims: []claimRow{{ID: id}}}
		if err := s.fill(ctx, tx, &was); err != nil {
			return nil, err
		}
		c := was.Claims[0]
		for _, st := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO claims_fts (claims_fts, rowid, text, context) VALUES ('delete', ?, ?, ?)`, []any{id, c.Text, c.Context}},
			{`UPDATE claims SET context = '' WHERE id = ?`, []any{id}},
			{`INSERT INTO claims_fts (rowid, text, context) VALUES (?, ?, '')`, []any{id, c.Text}},
		} {
			if _, err := tx.ExecContext(ctx, st.sql, st.args...); err != nil {
				return nil, fmt.Errorf("clear context of claim %d: %w", id, err)
			}
		}
		// Undo takes the row out and puts it back as it was, as for a reindex.
		rec.Added.Claims = append(rec.Added.Claims, claimRow{ID: id})
		rec.Removed.Claims = append(rec.Removed.Claims, c)
		cleared = append(cleared, id)
	}
	return cleared, nil
}

// scrub leaves no trace of deleted rows in the store's files: the claim indexes are rebuilt from the claims
// and the artifact index, which keeps no text to rebuild from, merged into one segment,
// which drops deleted entries; then the database is rewritten (in memory: it needs about the database's size)
// and its log written back and truncated. The caller holds the exclusive lock.
func (s *Store) scrub(ctx context.Context) error {
	for _, st := range []string{
		`PRAGMA secure_delete = ON`,
		`INSERT INTO claims_fts (claims_fts) VALUES ('rebuild')`,
		`INSERT INTO claims_active (claims_active) VALUES ('delete-all')`,
		`INSERT INTO claims_active (rowid, text) SELECT id, text FROM claims WHERE status = 'active'`,
		`INSERT INTO artifacts_fts (artifacts_fts) VALUES ('optimize')`,
		// VACUUM builds the new file in a temporary database: in memory, not in a file under $TMPDIR that
		// would hold every note's text outside the data directory.
		`PRAGMA temp_store = MEMORY`,
		`VACUUM`,
		`PRAGMA temp_store = DEFAULT`,
	} {
		if _, err := s.db.ExecContext(ctx, st); err != nil {
			return fmt.Errorf("scrub: %s: %w", st, err)
		}
	}
	var busy, logPages, written int
	if err := s.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logPages, &written); err != nil {
		return fmt.Errorf("scrub: checkpoint: %w", err)
	}
	if busy != 0 {
		return fmt.Errorf("scrub: checkpoint: %w", ErrBusy)
	}
	if _, err := s.db.ExecContext(ctx, `PRAGMA secure_delete = OFF`); err != nil {
		return fmt.Errorf("scrub: %w", err)
	}
	return nil
}

// forgetting is what a forget removes: the rows, held; the artifacts that stay although they hold a removed
// claim's text; and which removed claims are flagged.
type forgetting struct {
	d       delta
	stillIn []string
	flagged map[int64]bool
}

// result describes the forget.
func (p forgetting) result() ForgetResult {
	d := p.d
	res := ForgetResult{Claims: []ForgottenClaim{}, Artifacts: []ForgottenArtifact{}, Evidence: len(d.Evidence), Revived: revived(d),
		StillIn: p.stillIn}
	for _, c := range d.Claims {
		res.Claims = append(res.Claims, ForgottenClaim{ID: c.ID, Text: c.Text, Kind: c.Kind, Created: time.Unix(0, c.Created).UTC(),
			Flagged: p.flagged[c.ID]})
	}
	for _, a := range d.Artifacts {
		res.Artifacts = append(res.Artifacts, ForgottenArtifact{Hash: a.Hash, Kind: a.Kind, Session: a.Session, Task: a.Task,
			Created: time.Unix(0, a.Created).UTC(), Bytes: len(a.Data), Flagged: a.Flagged})
		res.Bytes += int64(len(a.Data))
	}
	return res
}

// revived returns the claims that d's supersessions supersede and that stay: current again once d is gone.
func revived(d delta) []int64 {
	gone := map[int64]bool{}
	for _, c := range d.Claims {
		gone[c.ID] = true
	}
	out := []int64{}
	for _, r := range d.Supersessions {
		if !gone[r.Old] {
			out = append(out, r.Old)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// forgetPlan resolves targets and returns what forgetting them removes.
func (s *Store) forgetPlan(ctx context.Context, q rowQuerier, targets []string) (forgetting, error) {
	var p forgetting
	d, still, err := s.forgetRows(ctx, q, targets)
	if err != nil {
		return p, err
	}
	p.d, p.stillIn, p.flagged = d, still, map[int64]bool{}
	ids := map[int64]bool{}
	for _, c := range d.Claims {
		ids[c.ID] = true
	}
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT e.claim FROM evidence e JOIN artifacts a ON a.id = e.artifact
		WHERE a.flagged = 1 AND e.claim`+inIDs, jsonIDs(ids))
	if err != nil {
		return p, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return p, err
		}
		p.flagged[id] = true
	}
	return p, rows.Err()
}

// forgetRows resolves targets and returns the rows forgetting them removes, held, and the hashes of the
// artifacts that stay although they hold evidence of a removed claim.
func (s *Store) forgetRows(ctx context.Context, q rowQuerier, targets []string) (delta, []string, error) {
	var d delta
	claimIDs, artIDs := map[int64]bool{}, map[int64]bool{}
	for _, t := range targets {
		isClaim, id, err := s.resolveTarget(ctx, q, t)
		if err != nil {
			return d, nil, err
		}
		if isClaim {
			claimIDs[id] = true
		} else {
			artIDs[id] = true
		}
	}
	ev := map[evidenceRow]bool{}
	addRows := func(query string, ids map[int64]bool) error {
		rows, err := q.QueryContext(ctx, query, jsonIDs(ids))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r evidenceRow
			if err := rows.Scan(&r.Claim, &r.Artifact, &r.Start, &r.End); err != nil {
				return err
			}
			ev[r] = true
		}
		return rows.Err()
	}
	if err := addRows(`SELECT claim, artifact, start, "end" FROM evidence WHERE claim`+inIDs, claimIDs); err != nil {
		return d, nil, err
	}
	if err := addRows(`SELECT claim, artifact, start, "end" FROM evidence WHERE artifact`+inIDs, artIDs); err != nil {
		return d, nil, err
	}
	// A claim goes when all its evidence goes.
	touched := map[int64]bool{}
	for r := range ev {
		touched[r.Claim] = true
	}
	for id := range claimIDs {
		touched[id] = true
	}
	for id := range touched {
		var left int
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM evidence WHERE claim = ? AND NOT (artifact`+inIDs+`)`,
			id, jsonIDs(artIDs)).Scan(&left); err != nil {
			return d, nil, err
		}
		if left == 0 || claimIDs[id] {
			d.Claims = append(d.Claims, claimRow{ID: id})
		}
	}
	slices.SortFunc(d.Claims, func(a, b claimRow) int { return cmpInt(a.ID, b.ID) })
	for r := range ev {
		d.Evidence = append(d.Evidence, r)
	}
	slices.SortFunc(d.Evidence, func(a, b evidenceRow) int {
		if c := cmpInt(a.Claim, b.Claim); c != 0 {
			return c
		}
		if c := cmpInt(a.Artifact, b.Artifact); c != 0 {
			return c
		}
		return a.Start - b.Start
	})
	for id := range artIDs {
		d.Artifacts = append(d.Artifacts, artifactRow{ID: id})
	}
	gone := map[int64]bool{}
	for _, c := range d.Claims {
		gone[c.ID] = true
	}
	rows, err := q.QueryContext(ctx, `SELECT old, new, created FROM supersessions WHERE old`+inIDs+` OR new`+inIDs+` ORDER BY old`,
		jsonIDs(gone), jsonIDs(gone))
	if err != nil {
		return d, nil, err
	}
	for rows.Next() {
		var r supersessionRow
		if err := rows.Scan(&r.Old, &r.New, &r.Created); err != nil {
			rows.Close()
			return d, nil, err
		}
		d.Supersessions = append(d.Supersessions, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, nil, err
	}
	rows, err = q.QueryContext(ctx, `SELECT artifact, key, value FROM refs WHERE artifact`+inIDs+` ORDER BY artifact, key, value`, jsonIDs(artIDs))
	if err != nil {
		return d, nil, err
	}
	for rows.Next() {
		var r refRow
		if err := rows.Scan(&r.Artifact, &r.Key, &r.Value); err != nil {
			rows.Close()
			return d, nil, err
		}
		d.Refs = append(d.Refs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, nil, err
	}
	if err := s.fill(ctx, q, &d); err != nil {
		return d, nil, err
	}
	slices.SortFunc(d.Artifacts, func(a, b artifactRow) int { return strings.Compare(a.Hash, b.Hash) })
	stay := map[int64]bool{}
	for _, r := range d.Evidence {
		if gone[r.Claim] && !artIDs[r.Artifact] {
			stay[r.Artifact] = true
		}
	}
	// q, not s.db: inside Forget's transaction the store's one connection is the transaction's.
	rows, err = q.QueryContext(ctx, `SELECT hash FROM artifacts WHERE id`+inIDs+` ORDER BY hash`, jsonIDs(stay))
	if err != nil {
		return d, nil, err
	}
	defer rows.Close()
	still := []string{}
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return d, nil, err
		}
		still = append(still, h)
	}
	return d, still, rows.Err()
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// jsonIDs renders a set of ids as a JSON array, for inIDs.
func jsonIDs(ids map[int64]bool) string {
	list := make([]int64, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	slices.Sort(list)
	return idArray(list)
}

// resolveTarget resolves one forget target to a claim id or an artifact id.
func (s *Store) resolveTarget(ctx context.Context, q rowQuerier, t string) (isClaim bool, id int64, err error) {
	kind, v, explicit := strings.Cut(t, ":")
	if !explicit {
		kind, v = "", t
	}
	claimID := func() (int64, error) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("%q: %w", t, ErrTarget)
		}
		var got int64
		err = q.QueryRowContext(ctx, `SELECT id FROM claims WHERE id = ?`, n).Scan(&got)
		if err != nil {
			return 0, fmt.Errorf("claim %d: %w", n, ErrNoClaim)
		}
		return got, nil
	}
	artifactID := func() (int64, error) {
		if err := CheckPrefix(v); err != nil {
			return 0, fmt.Errorf("%w: %w", ErrTarget, err)
		}
		p := strings.ToLower(v)
		rows, err := q.QueryContext(ctx, `SELECT id, hash FROM artifacts WHERE hash >= ? AND hash <= ? ORDER BY hash`, p, p+"g")
		if err != nil {
			return 0, err
		}
		defer rows.Close()
		var ids []int64
		var hashes []string
		for rows.Next() {
			var id int64
			var h string
			if err := rows.Scan(&id, &h); err != nil {
				return 0, err
			}
			ids, hashes = append(ids, id), append(hashes, h)
		}
		if err := rows.Err(); err != nil {
			return 0, err
		}
		switch len(ids) {
		case 0:
			return 0, fmt.Errorf("artifact %s: %w", p, ErrNotFound)
		case 1:
			return ids[0], nil
		}
		return 0, &AmbiguousError{Prefix: p, Candidates: hashes}
	}
	switch kind {
	case "claim":
		id, err := claimID()
		return true, id, err
	case "artifact":
		id, err := artifactID()
		return false, id, err
	case "":
	default:
		return false, 0, fmt.Errorf("%q: %w", t, ErrTarget)
	}
	if strings.Trim(v, "0123456789") != "" {
		id, err := artifactID()
		return false, id, err
	}
	cid, cerr := claimID()
	if len(v) < MinPrefix {
		return true, cid, cerr
	}
	aid, aerr := artifactID()
	switch {
	case cerr == nil && aerr == nil:
		return false, 0, &AmbiguousTargetError{Target: v}
	case cerr == nil:
		return true, cid, nil
	case aerr == nil:
		return false, aid, nil
	case errors.Is(aerr, ErrNotFound):
		return true, 0, cerr
	}
	return false, 0, aerr
}
