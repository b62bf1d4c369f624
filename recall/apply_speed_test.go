package recall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"
)

// TestCandidatesAsPerClaimSearch checks the candidate search against the search it replaces, one full-text
// query per claim for the OR of its terms, newest [candidateSearch] first: on a store where a few words are
// shared by more active claims than one search returns, identifiers and diacritics included, both must
// list the same candidates in the same order, with the same provenance.
func TestCandidatesAsPerClaimSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a store of over a thousand claims")
	}
	s := openTemp(t)
	ctx := context.Background()
	var batches []Batch
	for i := range 700 {
		a, c := note("s", "t",
			fmt.Sprintf("Service svc listens on port %d.", 1000+i),
			fmt.Sprintf("The retry_limit of worker w%d is %d.", i%40, i%7),
			fmt.Sprintf("Café München deploys release v1.%d on Friday.", i%90))
		batches = append(batches, Batch{Artifact: a, Claims: c})
	}
	if _, err := s.ApplyBatch(ctx, batches, t0); err != nil {
		t.Fatal(err)
	}
	_, claims := note("s", "t",
		"Service svc listens on port 9999.",
		"The retry_limit of worker w3 is 12.",
		"Cafe Muenchen deploys release v1.5 on Monday.",
		"Nothing here shares a word with zebrafish.",
		"...",
		"Service svc listens on port 9999.")
	got, err := s.Candidates(ctx, claims)
	if err != nil {
		t.Fatal(err)
	}
	want := perClaimCandidates(t, s, claims)
	if len(got[0]) < candidateSearch/2 {
		t.Fatalf("the first claim has %d candidates: the store does not reach the search limit", len(got[0]))
	}
	for i := range claims {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("claim %q: %d candidates, want %d\ngot  %v\nwant %v", claims[i].Text, len(got[i]), len(want[i]), ids(got[i]), ids(want[i]))
		}
	}
}

func ids(list []Candidate) []int64 {
	var out []int64
	for _, c := range list {
		out = append(out, c.ClaimID)
	}
	return out
}

// perClaimCandidates is the candidate search as one query per claim did it.
func perClaimCandidates(t *testing.T, s *Store, claims []ClaimInput) [][]Candidate {
	t.Helper()
	ctx := context.Background()
	own := map[string]bool{}
	for _, c := range claims {
		own[c.Key] = true
	}
	out := make([][]Candidate, len(claims))
	for i, c := range claims {
		out[i] = []Candidate{}
		terms := queryTerms(c.Text)
		if len(terms) == 0 {
			continue
		}
		rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.key, c.text, c.kind, c.created
			FROM claims_active f JOIN claims c ON c.id = f.rowid
			WHERE claims_active MATCH ? AND c.status = 'active'
			ORDER BY f.rowid DESC LIMIT `+strconv.Itoa(candidateSearch), "text : ("+matchExpr(terms)+")")
		if err != nil {
			t.Fatal(err)
		}
		rule := newRuleText(c.Text)
		for rows.Next() {
			var cd Candidate
			var key string
			var created int64
			if err := rows.Scan(&cd.ClaimID, &key, &cd.Text, &cd.Kind, &created); err != nil {
				t.Fatal(err)
			}
			if own[key] || !rule.supersedes(cd.Text) {
				continue
			}
			cd.Created = time.Unix(0, created).UTC()
			out[i] = append(out[i], cd)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		for k := range out[i] {
			cd := &out[i][k]
			if err := s.db.QueryRowContext(ctx, `SELECT (SELECT a.hash FROM evidence e JOIN artifacts a ON a.id = e.artifact
					WHERE e.claim = ?1 ORDER BY a.created DESC, a.id DESC LIMIT 1),
				EXISTS (SELECT 1 FROM evidence fe JOIN artifacts fa ON fa.id = fe.artifact WHERE fe.claim = ?1 AND fa.flagged = 1)`,
				cd.ClaimID).Scan(&cd.Artifact, &cd.Flagged); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// TestLogKeptEmpty checks the log's life across Stores: a writable Store that closes leaves the log empty (and
// its index), every commit in the database file, so that a reader opens the database as immutable and the
// next writer reuses both files; Optimize leaves no log at all. An apply restores the connection's temporary
// storage to files, which Optimize's VACUUM needs for a large store.
func TestLogKeptEmpty(t *testing.T) {
	dir := t.TempDir() + "/store"
	ctx := context.Background()
	wal := filepath.Join(dir, dbName+"-wal")
	for i, text := range []string{"The log is kept between stores", "The log stays empty after close"} {
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		remember(t, s, t0.Add(time.Duration(i)*time.Hour), text)
		var store int
		if err := s.db.QueryRowContext(ctx, `PRAGMA temp_store`).Scan(&store); err != nil || store != 0 {
			t.Fatalf("temp_store after an apply = %d (%v), want 0 (the default)", store, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(wal)
		if err != nil || fi.Size() != 0 {
			t.Fatalf("after close %d: log %v, %v; want an empty file", i, fi, err)
		}
		r, err := OpenExisting(dir)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.Recall(ctx, "log", 5)
		if err != nil || len(res.Claims) != i+1 {
			t.Fatalf("recall after close %d: %d claims, %v; want %d", i, len(res.Claims), err, i+1)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Optimize(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{dbName + "-wal", dbName + "-shm"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("after Optimize and Close, %s: %v; want it gone", name, err)
		}
	}
}
