package recall

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// Filters. Recall and context build show current claims only: a superseded claim is history, shown when
// asked for with its superseded_by. A claim with evidence in an artifact that was applied although the secret
// scan flagged it is flagged; recall shows it marked, and context build leaves it out unless allowed and says
// how many it left out. A ref filter keeps the claims with evidence in an artifact that carries the ref, and
// the artifacts that carry it.

// activeClaims is the condition on a claim row r that it is current, not superseded.
const activeClaims = `r.status = 'active'`

// unflaggedClaims is the condition on a claim row r that none of its evidence is in a flagged artifact. The
// set of flagged claims is built once per statement (the subquery does not depend on r), from the few flagged
// artifacts, rather than probed for every row that matches.
const unflaggedClaims = `r.id NOT IN (SELECT fe.claim FROM artifacts fa JOIN evidence fe ON fe.artifact = fa.id WHERE fa.flagged = 1)`

// claimHasRef is the condition on a claim row r that an artifact with its evidence carries ref.
func claimHasRef(ref Ref) string {
	return `r.id IN (SELECT re.claim FROM evidence re JOIN refs rf ON rf.artifact = re.artifact
		WHERE rf.key = ` + sqlString(ref.Key) + ` AND rf.value = ` + sqlString(ref.Value) + `)`
}

// artifactHasRef is the condition on an artifact row r that it carries ref.
func artifactHasRef(ref Ref) string {
	return `r.id IN (SELECT artifact FROM refs WHERE key = ` + sqlString(ref.Key) + ` AND value = ` + sqlString(ref.Value) + `)`
}

// and joins SQL conditions, skipping empty ones.
func and(conds ...string) string {
	out := ""
	for _, c := range conds {
		if c == "" {
			continue
		}
		if out != "" {
			out += " AND "
		}
		out += "(" + c + ")"
	}
	return out
}

// andWhere renders cond to follow another condition: " AND (cond)", or "" for none.
func andWhere(cond string) string {
	if cond == "" {
		return ""
	}
	return " AND " + cond
}

// RecallOptions controls [Store.RecallWith].
type RecallOptions struct {
	Limit   int  // at most this many results; [DefaultLimit] for zero or less
	History bool // include superseded claims (their SupersededBy is set)
	Ref     *Ref // only claims with evidence in, and artifacts, that carry this ref
}

func (o RecallOptions) claims() ftsTable {
	t := claimIndex
	t.where = ""
	if !o.History {
		t.where = activeClaims
	}
	if o.Ref != nil {
		t.where = and(t.where, claimHasRef(*o.Ref))
	}
	return t
}

func (o RecallOptions) artifacts() ftsTable {
	t := artifactIndex
	if o.Ref != nil {
		t.where = and(t.where, artifactHasRef(*o.Ref))
	}
	return t
}

// annotate sets the SupersededBy, Flagged and Refs of claims, whose ids are the idList ids.
func (s *Store) annotate(ctx context.Context, claims []ClaimHit, ids string) error {
	idx := make(map[int64]int, len(claims))
	for i, c := range claims {
		idx[c.ID] = i
	}
	rows, err := s.query(ctx, `SELECT c.id, coalesce((SELECT new FROM supersessions WHERE old = c.id), 0),
		EXISTS (SELECT 1 FROM evidence e JOIN artifacts a ON a.id = e.artifact WHERE e.claim = c.id AND a.flagged = 1)
		FROM claims c WHERE c.id`+inIDs, ids)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, by int64
		var flagged bool
		if err := rows.Scan(&id, &by, &flagged); err != nil {
			return err
		}
		c := &claims[idx[id]]
		c.SupersededBy, c.Flagged = by, flagged
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	refs, err := s.query(ctx, `SELECT DISTINCT e.claim, f.key, f.value FROM evidence e JOIN refs f ON f.artifact = e.artifact
		WHERE e.claim`+inIDs+` ORDER BY e.claim, f.key, f.value`, ids)
	if err != nil {
		return err
	}
	defer refs.Close()
	for refs.Next() {
		var id int64
		var r Ref
		if err := refs.Scan(&id, &r.Key, &r.Value); err != nil {
			return err
		}
		c := &claims[idx[id]]
		c.Refs = append(c.Refs, r)
	}
	return refs.Err()
}

