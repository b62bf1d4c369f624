package benchproc

// The recall benchmarks compare whole-process `memoree recall` with the sqlite3 command line running the
// equivalent FTS5 query on the same database file. Their stores come from the generator in recall/internal/gen,
// which only packages under recall/ may import: the recallbench command there builds and caches a store and
// prints where it is. Each store is copied once per test binary, so that no benchmark depends on what other
// programs do to the cache, and every benchmark checks afterwards that nothing wrote to its copy.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/memoree/memoree/recall"
)

// sqlite3 is the command line recall is compared with; the recall benchmarks skip when it is missing.
const sqlite3 = "/usr/bin/sqlite3"

// genStore is a generated store as memoree leaves it, in a data directory of its own.
type genStore struct {
	home      string // MEMOREE_HOME; the store is home/store
	claims    int
	bytes     int64  // what the store occupies: database, lock file and artifact files
	selective string // a query with a few hits in a 100,000-claim store, which no claim answers
	answered  string // a query with a few hits in a 100,000-claim store, which a claim answers
	broad     string // a query with tens of thousands of hits in a 100,000-claim store
}

// db returns the path of the store's database file.
func (g *genStore) db() string { return filepath.Join(g.home, "store", "recall.db") }

// genKey names a generated store: its claims, and whether memoree optimize ran on it.
type genKey struct {
	n         int
	optimized bool
}

var (
	genMu     sync.Mutex
	genStores = map[genKey]*genStore{}
)

// generated returns the generated store of n claims as memoree's applies leave it, building it on first use
// (a 100,000-claim store takes about ten seconds; the generator caches it under os.TempDir() for later runs)
// and copying it into binDir.
func generated(b testing.TB, n int) *genStore { return generatedStore(b, genKey{n, false}) }

// optimized returns the generated store of n claims after memoree optimize.
func optimized(b testing.TB, n int) *genStore { return generatedStore(b, genKey{n, true}) }

func generatedStore(b testing.TB, k genKey) *genStore {
	b.Helper()
	genMu.Lock()
	defer genMu.Unlock()
	if g := genStores[k]; g != nil {
		return g
	}
	n := k.n
	tool := recallbench(b)
	// The store as memoree's own applies leave it; memoree optimize runs on a copy for the other sub-benchmarks.
	var stderr bytes.Buffer
	cmd := exec.Command(tool, "-build", "-n", fmt.Sprint(n), "-optimized=false")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("recallbench -build -n %d: %v\n%s", n, err, stderr.Bytes())
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 4 {
		b.Fatalf("recallbench -build printed %q, want a directory and three queries", out)
	}
	g := &genStore{home: filepath.Join(binDir, fmt.Sprintf("home-%d-%v", n, k.optimized)), claims: n, selective: lines[1],
		broad: lines[2], answered: lines[3]}
	store := filepath.Join(g.home, "store")
	if err := copyStore(lines[0], store); err != nil {
		b.Fatal(err)
	}
	// Opening and closing the copy for writing leaves it as memoree does after an apply: migrated, with its
	// lock file, and with the log checkpointed into the database and removed, which lets recall open it
	// immutable.
	s, err := recall.Open(store)
	if err == nil {
		err = s.Close()
	}
	if err != nil {
		b.Fatal(err)
	}
	if k.optimized {
		memoree, _ := programs(b)
		cmd := exec.Command(memoree, "optimize")
		cmd.Env = append(os.Environ(), "MEMOREE_HOME="+g.home)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("memoree optimize: %v\n%s", err, out)
		}
	}
	if g.bytes, err = dirBytes(store); err != nil {
		b.Fatal(err)
	}
	genStores[k] = g
	return g
}

// recallbench returns the recallbench command, built once per test binary.
func recallbench(b testing.TB) string {
	b.Helper()
	tool := filepath.Join(binDir, "recallbench")
	if _, err := os.Stat(tool); err != nil {
		out, err := exec.Command("go", "build", "-trimpath", "-o", tool, "github.com/memoree/memoree/recall/internal/recallbench").CombinedOutput()
		if err != nil {
			b.Fatalf("go build recallbench: %v\n%s", err, out)
		}
	}
	return tool
}

