package recall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestApplyIdempotent(t *testing.T) {
	s := openTemp(t)
	a, c := note("s1", "t1", "Deploys go through the release train", "The release train leaves on Thursdays")
	r1, err := s.Apply(context.Background(), a, c, t0)
	if err != nil {
		t.Fatal(err)
	}
	if r1.ArtifactExisted || r1.NewClaims != 2 || r1.KnownClaims != 0 || r1.NewEvidence != 2 || r1.NoOp() {
		t.Fatalf("first apply = %+v", r1)
	}
	if r1.Artifact != hashBytes(a.Text) || len(r1.Artifact) != 64 || strings.ToLower(r1.Artifact) != r1.Artifact {
		t.Fatalf("artifact hash %q", r1.Artifact)
	}
	before := counts(t, s)
	r2, err := s.Apply(context.Background(), a, c, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if !r2.NoOp() || r2.KnownClaims != 2 || r2.Artifact != r1.Artifact {
		t.Fatalf("re-apply = %+v, want a no-op", r2)
	}
	if after := counts(t, s); after != before {
		t.Fatalf("re-apply changed the store: %s -> %s", before, after)
	}
}

func TestKnownClaimsGainEvidence(t *testing.T) {
	s := openTemp(t)
	remember(t, s, t0, "The cache TTL is 5 minutes")
	// A second note repeats the claim (same key) among new text.
	a, c := note("s2", "t9", "Checked again today", "The cache TTL is 5 minutes")
	r, err := s.Apply(context.Background(), a, c, t0.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if r.ArtifactExisted || r.NewClaims != 1 || r.KnownClaims != 1 || r.NewEvidence != 2 {
		t.Fatalf("apply = %+v, want 1 new claim, 1 known, 2 evidence", r)
	}
	rec, err := s.Recall(context.Background(), "cache ttl", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Claims) != 1 {
		t.Fatalf("claims = %q, want the one claim once", texts(rec.Claims))
	}
	ev := rec.Claims[0].Evidence
	if len(ev) != 2 || ev[0].Session != "s1" || ev[1].Session != "s2" || ev[1].Task != "t9" ||
		ev[1].Artifact != r.Artifact || !ev[1].Created.Equal(t0.Add(24*time.Hour)) {
		t.Fatalf("evidence = %+v", ev)
	}
	if got := string(a.Text[ev[1].Start:ev[1].End]); got != "The cache TTL is 5 minutes" {
		t.Errorf("evidence span reads %q", got)
	}
	if !rec.Claims[0].Created.Equal(t0) {
		t.Errorf("claim created %v, want first apply %v", rec.Claims[0].Created, t0)
	}
	known, err := s.Known(context.Background(), []string{"k:the cache ttl is 5 minutes", "k:nope"})
	if err != nil {
		t.Fatal(err)
	}
	if !known["k:the cache ttl is 5 minutes"] || known["k:nope"] || len(known) != 1 {
		t.Errorf("Known = %v", known)
	}
}

// TestApplyNeedsTheArtifactFile checks that an apply whose artifact file cannot be written commits nothing,
// although its rows go in while the file is being written.
func TestApplyNeedsTheArtifactFile(t *testing.T) {
	s := openTemp(t)
	remember(t, s, t0, "The first note is stored")
	before := counts(t, s)
	a, c := note("s1", "t1", "This note cannot get its artifact file")
	// A plain file where the artifact's directory must go: a failure that does not depend on permissions,
	// which root ignores.
	dir := filepath.Join(s.dir, filepath.Dir(casPath(hashBytes(a.Text))))
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(context.Background(), a, c, t0); err == nil || !strings.Contains(err.Error(), "store artifact") {
		t.Fatalf("apply without its artifact file = %v, want a store artifact error", err)
	}
	if after := counts(t, s); after != before {
		t.Errorf("the failed apply changed the store: %s -> %s", before, after)
	}
}

// TestApplyManyClaims applies more claims than one multi-row statement takes, with known claims and a key
// repeated within the note among them, and checks every count and every claim's evidence.
func TestApplyManyClaims(t *testing.T) {
	s := openTemp(t)
	line := func(i int) string { return fmt.Sprintf("Service %d listens on port %d", i, 8000+i) }
	var first []string
	for i := 0; i < 250; i += 2 {
		first = append(first, line(i))
	}
	remember(t, s, t0, first...)
	// 2.5 rows per statement's worth: 500 lines, half of them already stored, then one repeated.
	var lines []string
	for i := 0; i < rowsPerStatement*5/2; i++ {
		lines = append(lines, line(i))
	}
	lines = append(lines, line(1))
	a, c := note("s2", "t2", lines...)
	r, err := s.Apply(context.Background(), a, c, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	wantNew := len(lines) - 1 - len(first)
	if r.NewClaims != wantNew || r.KnownClaims != len(first)+1 || r.NewEvidence != len(lines) {
		t.Fatalf("apply = %+v, want %d new, %d known, %d evidence", r, wantNew, len(first)+1, len(lines))
	}
	if got, want := counts(t, s), fmt.Sprintf("artifacts=2 claims=%d evidence=%d claims_fts=%d artifacts_fts=2",
		len(lines)-1, len(first)+len(lines), len(lines)-1); got != want {
		t.Fatalf("store %s, want %s", got, want)
	}
	// Every claim's evidence in the second note is its own line.
	rows, err := s.db.Query(`SELECT c.text, e.start, e."end" FROM evidence e JOIN claims c ON c.id = e.claim
		JOIN artifacts a ON a.id = e.artifact WHERE a.hash = ?`, r.Artifact)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var text string
		var start, end int
		if err := rows.Scan(&text, &start, &end); err != nil {
			t.Fatal(err)
		}
		if got := string(a.Text[start:end]); got != text {
			t.Errorf("evidence [%d,%d) of %q reads %q", start, end, text, got)
		}
		n++
	}
	if n != len(lines) {
		t.Errorf("%d evidence rows for the second note, want %d", n, len(lines))
	}
	rec, err := s.Recall(context.Background(), "port 8499", 5)
	if err != nil || len(rec.Claims) == 0 || rec.Claims[0].Text != line(499) {
		t.Errorf("recall of the last claim = %q, %v", texts(rec.Claims), err)
	}
}

func TestApplyAllOrNothing(t *testing.T) {
	s := openTemp(t)
	remember(t, s, t0, "Existing claim about the scheduler")
	before := counts(t, s)
	a, c := note("s1", "t1", "A new claim", "Another new claim")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	bad := slices.Clone(c)
	bad[1].Spans = []Span{{5, 500}}
	mismatch := slices.Clone(c)
	mismatch[1].Text = "text that is not in the artifact"
	badKind := a
	badKind.Kind = "pending"
	foreignContext := slices.Clone(c)
	foreignContext[0].Context = "A new claim > a heading the artifact does not hold"
	tests := []struct {
		name   string
		ctx    context.Context
		a      Artifact
		claims []ClaimInput
	}{
		{"cancelled context", cancelled, a, c},
		{"span out of range", context.Background(), a, bad},
		{"text not at span", context.Background(), a, mismatch},
		{"bad kind", context.Background(), badKind, c},
		{"context not in the artifact", context.Background(), a, foreignContext},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.Apply(tt.ctx, tt.a, tt.claims, t0); err == nil {
				t.Fatal("Apply succeeded, want an error")
			}
			if after := counts(t, s); after != before {
				t.Fatalf("failed apply changed the store: %s -> %s", before, after)
			}
		})
	}
	// A failure inside the transaction, after rows were inserted: the second batch breaks a constraint.
	good, goodClaims := note("s1", "t1", "Batch claim one")
	broken, brokenClaims := note("s1", "t1", "Batch claim two")
	if _, err := s.db.Exec(`CREATE TRIGGER fail BEFORE INSERT ON claims WHEN NEW.text = 'Batch claim two'
		BEGIN SELECT RAISE(ABORT, 'injected'); END`); err != nil {
		t.Fatal(err)
	}
	_, err := s.ApplyBatch(context.Background(), []Batch{{good, goodClaims}, {broken, brokenClaims}}, t0)
	if err == nil || !strings.Contains(err.Error(), "injected") {
		t.Fatalf("ApplyBatch = %v, want the injected failure", err)
	}
	if after := counts(t, s); after != before {
		t.Fatalf("failed batch changed the store: %s -> %s", before, after)
	}
}

