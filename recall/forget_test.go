package recall

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// bytesUnder reports the files under dir whose bytes contain word.
func bytesUnder(t *testing.T, dir, word string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(bytes.ToLower(data), []byte(strings.ToLower(word))) {
			found = append(found, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestForgetLeavesNoByte applies notes holding a unique word among others, forgets the artifact with purge,
// and reads every byte of every file under the store directory, with the store still open and after Close.
func TestForgetLeavesNoByte(t *testing.T) {
	dir := t.TempDir() + "/store"
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// No suffix for the stemmer to cut, so the index holds the word as it is.
	const word = "Qzxvkwbtq7"
	// Enough other claims that the index has several segments and pages.
	for i := range 30 {
		remember(t, s, t0, "Background claim number "+strings.Repeat("x", i)+" about deploys", "Another filler line "+strings.Repeat("y", i))
	}
	sa, sc := note("s1", "t1", "The token is "+word+" for staging", "Sessions live in Redis")
	sa.Flagged = true // applied although flagged, as by mistake
	secret, err := s.Apply(ctx, sa, sc, t0.Add(1))
	if err != nil {
		t.Fatal(err)
	}
	remember(t, s, t0.Add(2), "More claims after the secret one")
	if got := bytesUnder(t, dir, word); len(got) == 0 {
		t.Fatal("the word is not in the store before forget: the test would prove nothing")
	}
	plan, err := s.Forget(ctx, []string{secret.Artifact[:8]}, ForgetOptions{DryRun: true, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Artifacts) != 1 || len(plan.Claims) != 2 || plan.Record != 0 || !plan.Artifacts[0].Flagged ||
		!plan.Claims[0].Flagged || !plan.Claims[1].Flagged {
		t.Fatalf("dry run: %+v", plan)
	}
	if len(bytesUnder(t, dir, word)) == 0 {
		t.Fatal("dry run removed something")
	}
	res, err := s.Forget(ctx, []string{secret.Artifact[:8]}, ForgetOptions{Purge: true, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Purged || res.Record != 0 || len(res.Claims) != 2 {
		t.Fatalf("forget: %+v", res)
	}
	if got := bytesUnder(t, dir, word); len(got) > 0 {
		t.Fatalf("forgotten word still in %v", got)
	}
	if r, _ := s.Recall(ctx, word, 10); r.Presence != PresenceNone || len(r.Claims) > 0 {
		t.Errorf("recall still finds it: %+v", r)
	}
	if hits, _, _ := s.Search(ctx, word, 10); len(hits) > 0 {
		t.Errorf("search still finds it: %+v", hits)
	}
	if r, _ := s.Recall(ctx, "filler line", 10); len(r.Claims) == 0 {
		t.Error("forget took the other claims too")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := bytesUnder(t, dir, word); len(got) > 0 {
		t.Fatalf("forgotten word in %v after Close", got)
	}
}

// TestForgetUndo forgets a claim without purge, undoes and redoes the forget.
func TestForgetUndo(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	r := remember(t, s, t0, "Sessions live in Redis", "The cache is warm")
	before := counts(t, s)
	hit, _ := s.Recall(ctx, "redis", 1)
	id := hit.Claims[0].ID
	res, err := s.Forget(ctx, []string{"claim:" + itoa(id)}, ForgetOptions{Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Claims) != 1 || len(res.Artifacts) != 0 || res.Record == 0 || len(res.StillIn) != 1 || res.StillIn[0] != r.Artifact {
		t.Fatalf("forget: %+v", res)
	}
	if got, _ := s.Recall(ctx, "redis", 1); len(got.Claims) != 0 {
		t.Fatal("claim still recalled")
	}
	u, err := s.Undo(ctx)
	if err != nil || u.Op != opForget || u.Claims != 1 {
		t.Fatalf("undo: %+v %v", u, err)
	}
	if after := counts(t, s); after != before {
		t.Fatalf("undo of forget: %s, want %s", after, before)
	}
	if got, _ := s.Recall(ctx, "redis", 1); len(got.Claims) != 1 || got.Claims[0].ID != id {
		t.Fatalf("undo did not restore the claim: %+v", got)
	}
	if _, err := s.Redo(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Recall(ctx, "redis", 1); len(got.Claims) != 0 {
		t.Fatal("redo did not forget again")
	}
	// The artifact stays: a forgotten claim may remain in its artifact's text.
	if _, _, err := s.ArtifactBytes(r.Artifact[:8]); err != nil {
		t.Fatal(err)
	}
}

func TestForgetTargets(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	remember(t, s, t0, "One claim here")
	for _, tc := range []struct {
		target string
		want   error
	}{
		{"999", ErrNoClaim},
		{"claim:999", ErrNoClaim},
		{"claim:x", ErrTarget},
		{"deadbeef", ErrNotFound},
		{"artifact:zz", ErrTarget},
		{"nonsense!", ErrTarget},
		{"thing:1", ErrTarget},
	} {
		_, err := s.Forget(ctx, []string{tc.target}, ForgetOptions{DryRun: true})
		if !errors.Is(err, tc.want) {
			t.Errorf("%q: %v, want %v", tc.target, err, tc.want)
		}
	}
	// Nothing is removed unless every target resolves.
	before := counts(t, s)
	if _, err := s.Forget(ctx, []string{"1", "999"}, ForgetOptions{}); !errors.Is(err, ErrNoClaim) {
		t.Fatal(err)
	}
	if after := counts(t, s); after != before {
		t.Fatalf("failed forget changed the store: %s -> %s", before, after)
	}
}

// TestPurgeDropsHeldText: a forget without purge keeps the text in its undo record, and a later purge deletes
// every record that holds text.
func TestPurgeDropsHeldText(t *testing.T) {
	dir := t.TempDir() + "/store"
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	const word = "Qzxvkwbtq7"
	a := remember(t, s, t0, "The token is "+word)
	other := remember(t, s, t0, "Unrelated claim to purge")
	if _, err := s.Forget(ctx, []string{a.Artifact}, ForgetOptions{Now: t0}); err != nil {
		t.Fatal(err)
	}
	if len(bytesUnder(t, dir, word)) == 0 {
		t.Fatal("a forget without purge kept no copy: undo could not restore it")
	}
	if _, err := s.Forget(ctx, []string{other.Artifact}, ForgetOptions{Purge: true, Now: t0}); err != nil {
		t.Fatal(err)
	}
	if got := bytesUnder(t, dir, word); len(got) > 0 {
		t.Fatalf("purge left the held text in %v", got)
	}
	// Both forgets are gone from the history: the purge kept no record, and the other held text.
	if _, err := s.Undo(ctx); err == nil {
		hist, _ := s.UndoHistory(ctx)
		for _, h := range hist {
			if h.Op == opForget {
				t.Fatalf("a forget is still undoable after a purge: %+v", hist)
			}
		}
	}
}

// TestForgetClearsContext: a claim that stays because another artifact supports it loses the context that
// only the forgotten artifact held, so no byte of that artifact's text remains; undo puts it back.
func TestForgetClearsContext(t *testing.T) {
	dir := t.TempDir() + "/store"
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	const word = "Qzxvkwbtq7"
	claim := func(start int, context string) ClaimInput {
		return ClaimInput{Key: "k:shared", Text: "The shared claim stays", Kind: "fact", Compiler: "test/1", Context: context,
			Spans: []Span{{start, start + len("The shared claim stays")}}}
	}
	first := []byte("Project " + word + "\nThe shared claim stays\n")
	a, err := s.Apply(ctx, Artifact{Kind: "note", Source: "remember", Text: first},
		[]ClaimInput{claim(len("Project "+word+"\n"), "Project "+word)}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, Artifact{Kind: "note", Source: "remember", Text: []byte("The shared claim stays\n")},
		[]ClaimInput{claim(0, "")}, t0.Add(1)); err != nil {
		t.Fatal(err)
	}
	context := func() string {
		t.Helper()
		var c string
		if err := s.db.QueryRow(`SELECT context FROM claims`).Scan(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	res, err := s.Forget(ctx, []string{a.Artifact[:8]}, ForgetOptions{Now: t0.Add(2)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Claims) != 0 || len(res.ClearedContext) != 1 || context() != "" {
		t.Fatalf("forget = %+v, context %q", res, context())
	}
	if _, err := s.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if got := context(); got != "Project "+word {
		t.Errorf("after undo: context %q", got)
	}
	if _, err := s.Redo(ctx); err != nil {
		t.Fatal(err)
	}
	if got := context(); got != "" {
		t.Errorf("after redo: context %q", got)
	}
	if _, err := s.db.Exec(`INSERT INTO claims_fts (claims_fts) VALUES ('integrity-check')`); err != nil {
		t.Errorf("claims_fts integrity: %v", err)
	}
	// Forgotten for good: only the undo record held the text, and a purge keeps none.
	if _, err := s.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Forget(ctx, []string{a.Artifact[:8]}, ForgetOptions{Purge: true, Now: t0.Add(3)}); err != nil {
		t.Fatal(err)
	}
	if got := bytesUnder(t, dir, word); len(got) != 0 {
		t.Errorf("the forgotten artifact's text remains in %v", got)
	}
}

// TestFinishScrubAfterCrash checks the recovery of a forget that committed and died before it removed the
// artifact file and scrubbed the database: the next writable Open finishes both, and no byte of the text is
// left.
func TestFinishScrubAfterCrash(t *testing.T) {
	dir := t.TempDir() + "/store"
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const word = "Vqkzmwtx9"
	for i := range 10 {
		remember(t, s, t0, "Background claim number "+strings.Repeat("x", i)+" about deploys")
	}
	sa, sc := note("s1", "t1", "The token is "+word+" for staging")
	secret, err := s.Apply(ctx, sa, sc, t0.Add(1))
	if err != nil {
		t.Fatal(err)
	}
	// What Forget does up to its commit, then nothing: the process died there.
	if _, err := s.db.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		t.Fatal(err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.forgetPlan(ctx, tx, []string{secret.Artifact[:8]})
	if err != nil {
		t.Fatal(err)
	}
	files, err := removeRows(ctx, tx, p.d)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.root.Write(scrubMarker, []byte(strings.Join(files, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := bytesUnder(t, dir, word); len(got) == 0 {
		t.Fatal("the word is gone before recovery: the test would prove nothing")
	}
	s2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	s.db.Close()
	if got := bytesUnder(t, dir, word); len(got) > 0 {
		t.Fatalf("after recovery the word is still in %v", got)
	}
	if _, err := os.Stat(dir + "/" + scrubMarker); !os.IsNotExist(err) {
		t.Fatalf("the scrub marker is still there: %v", err)
	}
}

// TestForgetInterrupted: a forget cancelled once its change may be committing either did not happen (the
// error is the cancel and everything is still there) or happened whole (no error, nothing left, no scrub
// pending): an interrupt never reports as undone a forget that was done.
func TestForgetInterrupted(t *testing.T) {
	for i := range 8 {
		s := openTemp(t)
		r := remember(t, s, t0, "The zanzibarquokka service listens on port 7001", "Backups run nightly")
		ctx := &cancelOnFile{Context: context.Background(), path: filepath.Join(s.root.Path(), scrubMarker), done: make(chan struct{})}
		go ctx.watch(time.Duration(i) * 50 * time.Microsecond)
		_, err := s.Forget(ctx, []string{r.Artifact}, ForgetOptions{Now: t0, Purge: i%2 == 0})
		ctx.stop()
		var n int
		if qerr := s.db.QueryRow(`SELECT count(*) FROM artifacts`).Scan(&n); qerr != nil {
			t.Fatal(qerr)
		}
		_, pending := os.Stat(filepath.Join(s.root.Path(), scrubMarker))
		switch {
		case errors.Is(err, context.Canceled):
			if n != 1 {
				t.Errorf("run %d: the forget reported the cancel but removed the artifact", i)
			}
		case err != nil:
			t.Fatalf("run %d: %v", i, err)
		default:
			if n != 0 || pending == nil {
				t.Errorf("run %d: the forget succeeded but left %d artifact(s), scrub pending %v", i, n, pending == nil)
			}
		}
	}
}

// cancelOnFile is a context that is cancelled once the file at path exists: here the scrub marker, which a
// forget writes right before its commit.
type cancelOnFile struct {
	context.Context
	path     string
	done     chan struct{}
	once     sync.Once
	quit     atomic.Bool
	canceled atomic.Bool
}

func (c *cancelOnFile) watch(after time.Duration) {
	for !c.quit.Load() {
		if _, err := os.Stat(c.path); err == nil {
			time.Sleep(after)
			c.canceled.Store(true)
			c.once.Do(func() { close(c.done) })
			return
		}
		time.Sleep(20 * time.Microsecond)
	}
}

func (c *cancelOnFile) stop() { c.quit.Store(true) }

func (c *cancelOnFile) Done() <-chan struct{} { return c.done }

func (c *cancelOnFile) Err() error {
	if c.canceled.Load() {
		return context.Canceled
	}
	return nil
}
