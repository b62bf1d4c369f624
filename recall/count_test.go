package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
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

// countStore builds a store of a few hundred claims drawn from countWords, skewed so that the first words
// are common, in two sessions and tasks, with a ref on some notes, some claims superseded and two notes
// applied although flagged.
func countStore(t *testing.T) *Store {
	t.Helper()
	s := openTemp(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	ref := Ref{Key: "window", Value: "W1"}
	at := t0
	for n := range 24 {
		var lines []string
		for range 15 {
			var w []string
			for range 4 + rng.IntN(6) {
				// The square skews the draw towards the first words.
				i := int(float64(len(countWords)) * rng.Float64() * rng.Float64())
				w = append(w, countWords[i])
			}
			lines = append(lines, strings.Join(w, " ")+fmt.Sprintf(" n%dx%d.", n, len(lines)))
		}
		a, c := note(fmt.Sprintf("s%d", n%2), fmt.Sprintf("t%d", n%3), lines...)
		a.Flagged = n == 5 || n == 17
		if n%4 == 0 {
			a.Refs = []Ref{ref}
		}
		at = at.Add(time.Minute)
		if _, err := s.Apply(ctx, a, c, at); err != nil {
			t.Fatal(err)
		}
	}
	ids, err := column[int64](ctx, s.db, `SELECT id FROM claims ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(ids); i += 7 {
		at = at.Add(time.Minute)
		if _, err := s.Supersede(ctx, ids[i], ids[i+1], at); err != nil {
			t.Fatal(err)
		}
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
	for _, query := range countQueries {
		seen := map[int]bool{}
		for _, opt := range opts {
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
