package recall

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// checkIntegrity fails t unless the database and the claim index are consistent: every claim indexed with
// its text, nothing else indexed.
func checkIntegrity(t *testing.T, s *Store) {
	t.Helper()
	var res string
	if err := s.db.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check: %s, %v", res, err)
	}
	if _, err := s.db.Exec(`INSERT INTO claims_fts (claims_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		t.Fatalf("claim index: %v", err)
	}
	if _, err := s.db.Exec(`INSERT INTO artifacts_fts (artifacts_fts) VALUES ('integrity-check')`); err != nil {
		t.Fatalf("artifact index: %v", err)
	}
	var bad int
	if err := s.db.QueryRow(`SELECT count(*) FROM claims c WHERE (c.status = 'superseded') != EXISTS (SELECT 1 FROM supersessions WHERE old = c.id)`).Scan(&bad); err != nil || bad != 0 {
		t.Fatalf("%d claims whose status disagrees with supersessions, %v", bad, err)
	}
	checkActiveIndex(t, s)
}

// checkActiveIndex fails t unless claims_active indexes exactly the active claims, each under its text.
func checkActiveIndex(t *testing.T, s *Store) {
	t.Helper()
	if _, err := s.db.Exec(`INSERT INTO claims_active (claims_active) VALUES ('integrity-check')`); err != nil {
		t.Fatalf("active claim index: %v", err)
	}
	var bad int
	err := s.db.QueryRow(`SELECT (SELECT count(*) FROM claims_active WHERE rowid NOT IN (SELECT id FROM claims WHERE status = 'active'))
		+ (SELECT count(*) FROM claims WHERE status = 'active' AND id NOT IN (SELECT rowid FROM claims_active))`).Scan(&bad)
	if err != nil || bad != 0 {
		t.Fatalf("%d rows differ between the active claims and their index, %v", bad, err)
	}
	// Each active claim is found by its own words, and no other claim by them.
	rows, err := s.db.Query(`SELECT id, text FROM claims WHERE status = 'active'`)
	if err != nil {
		t.Fatal(err)
	}
	type claim struct {
		id   int64
		text string
	}
	var active []claim
	for rows.Next() {
		var c claim
		if err := rows.Scan(&c.id, &c.text); err != nil {
			t.Fatal(err)
		}
		active = append(active, c)
	}
	rows.Close()
	for _, c := range active {
		terms := queryTerms(c.text)
		if len(terms) == 0 {
			continue
		}
		var found int
		var all []string
		for _, tm := range terms {
			all = append(all, tm.expr())
		}
		expr := "text : (" + strings.Join(all, " AND ") + ")"
		if err := s.db.QueryRow(`SELECT count(*) FROM claims_active WHERE claims_active MATCH ? AND rowid = ?`, expr, c.id).Scan(&found); err != nil || found != 1 {
			t.Fatalf("active claim %d (%q) is not indexed under its words: %d, %v", c.id, c.text, found, err)
		}
	}
}

// TestIntegrityAfterEachOperation runs applies, supersessions, forgets, undos, redos and an import, and checks
// the store after each step.
func TestIntegrityAfterEachOperation(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	steps := []func() error{
		func() error { remember(t, s, t0, "Sessions live in Redis", "The build uses Bazel"); return nil },
		func() error {
			a, c := note("s", "t", "Sessions live in Memcached", "The build uses Bazel")
			_, err := s.ApplyWith(ctx, a, c, t0, ApplyOptions{Supersede: SupersedeListed})
			return err
		},
		func() error { _, err := s.Forget(ctx, []string{"1"}, ForgetOptions{Now: t0}); return err },
		func() error { _, err := s.Undo(ctx); return err },
		func() error { _, err := s.Redo(ctx); return err },
		func() error { _, err := s.Undo(ctx); return err },
		func() error { _, err := s.Undo(ctx); return err },
		func() error { _, err := s.Undo(ctx); return err },
		func() error { _, err := s.Redo(ctx); return err },
		func() error { _, err := s.Redo(ctx); return err },
		func() error {
			hits, _ := s.RecallWith(ctx, "memcached", RecallOptions{})
			_, err := s.Forget(ctx, []string{hits.Claims[0].Evidence[0].Artifact[:6]}, ForgetOptions{Purge: true, Now: t0})
			return err
		},
		func() error { _, err := s.Undo(ctx); return err },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		checkIntegrity(t, s)
	}
}

// TestConcurrentForgetAndApply forgets and undoes on one Store while another applies to the same directory.
func TestConcurrentForgetAndApply(t *testing.T) {
	dir := t.TempDir() + "/store"
	s1, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	s2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	ctx := context.Background()
	target := remember(t, s1, t0, "A claim that comes and goes")
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 20 {
			a, c := note("s", "t", fmt.Sprintf("Applied claim %d", i))
			if _, err := s2.Apply(ctx, a, c, t0); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Go(func() {
		for range 5 {
			if _, err := s1.Forget(ctx, []string{target.Artifact}, ForgetOptions{Now: t0}); err != nil {
				t.Error(err)
				return
			}
			// Another Store's apply may be newest: undo whatever is, and apply the target again if it was not it.
			if u, err := s1.Undo(ctx); err != nil {
				t.Error(err)
				return
			} else if u.Op != opForget {
				t.Logf("undid %s", u.Op)
			}
			remember(t, s1, t0, "A claim that comes and goes")
		}
	})
	wg.Wait()
	checkIntegrity(t, s1)
}