// copyStore copies the store in src to dst, directories 0700 and files 0600. It leaves out the generator's
// completion marker and SQLite's -shm file, and a -wal file only when it is empty: a log with frames in it
// holds commits that the database file does not.
func copyStore(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o700)
		case rel == "complete" || rel == "recall.db-shm":
			return nil
		case rel == "recall.db-wal":
			fi, err := d.Info()
			if err == nil && fi.Size() > 0 {
				err = fmt.Errorf("copy store %s: its log holds %d bytes not in the database", src, fi.Size())
			}
			return err
		}
		return copyFile(p, to)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// dirBytes returns the bytes of the regular files under dir.
func dirBytes(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			total += fi.Size()
		}
		return err
	})
	return total, err
}

// storeState is what a read-only recall must leave as it was: the names in the store directory and the size
// and modification time of the database file.
func storeState(g *genStore) (string, error) {
	entries, err := os.ReadDir(filepath.Dir(g.db()))
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(g.db())
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return fmt.Sprintf("%q %d %v", names, fi.Size(), fi.ModTime()), nil
}

// sqliteQuery returns the sqlite3 command line that does what recall does for query on g's database: the
// words ORed in an FTS5 MATCH on the claims index, joined to the claims, best BM25 rank first, ten rows (as in
// recall/internal/recallbench). The database is opened read-only and immutable, as recall opens a store
// without a log, so that both sides read the same file the same way and neither writes to it.
func sqliteQuery(g *genStore, query string) proc {
	expr := `"` + strings.Join(strings.Fields(query), `" OR "`) + `"`
	return fixed(sqlite3, "file:"+g.db()+"?mode=ro&immutable=1",
		`SELECT c.id, c.text, c.created, -bm25(claims_fts) FROM claims_fts JOIN claims c ON c.id = claims_fts.rowid
		WHERE claims_fts MATCH '`+expr+`' ORDER BY rank LIMIT 10`)
}

// recallHarness returns a harness whose MEMOREE_HOME is g's data directory.
func recallHarness(b testing.TB, g *genStore) *harness {
	b.Helper()
	h := newHarness(b)
	h.home = g.home
	for i, kv := range h.env {
		if strings.HasPrefix(kv, "MEMOREE_HOME=") {
			h.env[i] = "MEMOREE_HOME=" + g.home
		}
	}
	return h
}

// compareRecall compares `memoree recall QUERY` with sqlite3 on g, then checks that the store is as it was.
func compareRecall(b *testing.B, g *genStore, query string, want target) {
	b.Helper()
	h := recallHarness(b, g)
	before, err := storeState(g)
	if err != nil {
		b.Fatal(err)
	}
	h.compare(b, fixed(append([]string{h.memoreeBin, "recall"}, strings.Fields(query)...)...), sqliteQuery(g, query), want)
	after, err := storeState(g)
	if err != nil {
		b.Fatal(err)
	}
	if after != before {
		b.Fatalf("the store changed during the benchmark:\nbefore %s\nafter  %s", before, after)
	}
}

// benchRecall compares recall of the query with sqlite3 on a store of n generated claims, as applies leave it
// and after memoree optimize, as sub-benchmarks.
func benchRecall(b *testing.B, n int, query func(*genStore) string, want target) {
	if _, err := os.Stat(sqlite3); err != nil {
		b.Skip("no sqlite3 command line at " + sqlite3)
	}
	b.Run("applied", func(b *testing.B) {
		g := generated(b, n)
		compareRecall(b, g, query(g), want)
	})
	b.Run("optimized", func(b *testing.B) {
		g := optimized(b, n)
		compareRecall(b, g, query(g), want)
	})
}

// BenchmarkRecallSelective100K is the selective recall for a query that no claim answers: recall also
// searches the artifact text and reads snippets from the artifact files.
func BenchmarkRecallSelective100K(b *testing.B) {
	if _, err := os.Stat(sqlite3); err != nil {
		b.Skip("no sqlite3 command line at " + sqlite3)
	}
	g := generated(b, 100000)
	if p := presence(b, g, g.selective); p == "claim" {
		b.Fatalf("recall %q: presence %q, want artifact or none: the benchmark would measure something else", g.selective, p)
	}
	benchRecall(b, 100000, func(g *genStore) string { return g.selective }, target{ratio: 2})
}

// BenchmarkRecallAnswered100K is the selective recall for a query that a claim answers: recall stops at
// the claims, which is what the sqlite3 reference does too, so the rest of the gap is process start-up.
func BenchmarkRecallAnswered100K(b *testing.B) {
	if _, err := os.Stat(sqlite3); err != nil {
		b.Skip("no sqlite3 command line at " + sqlite3)
	}
	g := generated(b, 100000)
	if p := presence(b, g, g.answered); p != "claim" {
		b.Fatalf("recall %q: presence %q, want claim: the benchmark would measure something else", g.answered, p)
	}
	benchRecall(b, 100000, func(g *genStore) string { return g.answered }, target{ratio: 2})
}

