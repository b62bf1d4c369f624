package recall

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUndoRedoApply(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	empty := counts(t, s)
	if _, err := s.Undo(ctx); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("undo of nothing: %v", err)
	}
	a := remember(t, s, t0, "Claim x is here", "Claim y is shared")
	afterA := counts(t, s)
	b := remember(t, s, t0.Add(1), "Claim y is shared", "Claim z is new")
	afterB := counts(t, s)
	if b.NewClaims != 1 || b.KnownClaims != 1 || b.Record == 0 || b.Record == a.Record {
		t.Fatalf("apply b: %+v", b)
	}
	// While an apply is done its record names rows by id: the text is stored once, in the store.
	var holds int
	var rec string
	if err := s.db.QueryRow(`SELECT holds_text, record FROM undo_log WHERE id = ?`, b.Record).Scan(&holds, &rec); err != nil {
		t.Fatal(err)
	}
	if holds != 0 || strings.Contains(rec, "Claim z") {
		t.Fatalf("apply record holds text: %d %s", holds, rec)
	}
	// Applying b again changes nothing and records nothing.
	if again := remember(t, s, t0.Add(2), "Claim y is shared", "Claim z is new"); !again.NoOp() || again.Record != 0 {
		t.Fatalf("no-op apply: %+v", again)
	}
	u, err := s.Undo(ctx)
	if err != nil || u.Record != b.Record || u.Claims != 1 || u.Artifacts != 1 || u.Evidence != 2 {
		t.Fatalf("undo b: %+v, %v", u, err)
	}
	if got := counts(t, s); got != afterA {
		t.Fatalf("after undo of b: %s, want %s", got, afterA)
	}
	if _, err := os.Stat(filepath.Join(s.dir, casPath(b.Artifact))); !os.IsNotExist(err) {
		t.Fatalf("b's artifact file remains: %v", err)
	}
	if _, err := s.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if got := counts(t, s); got != empty {
		t.Fatalf("after undo of a: %s, want %s", got, empty)
	}
	if r, _ := s.Recall(ctx, "claim", 10); len(r.Claims) != 0 {
		t.Fatalf("recall after undoing everything: %q", texts(r.Claims))
	}
	for _, want := range []string{afterA, afterB} {
		if _, err := s.Redo(ctx); err != nil {
			t.Fatal(err)
		}
		if got := counts(t, s); got != want {
			t.Fatalf("after redo: %s, want %s", got, want)
		}
	}
	if _, err := s.Redo(ctx); !errors.Is(err, ErrNothingToRedo) {
		t.Fatalf("redo of nothing: %v", err)
	}
	if _, _, err := s.ArtifactBytes(b.Artifact); err != nil {
		t.Fatalf("redo did not restore the artifact file: %v", err)
	}
	// A new operation discards what waits for a redo.
	if _, err := s.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	w := remember(t, s, t0.Add(3), "Claim w is newer")
	if _, err := s.Redo(ctx); !errors.Is(err, ErrNothingToRedo) {
		t.Fatalf("redo after a new apply: %v", err)
	}
	// The new operation takes a number of its own, not the discarded record's: the journal names records by it.
	if w.Record <= b.Record {
		t.Fatalf("new apply got record %d after record %d was discarded", w.Record, b.Record)
	}
	hist, err := s.UndoHistory(ctx)
	if err != nil || len(hist) != 2 || hist[0].Op != opApply || hist[0].Undone {
		t.Fatalf("history %+v, %v", hist, err)
	}
}

// TestUndoBatch: one ApplyBatch is one operation.
func TestUndoBatch(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	empty := counts(t, s)
	a1, c1 := note("s1", "t1", "First batch claim")
	a2, c2 := note("s1", "t1", "Second batch claim", "First batch claim")
	res, err := s.ApplyBatch(ctx, []Batch{{a1, c1}, {a2, c2}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Record == 0 || res[0].Record != res[1].Record {
		t.Fatalf("records %d %d", res[0].Record, res[1].Record)
	}
	if _, err := s.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if got := counts(t, s); got != empty {
		t.Fatalf("after undo: %s, want %s", got, empty)
	}
}

// TestUndoKeepsContext: a claim's context survives a forget that is undone and an apply that is undone and
// redone, in the row and in the index (a query that only its context answers still finds it).
func TestUndoKeepsContext(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a, c := note("s1", "t1", "Billing service handoff", "The retries stop after five attempts")
	c[1].Context = "Billing service handoff"
	r, err := s.Apply(ctx, a, c, t0)
	if err != nil {
		t.Fatal(err)
	}
	found := func(step string) {
		t.Helper()
		got, err := s.Recall(ctx, "billing retries", 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range got.Claims {
			if h.Text == c[1].Text {
				if h.Context != c[1].Context {
					t.Fatalf("%s: context %q, want %q", step, h.Context, c[1].Context)
				}
				return
			}
		}
		t.Fatalf("%s: %q not recalled: %q", step, c[1].Text, texts(got.Claims))
	}
	found("apply")
	if _, err := s.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Redo(ctx); err != nil {
		t.Fatal(err)
	}
	found("redo of the apply")
	if _, err := s.Forget(ctx, []string{"artifact:" + r.Artifact[:12]}, ForgetOptions{Now: t0.Add(1)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	found("undo of the forget")
	if _, err := s.db.Exec(`INSERT INTO claims_fts (claims_fts) VALUES ('integrity-check')`); err != nil {
		t.Errorf("claims_fts integrity: %v", err)
	}
}
