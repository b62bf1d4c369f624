package recall

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
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

// applyRules1 applies text as a note with the claims rules1 makes of it.
func applyRules1(t *testing.T, s *Store, at time.Time, text string, opt ApplyOptions) {
	t.Helper()
	r := rules1{}.Compile(text, compiler.Source{})
	if _, err := s.ApplyWith(context.Background(), Artifact{Kind: "note", Source: "remember", Text: []byte(text)}, ClaimsOf(r), at, opt); err != nil {
		t.Fatal(err)
	}
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

	got, err := s.Reindex(context.Background(), compiler.Rules, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got.Record == 0 {
		t.Error("the reindex recorded no undo record")
	}
	got.Record = 0
	// rules/1 made 5 claims: the two speaker lines, "## Ledger" and the two items. rules/5 makes "We
	// adopted…" (in both notes), "His name is Biscuit.", and "reconciliation runs…"; none has the old keys.
	want := ReindexResult{Compiler: "rules/5", Artifacts: 2, Added: 3, Removed: 5}
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
	got, err = s.Reindex(context.Background(), compiler.Rules, t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if want := (ReindexResult{Compiler: "rules/5", Artifacts: 2, Unchanged: 3}); got != want || got.Changed() {
		t.Errorf("second Reindex = %+v, want %+v", got, want)
	}
	if after := counts(t, s); after != before {
		t.Errorf("second reindex changed the store: %s -> %s", before, after)
	}
	// The index agrees with the table.
	if _, err := s.db.Exec(`INSERT INTO claims_fts (claims_fts) VALUES ('integrity-check')`); err != nil {
		t.Errorf("claims_fts integrity: %v", err)
	}
	checkActiveIndex(t, s)
}

// TestReindexUndo: a reindex is one undoable operation. Undo puts back every claim as it was (text,
// context, kind, compiler, status), the evidence and the supersessions it lifted; redo makes the reindex
// again, and each state is exactly the one before.
func TestReindexUndo(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	apply := func(at time.Time, text string, opt ApplyOptions) { applyRules1(t, s, at, text, opt) }
	apply(t0, "Sessions live in Redis\nTomasz: Congratulations!\n", ApplyOptions{})
	ids, err := column[int64](ctx, s.db, `SELECT id FROM claims ORDER BY id`)
	if err != nil || len(ids) != 2 {
		t.Fatalf("claims %v, %v", ids, err)
	}
	// Both old claims superseded: one stays through the reindex, the other (the speaker line) does not.
	apply(t0.Add(time.Hour), "Sessions live in Memcached\n", ApplyOptions{Supersede: SupersedeIDs, IDs: ids})
	state := func() string {
		t.Helper()
		var b strings.Builder
		for _, q := range []string{
			`SELECT id, key, text, context, kind, compiler, created, status FROM claims ORDER BY id`,
			`SELECT claim, artifact, start, "end", '', '', '', '' FROM evidence ORDER BY claim, artifact, start`,
			`SELECT old, new, created, '', '', '', '', '' FROM supersessions ORDER BY old`,
		} {
			rows, err := s.db.Query(q)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				v := make([]any, 8)
				for i := range v {
					v[i] = new(any)
				}
				if err := rows.Scan(v...); err != nil {
					t.Fatal(err)
				}
				for _, x := range v {
					fmt.Fprintf(&b, "%v|", *x.(*any))
				}
				b.WriteString("\n")
			}
			rows.Close()
		}
		if _, err := s.db.Exec(`INSERT INTO claims_fts (claims_fts) VALUES ('integrity-check')`); err != nil {
			t.Errorf("claims_fts integrity: %v", err)
		}
		return b.String() + counts(t, s)
	}
	before := state()
	got, err := s.Reindex(ctx, compiler.Rules, t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got.Record == 0 || got.Removed == 0 || got.Updated == 0 || got.Lifted != 1 {
		t.Fatalf("Reindex = %+v: want removed and updated claims, one supersession lifted, a record", got)
	}
	after := state()
	if after == before {
		t.Fatal("the reindex changed nothing")
	}
	for i, want := range []string{before, after, before, after} {
		var err error
		if i%2 == 0 {
			var u UndoResult
			u, err = s.Undo(ctx)
			if err == nil && (u.Op != opReindex || u.Record != got.Record) {
				t.Fatalf("undo %d: %+v, want the reindex", i, u)
			}
		} else {
			_, err = s.Redo(ctx)
		}
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if now := state(); now != want {
			t.Fatalf("step %d: store is\n%s\nwant\n%s", i, now, want)
		}
	}
	// The superseded claim that stayed is history after the redo, as after the reindex.
	r, err := s.Recall(ctx, "sessions Redis", 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Claims {
		if strings.Contains(c.Text, "Redis") {
			t.Errorf("superseded claim recalled: %q", c.Text)
		}
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
	if _, err := ro.Reindex(context.Background(), compiler.Rules, t0); err == nil {
		t.Error("Reindex on a read-only store succeeded")
	}
}

// TestMigrateClaimContext opens a store made with schema version 1 and checks that its claims are
// searchable after the migration that adds claim context.
func TestMigrateClaimContext(t *testing.T) {
	dir := oldStore(t, version1Store)
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
	// The later migrations ran too, in order: the old artifact is not flagged, has no refs, and a new note
	// can supersede the old claim and be undone.
	if r.Claims[0].Flagged || len(r.Claims[0].Refs) != 0 || r.Claims[0].SupersededBy != 0 {
		t.Errorf("migrated claim %+v", r.Claims[0])
	}
	a, c := note("s", "t", "Backups run hourly at :05")
	res, err := s.ApplyWith(context.Background(), a, c, t0, ApplyOptions{Supersede: SupersedeIDs, IDs: []int64{1}})
	if err != nil || len(res.Superseded) != 1 || res.Superseded[0].Old != 1 {
		t.Fatalf("ApplyWith after migration = %+v, %v", res, err)
	}
	if _, err := s.Undo(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := counts(t, s); got != "artifacts=1 claims=1 evidence=1 claims_fts=1 artifacts_fts=0" {
		t.Errorf("after undo: %s", got)
	}
}

// TestMigrationOrder pins the order of the migrations: main's claim context is version 2, the memory tables
// (flagged and refs, supersessions, the undo log) follow as 3 to 5, the active claim index as 6 and the undo
// record counter as 7, so that a store at any version upgrades through one sequence.
func TestMigrationOrder(t *testing.T) {
	if len(migrations) != 7 || !strings.Contains(migrations[1], "ADD COLUMN context") ||
		migrations[2] != migrationFlaggedRefs || migrations[3] != migrationSupersessions || migrations[4] != migrationUndo ||
		migrations[5] != migrationActiveIndex || migrations[6] != migrationUndoNumbers {
		t.Fatal("migrations are not in the order claim context, flagged/refs, supersessions, undo log, active index, undo numbers")
	}
	// A store at version 2 (claim context only) upgrades to the newest version.
	dir := oldStore(t, migrations[0]+migrations[1]+`PRAGMA user_version = 2;`)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := schemaVersion(context.Background(), s.db); v != len(migrations) {
		t.Fatalf("version %d after migrating, want %d", v, len(migrations))
	}
	for _, tbl := range []string{"refs", "supersessions", "undo_log", "claims_active", "counters"} {
		if _, err := s.db.Exec(`SELECT count(*) FROM ` + tbl); err != nil {
			t.Errorf("table %s: %v", tbl, err)
		}
	}
}

// TestActiveIndexMigration: a store from before the active claim index gets one that holds its active
// claims and not its superseded ones, and the search for supersession candidates uses it.
func TestActiveIndexMigration(t *testing.T) {
	dir := oldStore(t, strings.Join(migrations[:5], "")+`PRAGMA user_version = 5;
		INSERT INTO artifacts (id, hash, kind, source, session, task, created) VALUES (1, 'ab', 'note', 'remember', '', '', 0);
		INSERT INTO claims (id, key, text, kind, compiler, created, status) VALUES
			(1, 'k1', 'Sessions live in Redis', 'fact', 'rules/3', 0, 'superseded'),
			(2, 'k2', 'Sessions live in Memcached', 'fact', 'rules/3', 1, 'active'),
			(3, 'k3', 'The build uses Bazel', 'fact', 'rules/3', 2, 'active');
		INSERT INTO claims_fts (claims_fts) VALUES ('rebuild');
		INSERT INTO supersessions VALUES (1, 2, 1);
		INSERT INTO evidence VALUES (1, 1, 0, 1), (2, 1, 0, 1), (3, 1, 0, 1);`)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkIntegrity(t, s)
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM claims_active`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("claims_active holds %d rows, %v; want the 2 active claims", n, err)
	}
	cands, err := s.Candidates(context.Background(), []ClaimInput{{Key: "new", Text: "Sessions now live in Valkey"}})
	if err != nil || len(cands[0]) != 1 || cands[0][0].ClaimID != 2 {
		t.Fatalf("Candidates = %+v, %v; want claim 2 alone (claim 1 is superseded)", cands, err)
	}
}

// TestOpenExistingMigrates: a store of an older schema (version 1, before claim context) can be read: the
// read-only open migrates it first, where reading it as it is would fail on the columns and tables it lacks.
func TestOpenExistingMigrates(t *testing.T) {
	dir := oldStore(t, version1Store)
	s, err := OpenExisting(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := schemaVersion(context.Background(), s.db); v != len(migrations) || !s.readOnly {
		t.Fatalf("version %d (read-only %v), want %d", v, s.readOnly, len(migrations))
	}
	r, err := s.Recall(context.Background(), "nightly backups", 5)
	if err != nil || len(r.Claims) != 1 {
		t.Fatalf("Recall = %+v, %v", r, err)
	}
}

// version1Store is a store of schema version 1, before claim context: one artifact and one claim of rules/1.
var version1Store = migrations[0] + `PRAGMA user_version = 1;
	INSERT INTO artifacts VALUES (1, 'ab', 'note', 'remember', '', '', 0);
	INSERT INTO claims (id, key, text, kind, compiler, created) VALUES (1, 'k', 'Backups run nightly at 02:00', 'fact', 'rules/1', 0);
	INSERT INTO claims_fts (rowid, text) VALUES (1, 'Backups run nightly at 02:00');
	INSERT INTO evidence VALUES (1, 1, 0, 28);`

// oldStore creates a store directory whose database is what the SQL script makes of it, as an older version
// of memoree would have left it, and returns the directory.
func oldStore(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir() + "/store"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: filepath.Join(dir, dbName)}).EscapedPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(script); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestUndoNumbersMigration: a store from before the record counter continues its numbers after the highest
// record it holds, and a record undone and discarded there does not give its number to the next operation.
func TestUndoNumbersMigration(t *testing.T) {
	dir := oldStore(t, strings.Join(migrations[:6], "")+`PRAGMA user_version = 6;
		INSERT INTO undo_log (id, grp, op, created, state, record) VALUES
			(4, 4, 'apply', 0, 'done', '{"added":{},"removed":{}}'),
			(5, 5, 'apply', 1, 'undone', '{"added":{},"removed":{}}');`)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := remember(t, s, t0, "The counter continues after five")
	if r.Record != 6 {
		t.Fatalf("first record after migrating: %d, want 6", r.Record)
	}
}

// TestReindexCarriesSupersession: when a new compiler makes a claim from the text of a superseded claim, or
// of its successor, under another key, the supersession passes to the claims made from that text: the fact
// a newer note replaced stays history, and the newer one stays current. Undo puts the old pair back.
func TestReindexCarriesSupersession(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	apply := func(at time.Time, text string, opt ApplyOptions) { applyRules1(t, s, at, text, opt) }
	apply(t0, "Priya (3 March 2026): The staging database runs Postgres 14.\n", ApplyOptions{})
	ids, err := column[int64](ctx, s.db, `SELECT id FROM claims`)
	if err != nil || len(ids) != 1 {
		t.Fatalf("claims %v, %v", ids, err)
	}
	apply(t0.Add(time.Hour), "Priya (9 March 2026): The staging database runs Postgres 16.\n", ApplyOptions{Supersede: SupersedeIDs, IDs: ids})
	current := func() []string {
		t.Helper()
		r, err := s.Recall(ctx, "staging database postgres", 5)
		if err != nil {
			t.Fatal(err)
		}
		return texts(r.Claims)
	}
	before := current()
	if len(before) != 1 || !strings.Contains(before[0], "Postgres 16") {
		t.Fatalf("before the reindex: %q", before)
	}
	got, err := s.Reindex(ctx, compiler.Rules, t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	// Both claims lose their speaker label to their context: new keys, the supersession carried.
	if got.Added != 2 || got.Removed != 2 || got.Carried != 1 || got.Lifted != 0 {
		t.Fatalf("Reindex = %+v, want 2 added, 2 removed, 1 carried", got)
	}
	if after := current(); len(after) != 1 || after[0] != "The staging database runs Postgres 16." {
		t.Fatalf("after the reindex: %q, want only the newer claim", after)
	}
	var old, newer string
	if err := s.db.QueryRow(`SELECT o.text, n.text FROM supersessions JOIN claims o ON o.id = old JOIN claims n ON n.id = new`).Scan(&old, &newer); err != nil ||
		!strings.Contains(old, "14") || !strings.Contains(newer, "16") {
		t.Fatalf("supersession %q -> %q (%v)", old, newer, err)
	}
	if _, err := s.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if again := current(); !slices.Equal(again, before) {
		t.Fatalf("after undo: %q, want %q", again, before)
	}
	checkActiveIndex(t, s)
}

func TestCarried(t *testing.T) {
	ev := func(claim, artifact int64, start, end int) evidenceRow {
		return evidenceRow{Claim: claim, Artifact: artifact, Start: start, End: end}
	}
	set := func(rows ...evidenceRow) map[evidenceRow]bool {
		m := map[evidenceRow]bool{}
		for _, r := range rows {
			m[r] = true
		}
		return m
	}
	created := map[int64]int64{1: 10, 2: 20, 3: 30}
	for _, tc := range []struct {
		name          string
		sups          []supersessionRow
		gone          []int64
		before, after map[evidenceRow]bool
		want          []supersessionRow
	}{{
		name:   "both sides deleted, one claim each in their place",
		sups:   []supersessionRow{{Old: 1, New: 2, Created: 5}},
		gone:   []int64{1, 2},
		before: set(ev(1, 1, 0, 40), ev(2, 2, 0, 40)),
		after:  set(ev(11, 1, 22, 40), ev(12, 2, 22, 40)),
		want:   []supersessionRow{{Old: 11, New: 12, Created: 5}},
	}, {
		name:   "a deleted superseded claim split in two: both superseded",
		sups:   []supersessionRow{{Old: 1, New: 2}},
		gone:   []int64{1},
		before: set(ev(1, 1, 0, 40), ev(2, 2, 0, 10)),
		after:  set(ev(11, 1, 0, 20), ev(13, 1, 21, 40), ev(2, 2, 0, 10)),
		want:   []supersessionRow{{Old: 11, New: 2}, {Old: 13, New: 2}},
	}, {
		name:   "a deleted successor split in two: the one overlapping most",
		sups:   []supersessionRow{{Old: 1, New: 2}},
		gone:   []int64{2},
		before: set(ev(1, 1, 0, 10), ev(2, 2, 0, 40)),
		after:  set(ev(1, 1, 0, 10), ev(12, 2, 0, 10), ev(14, 2, 12, 40)),
		want:   []supersessionRow{{Old: 1, New: 14}},
	}, {
		name:   "no claim made from the successor's text: lifted",
		sups:   []supersessionRow{{Old: 1, New: 2}},
		gone:   []int64{2},
		before: set(ev(1, 1, 0, 10), ev(2, 2, 0, 40)),
		after:  set(ev(1, 1, 0, 10)),
	}, {
		name:   "the older side now also made from the newer note: not superseded",
		sups:   []supersessionRow{{Old: 1, New: 2}},
		gone:   []int64{1},
		before: set(ev(1, 1, 0, 40), ev(2, 2, 0, 10)),
		after:  set(ev(11, 1, 5, 40), ev(11, 2, 12, 47), ev(2, 2, 0, 10)),
	}, {
		name:   "both sides now one claim",
		sups:   []supersessionRow{{Old: 1, New: 2}},
		gone:   []int64{1, 2},
		before: set(ev(1, 1, 0, 40), ev(2, 2, 0, 40)),
		after:  set(ev(11, 1, 5, 40), ev(11, 2, 5, 40)),
	}} {
		gone := map[int64]bool{}
		for _, g := range tc.gone {
			gone[g] = true
		}
		var got []supersessionRow
		for _, rows := range carried(tc.sups, gone, tc.before, tc.after, created) {
			got = append(got, rows...)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: carried %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestReindexCarriesSplitClaim: a superseded claim that a new compiler makes into two passes its one
// supersession to both, and the reindex counts one supersession carried and none lifted.
func TestReindexCarriesSplitClaim(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	applyRules1(t, s, t0, "Priya (3 March 2026): The staging database runs Postgres 14. Its backups run at 02:00.\n", ApplyOptions{})
	ids, err := column[int64](ctx, s.db, `SELECT id FROM claims`)
	if err != nil || len(ids) != 1 {
		t.Fatalf("claims %v, %v", ids, err)
	}
	applyRules1(t, s, t0.Add(time.Hour), "Priya (9 March 2026): The staging database runs Postgres 16.\n", ApplyOptions{Supersede: SupersedeIDs, IDs: ids})
	got, err := s.Reindex(ctx, compiler.Rules, t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got.Carried != 1 || got.Lifted != 0 {
		t.Fatalf("Reindex = %+v, want 1 supersession carried, none lifted", got)
	}
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM supersessions`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d supersessions after the reindex (%v), want 2: both halves of the old claim", n, err)
	}
	checkActiveIndex(t, s)
}
