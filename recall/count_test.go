package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// countWords is the vocabulary of [countStore]'s claims: a few words common enough that a query for them
// matches most claims, and many rare ones.
var countWords = func() []string {
	var out []string
	for _, a := range []string{"ka", "lo", "mi", "ru", "te", "zo"} {
		for _, b := range []string{"ne", "vi", "so", "du", "ga", "fe", "ri"} {
			out = append(out, a+b+"ka")
		}
	}
	return append(out, "deploying", "deployed", "user_id", "userid", "straße", "München", "café")
}()

// countStore builds a store of 3,000 claims drawn from countWords, skewed so that the first words are
// common (more rows than [commonDF]), in two sessions and three tasks, with a ref on some notes, some claims
// superseded, two notes applied although flagged, and some claims rewritten in the index.
func countStore(t *testing.T) *Store {
	t.Helper()
	s := openTemp(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	ref := Ref{Key: "window", Value: "W1"}
	at := t0
	var batch []Batch
	for n := range 200 {
		var lines []string
		for range 15 {
			var w []string
			for range 4 + rng.IntN(6) {
				// The product skews the draw towards the first words.
				i := int(float64(len(countWords)) * rng.Float64() * rng.Float64())
				w = append(w, countWords[i])
			}
			lines = append(lines, strings.Join(w, " ")+fmt.Sprintf(" n%dx%d.", n, len(lines)))
		}
		a, c := note(fmt.Sprintf("s%d", n%2), fmt.Sprintf("t%d", n%3), lines...)
		a.Flagged = n == 5 || n == 170
		if n%4 == 0 {
			a.Refs = []Ref{ref}
		}
		batch = append(batch, Batch{Artifact: a, Claims: c})
		if len(batch) == 40 {
			at = at.Add(time.Minute)
			if _, err := s.ApplyBatch(ctx, batch, at); err != nil {
				t.Fatal(err)
			}
			batch = nil
		}
	}
	ids, err := column[int64](ctx, s.db, `SELECT id FROM claims ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(ids); i += 61 {
		at = at.Add(time.Minute)
		if _, err := s.Supersede(ctx, ids[i], ids[i+1], at); err != nil {
			t.Fatal(err)
		}
	}
	// Rewrite some claims as a reindex does, which leaves deleted entries in the index until it merges.
	tx, err := s.db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := 3; i < len(ids); i += 11 {
		var text, context string
		if err := tx.QueryRow(`SELECT text, context FROM claims WHERE id = ?`, ids[i]).Scan(&text, &context); err != nil {
			t.Fatal(err)
		}
		for _, st := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO claims_fts (claims_fts, rowid, text, context) VALUES ('delete', ?, ?, ?)`, []any{ids[i], text, context}},
			{`UPDATE claims SET text = ?, context = ? WHERE id = ?`, []any{"Rewritten " + text[len(text)/2:], "Kaneka notes", ids[i]}},
			{`INSERT INTO claims_fts (rowid, text, context) SELECT id, text, context FROM claims WHERE id = ?`, []any{ids[i]}},
		} {
			if _, err := tx.Exec(st.sql, st.args...); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return s
}

// countQueries are queries for countStore: common words alone and together, rare words, identifiers,
// stems, diacritics and a word no claim holds.
var countQueries = []string{
	"kaneka", "kaneka kavika", "kaneka lovika kasoka", "kaneka zorika", "zorika", "zorika zofeka", "deploy",
	"user_id", "userid", "strasse", "münchen", "cafe", "nothinghere", "kaneka nothinghere", "the kaneka",
}

// joinCount is what countRelevant must return: every match joined to its claim row and tested there.
func joinCount(t *testing.T, s *Store, opt ContextOptions) int {
	t.Helper()
	tbl := opt.claims()
	q := parseQuery(opt.Query)
	countSQL := `SELECT count(*) FROM claims_fts JOIN claims r ON r.id = claims_fts.rowid WHERE claims_fts MATCH ?3` + andWhere(tbl.where)
	if opt.Session != "" || opt.Task != "" {
		countSQL += ` AND claims_fts.rowid` + filterSQL
	}
	var n int
	if err := s.db.QueryRow(countSQL, opt.Session, opt.Task, matchExpr(q.terms)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCountRelevant checks the count of relevant claims that context blocks end with against the count of
// every match tested on its claim row, for each combination of filters.
func TestCountRelevant(t *testing.T) {
	s := countStore(t)
	ctx := context.Background()
	ref := Ref{Key: "window", Value: "W1"}
	var opts []ContextOptions
	for _, hist := range []bool{false, true} {
		for _, flagged := range []bool{false, true} {
			base := ContextOptions{History: hist, AllowFlagged: flagged}
			withSession, withTask, withRef := base, base, base
			withSession.Session, withTask.Task, withRef.Ref = "s1", "t2", &ref
			opts = append(opts, base, withSession, withTask, withRef)
		}
	}
	differs := 0 // queries whose count the filters change, so that the test shows they are applied
	for k, query := range countQueries {
		seen := map[int]bool{}
		for _, opt := range opts {
			if (opt.Session != "" || opt.Task != "" || opt.Ref != nil) && (k > 0 || testing.Short()) {
				// These take the join either way, and the join probes the index once per claim of the
				// session or task: one query shows that they are routed to it.
				continue
			}
			opt.Query = query
			want := joinCount(t, s, opt)
			seen[want] = true
			q := parseQuery(query)
			got, err := s.countRelevant(ctx, opt, opt.claims(), matchExpr(q.terms))
			if err != nil {
				t.Fatalf("%q %+v: %v", query, opt, err)
			}
			if got != want {
				t.Errorf("%q history=%v flagged=%v session=%q task=%q ref=%v: %d relevant, want %d",
					query, opt.History, opt.AllowFlagged, opt.Session, opt.Task, opt.Ref != nil, got, want)
			}
		}
		if len(seen) > 1 {
			differs++
		}
	}
	if differs < len(countQueries)/2 {
		t.Fatalf("filters change the count of only %d of %d queries: the store does not test them", differs, len(countQueries))
	}
}

// TestCountRows checks the rows countRows counts for each query term, through the index's vocabulary where
// the term is one index term, against count(*) over the term's MATCH.
func TestCountRows(t *testing.T) {
	s := countStore(t)
	ctx := context.Background()
	queries := slices.Clone(countQueries)
	for _, w := range countWords {
		queries = append(queries, w, strings.ToUpper(w), w+"s", w+"ing")
	}
	queries = append(queries, "deploys deployment", "Straße strasse STRASSE", "Cafe café CAFÉ", "n3x4 n17x2", "rewritten notes",
		"fetchUserProfile", "eu-west-1", "kaneka's", "a", "the of",
		// One word to the query parser, two to the index tokenizer: a spacing mark, a variation selector.
		"kaneka\u0903kavika", "kaneka\ufe0fkavika")
	byVocabulary := 0
	for _, query := range queries {
		q := parseQuery(query)
		which := make([]int, len(q.terms))
		for i := range which {
			which[i] = i
		}
		got := make([]int64, len(q.terms))
		if err := s.countRows(ctx, claimIndex, &q, which, got); err != nil {
			t.Fatalf("%q: %v", query, err)
		}
		for i, tm := range q.terms {
			var want int64
			if err := s.db.QueryRow(`SELECT count(*) FROM claims_fts WHERE claims_fts MATCH ?`, tm.expr()).Scan(&want); err != nil {
				t.Fatal(err)
			}
			if got[i] != want {
				t.Errorf("%q, term %q: %d rows, want %d", query, tm.expr(), got[i], want)
			}
		}
		conn, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		terms, err := indexTerms(ctx, conn, &q, which)
		conn.Close()
		if err != nil {
			t.Fatal(err)
		}
		byVocabulary += len(terms)
	}
	if byVocabulary < len(queries) {
		t.Fatalf("%d terms of %d queries counted through the vocabulary: the test does not test it", byVocabulary, len(queries))
	}
}

// TestCover checks the cover bits of ranked claims, which say which query terms each holds, against the
// index, for common and rare terms and for candidates both within a common term's newest rows and beyond.
func TestCover(t *testing.T) {
	s := countStore(t)
	ctx := context.Background()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM claims_fts WHERE claims_fts MATCH 'kaneka'`).Scan(&n); err != nil || n <= commonDF {
		t.Fatalf("kaneka is in %d claims (%v), want a common word", n, err)
	}
	checked := 0
	for _, query := range countQueries {
		q := parseQuery(query)
		holding := make([]map[int64]bool, len(q.terms)) // the rows that hold each term
		for ti, tm := range q.terms {
			ids, err := column[int64](ctx, s.db, `SELECT rowid FROM claims_fts WHERE claims_fts MATCH ?`, tm.expr())
			if err != nil {
				t.Fatal(err)
			}
			holding[ti] = map[int64]bool{}
			for _, id := range ids {
				holding[ti][id] = true
			}
		}
		for _, want := range []int{10, contextDepth} {
			for _, tbl := range []ftsTable{RecallOptions{}.claims(), ContextOptions{}.claims(), RecallOptions{History: true}.claims()} {
				q := parseQuery(query)
				top, _, err := s.rank(ctx, tbl, &q, want, allRows)
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range top {
					for ti, tm := range q.terms {
						holds := holding[ti][h.id] && q.weight[ti] > 0 // cover leaves out terms that do not count
						if got := h.cover&(1<<ti) != 0; got != holds {
							t.Fatalf("%q (want %d): claim %d holds %q: %v, cover says %v", query, want, h.id, tm.expr(), holds, got)
						}
						checked++
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d cover bits checked", checked)
	}
}