func TestConcurrentApply(t *testing.T) {
	dir := t.TempDir() + "/store"
	const handles, perHandle = 3, 3
	stores := make([]*Store, handles)
	for i := range stores {
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores[i] = s
	}
	// Every goroutine applies the same two notes, which share a claim.
	a1, c1 := note("s1", "t1", "Shared claim about migrations", "Only in note one")
	a2, c2 := note("s2", "t2", "Shared claim about migrations", "Only in note two")
	var wg sync.WaitGroup
	errs := make(chan error, handles*perHandle*2)
	for _, s := range stores {
		for range perHandle {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, n := range []struct {
					a Artifact
					c []ClaimInput
				}{{a1, c1}, {a2, c2}} {
					if _, err := s.Apply(context.Background(), n.a, n.c, t0); err != nil {
						errs <- err
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent apply: %v", err)
	}
	if got, want := counts(t, stores[0]), "artifacts=2 claims=3 evidence=4 claims_fts=3 artifacts_fts=2"; got != want {
		t.Fatalf("after concurrent applies: %s, want %s", got, want)
	}
}

func TestModes(t *testing.T) {
	// The temp directory first: made under umask 0 it would be open to writes by others, which Open refuses.
	dir := t.TempDir() + "/data/store"
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := remember(t, s, t0, "Modes are private")
	wantModes := map[string]fs.FileMode{
		dir:                       0o700 | fs.ModeDir,
		filepath.Join(dir, "cas"): 0o700 | fs.ModeDir,
		filepath.Join(dir, "cas", r.Artifact[:2]):             0o700 | fs.ModeDir,
		filepath.Join(dir, "cas", r.Artifact[:2], r.Artifact): 0o400,
		filepath.Join(dir, dbName):                            0o600,
		filepath.Join(dir, dbName+"-wal"):                     0o600,
		filepath.Join(dir, dbName+"-shm"):                     0o600,
	}
	for p, want := range wantModes {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if got := fi.Mode(); got != want {
			t.Errorf("%s: mode %v, want %v", p, got, want)
		}
	}
}

func TestArtifactBytes(t *testing.T) {
	s := openTemp(t)
	r := remember(t, s, t0, "Artifacts come back byte for byte")
	want := "Artifacts come back byte for byte\n"
	for _, p := range []string{r.Artifact, r.Artifact[:4], strings.ToUpper(r.Artifact[:10])} {
		h, data, err := s.ArtifactBytes(p)
		if err != nil || h != r.Artifact || string(data) != want {
			t.Errorf("ArtifactBytes(%q) = %q, %q, %v", p, h, data, err)
		}
	}
	for _, p := range []string{"abc", "xyzw", r.Artifact + "0", ""} {
		if _, _, err := s.ArtifactBytes(p); err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("ArtifactBytes(%q) = %v, want an invalid-prefix error", p, err)
		}
	}
	other := "0000"
	if r.Artifact[:4] == other {
		other = "ffff"
	}
	if _, _, err := s.ArtifactBytes(other); !errors.Is(err, ErrNotFound) {
		t.Errorf("ArtifactBytes(%q) = %v, want ErrNotFound", other, err)
	}

	// An ambiguous 4-character prefix, built directly in the index.
	if _, err := s.db.Exec(`INSERT INTO artifacts (hash, kind, source, session, task, created) VALUES (?, 'note', 'x', '', '', 0)`,
		r.Artifact[:4]+strings.Repeat("0", 60)); err != nil {
		t.Fatal(err)
	}
	var amb *AmbiguousError
	_, _, err := s.ArtifactBytes(r.Artifact[:4])
	if !errors.As(err, &amb) || !slices.Contains(amb.Candidates, r.Artifact) || len(amb.Candidates) != 2 ||
		!strings.Contains(err.Error(), r.Artifact) {
		t.Errorf("ArtifactBytes(4-char shared prefix) = %v, want AmbiguousError listing both", err)
	}

	// Verify on read: corrupt the file behind the store's back.
	path := filepath.Join(s.dir, "cas", r.Artifact[:2], r.Artifact)
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("Artifacts come back byte for bytE\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ArtifactBytes(r.Artifact); !errors.Is(err, ErrCorrupt) {
		t.Errorf("corrupt artifact read = %v, want ErrCorrupt", err)
	}
	// Applying the same text again repairs the file.
	remember(t, s, t0, "Artifacts come back byte for byte")
	if _, data, err := s.ArtifactBytes(r.Artifact); err != nil || string(data) != want {
		t.Errorf("after repair: %q, %v", data, err)
	}
}

func TestOpenExisting(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "store")
	if _, err := OpenExisting(dir); !errors.Is(err, ErrNoStore) {
		t.Fatalf("OpenExisting(missing) = %v, want ErrNoStore", err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenExisting(dir); !errors.Is(err, ErrNoStore) {
		t.Fatalf("OpenExisting(empty dir) = %v, want ErrNoStore", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("OpenExisting created %v", ents)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		t.Fatalf("OpenExisting created %v in the parent", ents)
	}

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	remember(t, s, t0, "Readers see committed claims")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Reading an existing store changes nothing in its directory, not even modification times.
	before := snapshot(t, dir)
	ro, err := OpenExisting(dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ro.Recall(context.Background(), "committed claims", 5)
	if err != nil || r.Presence != PresenceClaim {
		t.Fatalf("read-only recall = %+v, %v", r, err)
	}
	if k, err := ro.Known(context.Background(), []string{"k:readers see committed claims"}); err != nil || !k["k:readers see committed claims"] {
		t.Errorf("read-only Known = %v, %v", k, err)
	}
	a, c := note("s", "t", "Writes are refused")
	if _, err := ro.Apply(context.Background(), a, c, t0); !errors.Is(err, ErrReadOnly) {
		t.Errorf("read-only Apply = %v, want ErrReadOnly", err)
	}
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("read-only use changed the store:\n%s\nbecame\n%s", before, after)
	}

	// With a writer open (its log not yet in the database file), a reader sees the writer's commits.
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	remember(t, w, t0, "Written while the writer stays open")
	ro, err = OpenExisting(dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err = ro.Recall(context.Background(), "writer stays open", 5)
	if err != nil || r.Presence != PresenceClaim {
		t.Errorf("recall beside an open writer = %+v, %v", r, err)
	}
	ro.Close()
	w.Close()
}

// snapshot lists the files under dir with their sizes, modes and modification times.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d %d\n", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestMigrations(t *testing.T) {
	dir := t.TempDir() + "/store"
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	remember(t, s, t0, "Schema survives a reopen")
	v, err := schemaVersion(context.Background(), s.db)
	if err != nil || v != len(migrations) {
		t.Fatalf("user_version = %d, %v; want %d", v, err, len(migrations))
	}
	s.Close()
	s, err = Open(dir)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	if got := counts(t, s); got != "artifacts=1 claims=1 evidence=1 claims_fts=1 artifacts_fts=1" {
		t.Errorf("after reopen: %s", got)
	}
	// A store from a newer program is refused, not downgraded.
	if _, err := s.db.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Open(newer schema) = %v, want a refusal", err)
	}
	if _, err := OpenExisting(dir); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("OpenExisting(newer schema) = %v, want a refusal", err)
	}
}

func TestOpenRefusesOpenDir(t *testing.T) {
	dir := t.TempDir() + "/store"
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil {
		t.Error("Open of a 0755 directory succeeded")
	}
}

func TestCollectGarbage(t *testing.T) {
	s := openTemp(t)
	kept := remember(t, s, t0, "This artifact is referenced")
	// A failed apply leaves its file: the claim text is not in the artifact, so the rows never commit.
	a, c := note("s", "t", "Orphaned by a failed apply")
	c[0].Spans = []Span{{0, 3}}
	if _, err := s.Apply(context.Background(), a, c, t0); err == nil {
		t.Fatal("bad apply succeeded")
	}
	// Validation runs before any write, so force an orphan the way a crash between file and commit would.
	orphan := hashBytes(a.Text)
	if err := s.writeArtifact(orphan, a.Text); err != nil {
		t.Fatal(err)
	}
	orphanPath := filepath.Join(s.dir, "cas", orphan[:2], orphan)
	keptPath := filepath.Join(s.dir, "cas", kept.Artifact[:2], kept.Artifact)
	// A write cut short leaves a temp file beside a stored artifact.
	tempPath := filepath.Join(s.dir, "cas", kept.Artifact[:2], ".tmp-"+kept.Artifact+"-1")
	if err := os.WriteFile(tempPath, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	mtime := time.Now()
	if n, err := s.CollectGarbage(context.Background(), mtime, time.Hour); err != nil || n != 0 {
		t.Fatalf("CollectGarbage within grace = %d, %v; want 0", n, err)
	}
	n, err := s.CollectGarbage(context.Background(), mtime.Add(2*time.Hour), time.Hour)
	if err != nil || n != 2 {
		t.Fatalf("CollectGarbage = %d, %v; want 2", n, err)
	}
	for _, p := range []string{orphanPath, tempPath} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s still there: %v", filepath.Base(p), err)
		}
	}
	if _, err := os.Stat(keptPath); err != nil {
		t.Errorf("referenced artifact removed: %v", err)
	}
}

// TestOpenRefusesSharedDir checks that neither Open nor OpenExisting uses a store directory that others could
// read or that a symlink redirects; the checks read modes, since root may open anything.
func TestOpenRefusesSharedDir(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "store")
	if ok, err := Exists(dir); ok || err != nil {
		t.Fatalf("Exists before Open = %v, %v; want false", ok, err)
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	remember(t, s, t0, "Stores are private")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if ok, err := Exists(dir); !ok || err != nil {
		t.Fatalf("Exists after Open = %v, %v; want true", ok, err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{{dir, "open to group or others"}, {link, "is a symlink"}} {
		if s, err := Open(c.dir); err == nil || !strings.Contains(err.Error(), c.want) {
			if s != nil {
				s.Close()
			}
			t.Errorf("Open(%s) = %v, want an error saying %q", c.dir, err, c.want)
		}
		if s, err := OpenExisting(c.dir); err == nil || !strings.Contains(err.Error(), c.want) {
			if s != nil {
				s.Close()
			}
			t.Errorf("OpenExisting(%s) = %v, want an error saying %q", c.dir, err, c.want)
		}
	}
}

// TestOptimize checks that Optimize leaves every answer as it was, full-text indexes intact, and a file with no
// free pages and no more pages than before.
func TestOptimize(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	words := []string{"deploy", "branch", "cache", "index", "review", "tokens", "quartz", "zebrafish"}
	// One apply per note, as users apply them: many small full-text segments, pages spread over the file.
	for i := range 120 {
		remember(t, s, t0.Add(time.Duration(i)*time.Minute),
			fmt.Sprintf("Decided: the %s %s stays at version %d.", words[i%len(words)], words[(i/3)%len(words)], i),
			fmt.Sprintf("Next: check the %s before release %d.", words[(i/5)%len(words)], i))
	}
	pragma := func(name string) int {
		var n int
		if err := s.db.QueryRowContext(ctx, `PRAGMA `+name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	type answers struct {
		Recall []RecallResult
		Search [][]ArtifactHit
		Counts string
	}
	snapshot := func() answers {
		var a answers
		for _, q := range []string{"deploy branch", "quartz", "zebrafish review tokens", "version 7", "nothing here"} {
			r, err := s.Recall(ctx, q, 20)
			if err != nil {
				t.Fatal(err)
			}
			a.Recall = append(a.Recall, r)
			hits, _, err := s.Search(ctx, q, 20)
			if err != nil {
				t.Fatal(err)
			}
			a.Search = append(a.Search, hits)
		}
		a.Counts = counts(t, s)
		return a
	}
	before, pages := snapshot(), pragma("page_count")
	if err := s.Optimize(ctx); err != nil {
		t.Fatal(err)
	}
	// The rewrite is in the database file itself, not waiting in the log.
	if got, err := s.FileSize(); err != nil || got != int64(pragma("page_count")*pragma("page_size")) {
		t.Errorf("file size after Optimize = %d, %v; the pages say %d", got, err, pragma("page_count")*pragma("page_size"))
	}
	if after := snapshot(); !reflect.DeepEqual(before, after) {
		t.Errorf("answers changed:\nbefore %+v\nafter  %+v", before, after)
	}
	for _, tbl := range []string{"claims_fts", "artifacts_fts"} {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO `+tbl+` (`+tbl+`) VALUES ('integrity-check')`); err != nil {
			t.Errorf("%s after Optimize: %v", tbl, err)
		}
	}
	if got := pragma("freelist_count"); got != 0 {
		t.Errorf("%d free pages after Optimize", got)
	}
	if got := pragma("page_count"); got > pages {
		t.Errorf("%d pages after Optimize, %d before", got, pages)
	}
	// The store still takes writes, and a read-only one refuses to optimize.
	remember(t, s, t0.Add(time.Hour*24), "Decided: optimize weekly.")
	ro, err := OpenExisting(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := ro.Optimize(ctx); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Optimize on a read-only store: %v, want ErrReadOnly", err)
	}
}

func TestStats(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	st, err := s.Stats(ctx)
	if err != nil || st.Artifacts != 0 || st.Claims != 0 || !st.LastApply.IsZero() || st.Bytes == 0 {
		t.Fatalf("empty store: %+v, %v", st, err)
	}
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	if _, err := s.Apply(ctx, Artifact{Kind: "note", Source: "remember", Text: []byte("We deploy from main.")},
		[]ClaimInput{{Key: "k1", Text: "We deploy from main.", Kind: "fact", Compiler: "rules/1", Spans: []Span{{0, 20}}}}, at); err != nil {
		t.Fatal(err)
	}
	st, err = s.Stats(ctx)
	if err != nil || st.Artifacts != 1 || st.Claims != 1 || !st.LastApply.Equal(at) {
		t.Fatalf("after one apply: %+v, %v; want 1 artifact, 1 claim, last apply %v", st, err, at)
	}
}
