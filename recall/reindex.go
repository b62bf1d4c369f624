package recall

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/memoree/memoree/compiler"
)

// ReindexResult says what [Store.Reindex] changed. Claims are counted by key, over the whole store:
// Added were not stored before, Removed are no longer made from any artifact and are gone, Updated are
// still made but with another kind, context, compiler or first text, and Unchanged are as they were.
type ReindexResult struct {
	Compiler  string // the compiler's name
	Artifacts int    // artifacts recompiled
	Added     int
	Removed   int
	Updated   int
	Unchanged int
	Lifted    int   // supersessions lifted because a claim in them is gone and none is made from its text
	Carried   int   // supersessions passed from a deleted claim to the claims now made from its text
	Record    int64 // the undo record, 0 when nothing changed
}

// Changed reports whether the reindex changed any claim.
func (r ReindexResult) Changed() bool { return r.Added+r.Removed+r.Updated > 0 }

// Reindex recompiles every stored artifact with c, in place: artifacts and their bytes stay as they are,
// every claim and evidence span is made again from them, each claim taking its kind, context and text from
// the oldest artifact that makes it, and claims that no artifact makes any more are deleted. A claim that
// stays keeps its id and creation time; a new one is created at the time of the oldest artifact that makes
// it, so that recency still follows the notes. It is all-or-nothing, under the store's write lock, and
// takes time in proportion to the store. Claims of an older compiler keep working until it runs.
//
// A supersession made by or of a deleted claim passes to the claims now made from the text its evidence
// covered, so that a new compiler does not make current again every fact its notes replaced; where no claim
// is made from that text any more, it is lifted (a claim only a deleted one superseded is current again).
// The others stay, since claims that stay keep their ids. The reindex is one operation for
// [Store.Undo], recorded at now: its record holds the claims as they were, so that undo puts them back.
func (s *Store) Reindex(ctx context.Context, c compiler.Compiler, now time.Time) (ReindexResult, error) {
	res := ReindexResult{Compiler: c.Name()}
	if s.readOnly {
		return res, fmt.Errorf("reindex: %w", ErrReadOnly)
	}
	unlock, err := lockExclusive(ctx, s.root)
	if err != nil {
		return res, fmt.Errorf("reindex: %w", err)
	}
	defer unlock()
	type artifact struct {
		id      int64
		hash    string
		kind    string
		created int64
		task    string
		claims  []ClaimInput
	}
	var arts []artifact
	rows, err := s.db.QueryContext(ctx, `SELECT id, hash, kind, task, created FROM artifacts ORDER BY created, id`)
	if err != nil {
		return res, fmt.Errorf("reindex: %w", err)
	}
	for rows.Next() {
		var a artifact
		if err := rows.Scan(&a.id, &a.hash, &a.kind, &a.task, &a.created); err != nil {
			rows.Close()
			return res, fmt.Errorf("reindex: %w", err)
		}
		arts = append(arts, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("reindex: %w", err)
	}
	// Compile outside the transaction: it reads files and spends CPU, and needs no row.
	for i := range arts {
		a := &arts[i]
		text, err := s.readArtifact(a.hash)
		if err != nil {
			return res, fmt.Errorf("reindex %s: %w", a.hash[:12], err)
		}
		a.claims = ClaimsOf(c.Compile(string(text), compiler.Source{Kind: a.kind, Task: a.task}))
		if err := validate(Batch{Artifact: Artifact{Kind: a.kind, Task: a.task, Text: text}, Claims: a.claims}); err != nil {
			return res, fmt.Errorf("reindex %s: %s made an invalid claim: %w", a.hash[:12], c.Name(), err)
		}
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("reindex: %w", err)
		}
	}
	res.Artifacts = len(arts)

	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("reindex: begin: %w", err)
	}
	defer tx.Rollback()
	type claim struct {
		id                            int64
		text, kind, context, compiler string
		made                          bool
		was                           *claimRow // the row before, for the undo record; nil for a new claim
	}
	old := map[string]*claim{}
	rows, err = tx.QueryContext(ctx, `SELECT id, key, text, kind, context, compiler, created, status FROM claims`)
	if err != nil {
		return res, fmt.Errorf("reindex: %w", err)
	}
	for rows.Next() {
		w := &claimRow{}
		if err := rows.Scan(&w.ID, &w.Key, &w.Text, &w.Kind, &w.Context, &w.Compiler, &w.Created, &w.Status); err != nil {
			rows.Close()
			return res, fmt.Errorf("reindex: %w", err)
		}
		old[w.Key] = &claim{id: w.ID, text: w.Text, kind: w.Kind, context: w.Context, compiler: w.Compiler, was: w}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("reindex: %w", err)
	}
	st := map[string]*sql.Stmt{}
	for name, q := range map[string]string{
		"ftsDelete": `INSERT INTO claims_fts (claims_fts, rowid, text, context) VALUES ('delete', ?, ?, ?)`,
		"ftsInsert": `INSERT INTO claims_fts (rowid, text, context) VALUES (?, ?, ?)`,
		"update":    `UPDATE claims SET text = ?, kind = ?, context = ?, compiler = ? WHERE id = ?`,
		"insert":    `INSERT INTO claims (key, text, kind, compiler, created, context) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
		"evidence":  `INSERT INTO evidence (claim, artifact, start, "end") VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		"delete":    `DELETE FROM claims WHERE id = ?`,
	} {
		p, err := tx.PrepareContext(ctx, q)
		if err != nil {
			return res, fmt.Errorf("reindex: prepare: %w", err)
		}
		defer p.Close()
		st[name] = p
	}
	exec := func(name string, args ...any) error {
		_, err := st[name].ExecContext(ctx, args...)
		return err
	}
	// The evidence before, to record what changes of it.
	oldEvidence := map[evidenceRow]bool{}
	rows, err = tx.QueryContext(ctx, `SELECT claim, artifact, start, "end" FROM evidence`)
	if err != nil {
		return res, fmt.Errorf("reindex: %w", err)
	}
	for rows.Next() {
		var e evidenceRow
		if err := rows.Scan(&e.Claim, &e.Artifact, &e.Start, &e.End); err != nil {
			rows.Close()
			return res, fmt.Errorf("reindex: %w", err)
		}
		oldEvidence[e] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("reindex: %w", err)
	}
	newEvidence := map[evidenceRow]bool{}
	var rec undoRecord
	if _, err := tx.ExecContext(ctx, `DELETE FROM evidence`); err != nil {
		return res, fmt.Errorf("reindex: %w", err)
	}
	for _, a := range arts {
		for _, in := range a.claims {
			cl := old[in.Key]
			switch {
			case cl == nil:
				// New: created with the oldest artifact that makes it.
				cl = &claim{text: in.Text, kind: in.Kind, context: in.Context, compiler: in.Compiler, made: true}
				if err := st["insert"].QueryRowContext(ctx, in.Key, in.Text, in.Kind, in.Compiler, a.created, in.Context).Scan(&cl.id); err != nil {
					return res, fmt.Errorf("reindex: claim: %w", err)
				}
				if err := exec("ftsInsert", cl.id, in.Text, in.Context); err != nil {
					return res, fmt.Errorf("reindex: claim index: %w", err)
				}
				old[in.Key] = cl
				rec.Added.Claims = append(rec.Added.Claims, claimRow{ID: cl.id})
				res.Added++
			case !cl.made:
				cl.made = true
				if cl.text == in.Text && cl.kind == in.Kind && cl.context == in.Context && cl.compiler == in.Compiler {
					res.Unchanged++
					break
				}
				res.Updated++
				// Undo puts the row back as it was: out with the new one, in with the old.
				rec.Added.Claims = append(rec.Added.Claims, claimRow{ID: cl.id})
				rec.Removed.Claims = append(rec.Removed.Claims, *cl.was)
				if cl.text != in.Text || cl.context != in.Context {
					if err := exec("ftsDelete", cl.id, cl.text, cl.context); err != nil {
						return res, fmt.Errorf("reindex: claim index: %w", err)
					}
					if err := exec("ftsInsert", cl.id, in.Text, in.Context); err != nil {
						return res, fmt.Errorf("reindex: claim index: %w", err)
					}
				}
				if err := exec("update", in.Text, in.Kind, in.Context, in.Compiler, cl.id); err != nil {
					return res, fmt.Errorf("reindex: claim: %w", err)
				}
				cl.text, cl.kind, cl.context, cl.compiler = in.Text, in.Kind, in.Context, in.Compiler
			}
			for _, sp := range in.Spans {
				if err := exec("evidence", cl.id, a.id, sp.Start, sp.End); err != nil {
					return res, fmt.Errorf("reindex: evidence: %w", err)
				}
				newEvidence[evidenceRow{Claim: cl.id, Artifact: a.id, Start: sp.Start, End: sp.End}] = true
			}
		}
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("reindex: %w", err)
		}
	}
	var gone []hit
	goneIDs := map[int64]bool{}
	for _, cl := range old {
		if !cl.made {
			gone = append(gone, hit{id: cl.id})
			goneIDs[cl.id] = true
		}
	}
	// Supersessions must not name a deleted claim: lift them first, as removing rows does, and carry them to
	// the claims made from the same text once the deleted ones are gone.
	var carry [][]supersessionRow // for each lifted supersession, the rows that take its place
	if len(gone) > 0 {
		sups, err := supersessionsOf(ctx, tx, idList(gone))
		if err != nil {
			return res, fmt.Errorf("reindex: %w", err)
		}
		if _, err := removeRows(ctx, tx, delta{Supersessions: sups}); err != nil {
			return res, fmt.Errorf("reindex: %w", err)
		}
		rec.Removed.Supersessions = sups
		created := map[int64]int64{}
		for _, a := range arts {
			created[a.id] = a.created
		}
		carry = carried(sups, goneIDs, oldEvidence, newEvidence, created)
	}
	for _, cl := range old {
		if cl.made {
			continue
		}
		rec.Removed.Claims = append(rec.Removed.Claims, *cl.was)
		if err := exec("ftsDelete", cl.id, cl.text, cl.context); err != nil {
			return res, fmt.Errorf("reindex: claim index: %w", err)
		}
		if err := exec("delete", cl.id); err != nil {
			return res, fmt.Errorf("reindex: claim: %w", err)
		}
		res.Removed++
	}
	if len(carry) > 0 {
		// A claim has one successor: a supersession that stayed, or an earlier carried one, comes first.
		olds, err := column[int64](ctx, tx, `SELECT old FROM supersessions`)
		if err != nil {
			return res, fmt.Errorf("reindex: %w", err)
		}
		taken := map[int64]bool{}
		for _, o := range olds {
			taken[o] = true
		}
		for _, rows := range carry {
			stored := false
			for _, r := range rows {
				if taken[r.Old] {
					continue
				}
				taken[r.Old] = true
				if err := supersede(ctx, tx, r); err != nil {
					return res, fmt.Errorf("reindex: %w", err)
				}
				rec.Added.Supersessions = append(rec.Added.Supersessions, r)
				stored = true
			}
			if stored {
				res.Carried++
			}
		}
	}
	res.Lifted = len(rec.Removed.Supersessions) - res.Carried
	for e := range oldEvidence {
		if !newEvidence[e] {
			rec.Removed.Evidence = append(rec.Removed.Evidence, e)
		}
	}
	for e := range newEvidence {
		if !oldEvidence[e] {
			rec.Added.Evidence = append(rec.Added.Evidence, e)
		}
	}
	if !rec.Added.empty() || !rec.Removed.empty() {
		sortDelta(&rec.Added)
		sortDelta(&rec.Removed)
		if res.Record, err = record(ctx, tx, opReindex, 0, rec, now); err != nil {
			return res, fmt.Errorf("reindex: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return res, fmt.Errorf("reindex: commit: %w", cancelled(ctx, err))
	}
	return res, nil
}

// sortDelta puts d's claim and evidence rows in a fixed order, so that a record does not depend on map order.
func sortDelta(d *delta) {
	slices.SortFunc(d.Claims, func(a, b claimRow) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortFunc(d.Evidence, func(a, b evidenceRow) int {
		return cmp.Or(cmp.Compare(a.Claim, b.Claim), cmp.Compare(a.Artifact, b.Artifact), cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End))
	})
}

// supersessionsOf returns the supersessions made by or of the claims whose ids are the idList ids, by
// superseded claim.
func supersessionsOf(ctx context.Context, q querier, ids string) ([]supersessionRow, error) {
	rows, err := q.QueryContext(ctx, `SELECT old, new, created FROM supersessions WHERE old`+inIDs+` OR new`+inIDs+` ORDER BY old`, ids, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []supersessionRow
	for rows.Next() {
		var r supersessionRow
		if err := rows.Scan(&r.Old, &r.New, &r.Created); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// carried returns, for each of sups (each names a deleted claim, one of gone), the supersessions that take its
// place, none when it is to be lifted: a deleted claim stands for the claims now made from text its evidence overlapped, in before and after
// (the evidence rows before and after the reindex). A deleted superseded claim passes its supersession to
// every such claim, a deleted successor to the one that overlaps it most. A pair is left out when the older
// side is also stated in a note as new as the newer side's first (the newer note restates it) or when both
// sides are one claim; created is each artifact's creation time.
func carried(sups []supersessionRow, gone map[int64]bool, before, after map[evidenceRow]bool, created map[int64]int64) [][]supersessionRow {
	spans := map[int64][]evidenceRow{} // deleted claim -> its evidence before
	for e := range before {
		if gone[e.Claim] {
			spans[e.Claim] = append(spans[e.Claim], e)
		}
	}
	byArtifact := map[int64][]evidenceRow{}             // artifact -> evidence after
	first, last := map[int64]int64{}, map[int64]int64{} // claim -> its oldest and newest artifact's time, after
	for e := range after {
		byArtifact[e.Artifact] = append(byArtifact[e.Artifact], e)
		t := created[e.Artifact]
		if f, ok := first[e.Claim]; !ok || t < f {
			first[e.Claim] = t
		}
		if l, ok := last[e.Claim]; !ok || t > l {
			last[e.Claim] = t
		}
	}
	// successors lists the claims made from claim id's text, most overlap first, then by id; a claim that
	// stays stands for itself.
	successors := func(id int64) []int64 {
		if !gone[id] {
			return []int64{id}
		}
		overlap := map[int64]int{}
		for _, e := range spans[id] {
			for _, f := range byArtifact[e.Artifact] {
				if n := min(e.End, f.End) - max(e.Start, f.Start); n > 0 {
					overlap[f.Claim] += n
				}
			}
		}
		out := make([]int64, 0, len(overlap))
		for c := range overlap {
			out = append(out, c)
		}
		slices.SortFunc(out, func(a, b int64) int { return cmp.Or(cmp.Compare(overlap[b], overlap[a]), cmp.Compare(a, b)) })
		return out
	}
	out := make([][]supersessionRow, len(sups))
	for i, r := range sups {
		news := successors(r.New)
		if len(news) == 0 {
			continue
		}
		n := news[0]
		for _, o := range successors(r.Old) {
			if o != n && last[o] < first[n] {
				out[i] = append(out[i], supersessionRow{Old: o, New: n, Created: r.Created})
			}
		}
	}
	return out
}