// presence returns what memoree recall --json says of query on g.
func presence(b *testing.B, g *genStore, query string) string {
	var res struct {
		Presence string `json:"presence"`
	}
	h := recallHarness(b, g)
	out := h.run(b, fixed(append([]string{h.memoreeBin, "recall", "--json"}, strings.Fields(query)...)...))
	if err := json.Unmarshal(out, &res); err != nil {
		b.Fatalf("recall %q: %v", query, err)
	}
	return res.Presence
}

func BenchmarkRecallBroad100K(b *testing.B) {
	benchRecall(b, 100000, func(g *genStore) string { return g.broad }, target{ratio: 1})
}

// BenchmarkRecallGrowth runs the selective query at three store sizes and reports each store's bytes per
// claim: how recall time grows with the store.
func BenchmarkRecallGrowth(b *testing.B) {
	if _, err := os.Stat(sqlite3); err != nil {
		b.Skip("no sqlite3 command line at " + sqlite3)
	}
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("claims=%d", n), func(b *testing.B) {
			g := generated(b, n)
			compareRecall(b, g, g.selective, target{ratio: 2})
			b.ReportMetric(float64(g.bytes)/float64(g.claims), "B/claim")
		})
	}
}

// TestRecallQueriesMatchSQLite checks that the recall benchmarks compare equal work on a 10,000-claim store:
// for each query, memoree returns as many claims as the sqlite3 query does, and says there are more exactly
// when the index holds more matches than that. The order may differ: recall weighs BM25 by recency.
func TestRecallQueriesMatchSQLite(t *testing.T) {
	skipShort(t)
	if _, err := os.Stat(sqlite3); err != nil {
		t.Skip("no sqlite3 command line at " + sqlite3)
	}
	g := generated(t, 10000)
	h := recallHarness(t, g)
	for _, q := range []string{g.selective, g.broad} {
		argv, _ := sqliteQuery(g, q)(0)
		out, err := exec.Command(argv[0], argv[1:]...).Output()
		if err != nil {
			t.Fatalf("sqlite3: %v", err)
		}
		rows := strings.Count(string(out), "\n")
		expr := `"` + strings.Join(strings.Fields(q), `" OR "`) + `"`
		out, err = exec.Command(sqlite3, argv[1], "SELECT count(*) FROM claims_fts WHERE claims_fts MATCH '"+expr+"'").Output()
		if err != nil {
			t.Fatalf("sqlite3: %v", err)
		}
		hits, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Results []json.RawMessage `json:"results"`
			HasMore bool              `json:"has_more"`
		}
		out = h.run(t, fixed(append([]string{h.memoreeBin, "recall", "--json"}, strings.Fields(q)...)...))
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("recall --json: %v\n%s", err, out)
		}
		if hits == 0 || len(res.Results) != rows || res.HasMore != (hits > rows) {
			t.Errorf("query %q: memoree returned %d claims (more: %v), sqlite3 %d rows of %d matches",
				q, len(res.Results), res.HasMore, rows, hits)
		}
	}
}

// BenchmarkRecallSelective1M compares the selective recall on a store of 1,000,000 generated claims with the
// same recall on the 100,000-claim store: how recall grows with the store. Both stores are as applies leave
// them, and the same words match ten times as many claims in the larger. The sqlite3 sub-benchmark grows
// the FTS5 reference query the same way, for how much of the growth any FTS5 search of those words has.
// The 1,000,000-claim store takes about a minute to build the first time and 400 MB under the temporary
// directory, cached like the others, and as much again for this test binary's copy.
func BenchmarkRecallSelective1M(b *testing.B) {
	if _, err := os.Stat(sqlite3); err != nil {
		b.Skip("no sqlite3 command line at " + sqlite3)
	}
	big, small := generated(b, 1000000), generated(b, 100000)
	hb, hs := recallHarness(b, big), recallHarness(b, small)
	before, err := storeState(big)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("memoree", func(b *testing.B) {
		hb.compareWith(b, fixed(append([]string{hb.memoreeBin, "recall"}, strings.Fields(big.selective)...)...),
			hs, fixed(append([]string{hs.memoreeBin, "recall"}, strings.Fields(small.selective)...)...), target{ratio: 1.3})
	})
	b.Run("sqlite3", func(b *testing.B) {
		hb.compareWith(b, sqliteQuery(big, big.selective), hs, sqliteQuery(small, small.selective), target{})
	})
	if after, err := storeState(big); err != nil || after != before {
		b.Fatalf("the store changed during the benchmark (%v):\nbefore %s\nafter  %s", err, before, after)
	}
}