// ArtifactRefs returns the refs the artifact with the given full hash carries, sorted.
func (s *Store) ArtifactRefs(ctx context.Context, hash string) ([]Ref, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT f.key, f.value FROM refs f JOIN artifacts a ON a.id = f.artifact
		WHERE a.hash = ? ORDER BY f.key, f.value`, hash)
	if err != nil {
		return nil, fmt.Errorf("artifact refs: %w", err)
	}
	defer rows.Close()
	out := []Ref{}
	for rows.Next() {
		var r Ref
		if err := rows.Scan(&r.Key, &r.Value); err != nil {
			return nil, fmt.Errorf("artifact refs: %w", err)
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Ref) int {
		if a.Key != b.Key {
			return cmpStr(a.Key, b.Key)
		}
		return cmpStr(a.Value, b.Value)
	})
	return out, rows.Err()
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// claims is the claim index as opt filters it.
func (opt ContextOptions) claims() ftsTable {
	t := RecallOptions{History: opt.History, Ref: opt.Ref}.claims()
	if !opt.AllowFlagged {
		t.where = and(t.where, unflaggedClaims)
	}
	return t
}

// flaggedLeftOut counts the claims that opt's block would hold as relevant if flagged claims were allowed.
func (s *Store) flaggedLeftOut(ctx context.Context, opt ContextOptions) (int, error) {
	// Most stores hold no flagged artifact: then nothing is left out, and no count need read every match.
	var some bool
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM artifacts WHERE flagged = 1)`).Scan(&some); err != nil {
		return 0, fmt.Errorf("context: count flagged claims: %w", err)
	}
	if !some {
		return 0, nil
	}
	all := opt
	all.AllowFlagged = true
	t := all.claims()
	where := and(t.where, `NOT (`+unflaggedClaims+`)`)
	if opt.Session != "" || opt.Task != "" {
		where = and(where, `r.id`+filterSQL)
	}
	var n int
	var err error
	if q := parseQuery(opt.Query); len(q.terms) > 0 {
		err = s.db.QueryRowContext(ctx, `SELECT count(*) FROM claims_fts JOIN claims r ON r.id = claims_fts.rowid
			WHERE claims_fts MATCH ?3 AND `+where, opt.Session, opt.Task, matchExpr(q.terms)).Scan(&n)
	} else {
		err = s.db.QueryRowContext(ctx, `SELECT count(*) FROM claims r WHERE `+where, opt.Session, opt.Task).Scan(&n)
	}
	if err != nil {
		return 0, fmt.Errorf("context: count flagged claims: %w", err)
	}
	return n, nil
}

// cmpOr returns a unless it is empty, else b.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// flagArtifacts sets the Flagged and Superseded marks of hits.
func (s *Store) flagArtifacts(ctx context.Context, hits []ArtifactHit) error {
	if len(hits) == 0 {
		return nil
	}
	hashes := make([]string, len(hits))
	for i, h := range hits {
		hashes[i] = h.Artifact
	}
	list, err := json.Marshal(hashes)
	if err != nil {
		return err
	}
	// One query for both marks: superseded when the artifact supports claims and every one is superseded.
	rows, err := s.db.QueryContext(ctx, `SELECT a.hash, a.flagged,
		EXISTS (SELECT 1 FROM evidence e WHERE e.artifact = a.id)
		AND NOT EXISTS (SELECT 1 FROM evidence e JOIN claims c ON c.id = e.claim WHERE e.artifact = a.id AND c.status != 'superseded')
		FROM artifacts a WHERE a.hash IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return fmt.Errorf("load artifact marks: %w", err)
	}
	defer rows.Close()
	type marks struct{ flagged, superseded bool }
	byHash := make(map[string]marks, len(hits))
	for rows.Next() {
		var h string
		var m marks
		if err := rows.Scan(&h, &m.flagged, &m.superseded); err != nil {
			return fmt.Errorf("load artifact marks: %w", err)
		}
		byHash[h] = m
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load artifact marks: %w", err)
	}
	for i := range hits {
		m := byHash[hits[i].Artifact]
		hits[i].Flagged, hits[i].Superseded = m.flagged, m.superseded
	}
	return nil
}
