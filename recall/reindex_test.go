package recall

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memoree/memoree/compiler"
)

// rules1 stands in for the compiler stores were filled with before rules/2: a claim per line, label and
// all, no context.
type rules1 struct{}

func (rules1) Name() string { return "rules/1" }

func (rules1) Compile(text string, _ compiler.Source) compiler.Result {
	r := compiler.Result{Compiler: "rules/1"}
	off := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		line := strings.TrimSpace(l)
		if line != "" {
			start := off + strings.Index(l, line)
			r.Claims = append(r.Claims, compiler.Claim{Key: compiler.Key(line), Text: line, Kind: compiler.Fact,
				Spans: []compiler.Span{{Start: start, End: start + len(line)}}})
		}
		off += len(l)
	}
	return r
}

func TestReindex(t *testing.T) {
	s := openTemp(t)
	notes := []string{
		"Priya (3 March 2026): We adopted a beagle last week! His name is Biscuit.\nTomasz: Congratulations!\n",
		"## Ledger\n- reconciliation runs nightly at 02:00 UTC\n- We adopted a beagle last week!\n",
	}
	var hashes []string
	for i, text := range notes {
		r := rules1{}.Compile(text, compiler.Source{})
		res, err := s.Apply(context.Background(), Artifact{Kind: "note", Source: "remember", Text: []byte(text)}, ClaimsOf(r), t0.Add(time.Duration(i)*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, res.Artifact)
	}
	// Claims of rules/1 work before the reindex.
	r, err := s.Recall(context.Background(), "reconciliation nightly", 5)
	if err != nil || len(r.Claims) == 0 || r.Claims[0].Text != "- reconciliation runs nightly at 02:00 UTC" {
		t.Fatalf("before reindex: %q, %v", texts(r.Claims), err)
	}

	got, err := s.Reindex(context.Background(), compiler.Rules)
	if err != nil {
		t.Fatal(err)
	}
	// rules/1 made 5 claims: the two speaker lines, "## Ledger" and the two items. rules/2 makes "We
	// adopted…" (in both notes), "His name is Biscuit.", and "reconciliation runs…"; none has the old keys.
	want := ReindexResult{Compiler: "rules/2", Artifacts: 2, Added: 3, Removed: 5}
	if got != want {
		t.Errorf("Reindex = %+v, want %+v", got, want)
	}
	if got := counts(t, s); got != "artifacts=2 claims=3 evidence=4 claims_fts=3 artifacts_fts=2" {
		t.Errorf("after reindex: %s", got)
	}
	r, err = s.Recall(context.Background(), "Priya beagle", 5)
	if err != nil || len(r.Claims) == 0 {
		t.Fatalf("after reindex: %v, %v", r, err)
	}
	c := r.Claims[0]
	if c.Text != "We adopted a beagle last week!" || c.Context != "Priya (3 March 2026)" || r.Presence != PresenceClaim {
		t.Errorf("first claim %q context %q presence %s", c.Text, c.Context, r.Presence)
	}
	// The claim is made by both notes: its evidence names both, exactly, and it is as old as the first.
	if len(c.Evidence) != 2 || !c.Created.Equal(t0) {
		t.Fatalf("evidence %+v, created %v", c.Evidence, c.Created)
	}
	for i, e := range c.Evidence {
		data, err := s.readArtifact(e.Artifact)
		if err != nil || e.Artifact != hashes[i] || string(data[e.Start:e.End]) != c.Text {
			t.Errorf("evidence %d: %+v (%v)", i, e, err)
		}
	}

	// Again: nothing changes.
	before := counts(t, s)
	got, err = s.Reindex(context.Background(), compiler.Rules)
	if err != nil {
		t.Fatal(err)
	}
	if want := (ReindexResult{Compiler: "rules/2", Artifacts: 2, Unchanged: 3}); got != want || got.Changed() {
		t.Errorf("second Reindex = %+v, want %+v", got, want)
	}
	if after := counts(t, s); after != before {
		t.Errorf("second reindex changed the store: %s -> %s", before, after)
	}
	// The index agrees with the table.
	if _, err := s.db.Exec(`INSERT INTO claims_fts (claims_fts) VALUES ('integrity-check')`); err != nil {
		t.Errorf("claims_fts integrity: %v", err)
	}
}

func TestReindexReadOnly(t *testing.T) {
	dir := t.TempDir() + "/store"
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	remember(t, s, t0, "A claim to keep")
	s.Close()
	ro, err := OpenExisting(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Reindex(context.Background(), compiler.Rules); err == nil {
		t.Error("Reindex on a read-only store succeeded")
	}
}

// TestMigrateClaimContext opens a store made with schema version 1 and checks that its claims are
// searchable after the migration that adds claim context.
func TestMigrateClaimContext(t *testing.T) {
	dir := t.TempDir() + "/store"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: filepath.Join(dir, dbName)}).EscapedPath())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(migrations[0] + `PRAGMA user_version = 1;
		INSERT INTO artifacts VALUES (1, 'ab', 'note', 'remember', '', '', 0);
		INSERT INTO claims (id, key, text, kind, compiler, created) VALUES (1, 'k', 'Backups run nightly at 02:00', 'fact', 'rules/1', 0);
		INSERT INTO claims_fts (rowid, text) VALUES (1, 'Backups run nightly at 02:00');
		INSERT INTO evidence VALUES (1, 1, 0, 28);`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := schemaVersion(context.Background(), s.db); v != len(migrations) {
		t.Fatalf("version %d after migrating, want %d", v, len(migrations))
	}
	r, err := s.Recall(context.Background(), "nightly backups", 5)
	if err != nil || len(r.Claims) != 1 || r.Claims[0].Context != "" {
		t.Fatalf("Recall after migration = %+v, %v", r, err)
	}
}