// rg returns the path of the rg command, which broad recall and context build are compared with, or skips
// b when it is missing.
func rg(b testing.TB) string {
	b.Helper()
	p, err := exec.LookPath("rg")
	if err != nil {
		b.Skip("no rg command: install ripgrep for the comparisons with a plain text search")
	}
	return p
}

// notes returns the directory of the n-claim store's notes written as plain files, one per artifact.
func notes(b testing.TB, n int) string {
	b.Helper()
	out, err := exec.Command(recallbench(b), "-notes", "-n", fmt.Sprint(n)).Output()
	if err != nil {
		b.Fatalf("recallbench -notes -n %d: %v", n, err)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// rgQuery returns the rg command line that lists the notes in dir holding any word of query, ignoring case:
// what a user without memoree would run.
func rgQuery(rg, dir, query string) proc {
	argv := []string{rg, "-l", "-i"}
	for _, w := range strings.Fields(query) {
		argv = append(argv, "-e", w)
	}
	return fixed(append(argv, dir)...)
}

// benchBroadRg compares memoree args with rg over the notes of the 100,000-claim store, for the broad query.
func benchBroadRg(b *testing.B, args func(g *genStore) []string) {
	rg := rg(b)
	g := generated(b, 100000)
	h := recallHarness(b, g)
	before, err := storeState(g)
	if err != nil {
		b.Fatal(err)
	}
	h.compare(b, fixed(append([]string{h.memoreeBin}, args(g)...)...), rgQuery(rg, notes(b, 100000), g.broad), target{ratio: 1})
	if after, err := storeState(g); err != nil || after != before {
		b.Fatalf("the store changed during the benchmark (%v):\nbefore %s\nafter  %s", err, before, after)
	}
}

// BenchmarkRecallBroadRg100K compares the broad recall on the 100,000-claim store with rg -l -i listing the
// notes that hold its words.
func BenchmarkRecallBroadRg100K(b *testing.B) {
	benchBroadRg(b, func(g *genStore) []string { return append([]string{"recall"}, strings.Fields(g.broad)...) })
}

// BenchmarkContextBroadRg100K compares context build for the broad query on the 100,000-claim store with
// rg -l -i, as BenchmarkRecallBroadRg100K does.
func BenchmarkContextBroadRg100K(b *testing.B) {
	benchBroadRg(b, func(g *genStore) []string { return []string{"context", "build", "--query", g.broad} })
}

// TestNotesMatchStore checks that the rg comparisons search the same notes as memoree: the notes directory of
// the 10,000-claim store holds one file per artifact of the store, and rg finds the broad query's words in
// as many of them as the artifact index does.
func TestNotesMatchStore(t *testing.T) {
	skipShort(t)
	if _, err := os.Stat(sqlite3); err != nil {
		t.Skip("no sqlite3 command line at " + sqlite3)
	}
	rg := rg(t)
	g := generated(t, 10000)
	dir := notes(t, 10000)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	db := "file:" + g.db() + "?mode=ro&immutable=1"
	count := func(sql string) int {
		out, err := exec.Command(sqlite3, db, sql).Output()
		if err != nil {
			t.Fatalf("sqlite3: %v", err)
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if arts := count("SELECT count(*) FROM artifacts"); len(entries) != arts {
		t.Errorf("%d note files, %d artifacts in the store", len(entries), arts)
	}
	argv, _ := rgQuery(rg, dir, g.broad)(0)
	out, err := exec.Command(argv[0], argv[1:]...).Output()
	if err != nil {
		t.Fatalf("rg: %v", err)
	}
	expr := `"` + strings.Join(strings.Fields(g.broad), `" OR "`) + `"`
	listed := strings.Count(string(out), "\n")
	if hits := count("SELECT count(*) FROM artifacts_fts WHERE artifacts_fts MATCH '" + expr + "'"); listed == 0 || listed != hits {
		t.Errorf("rg lists %d notes for %q, the artifact index matches %d", listed, g.broad, hits)
	}
}
