package recall_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/memoree/memoree/compiler"
	"github.com/memoree/memoree/recall"
)

var evalVerbose = flag.Bool("eval.verbose", false, "log every query that misses or gets presence wrong")

// evalFile is a query file TestEval scores, with the figures memoree must reach on it: a regression below
// them fails. minGain is how much higher memoree's recall@5 must be than plain FTS5 BM25 over whole notes
// on the same corpus (negative: how much lower it may be).
type evalFile struct {
	file                        string
	minAt1, minAt5, minPresence float64
	minGain                     float64
	minUpdateShare              float64 // of the update queries, the share with the newer note first
	half                        half
	minPerTag                   int // the fewest queries of each tag in the file (TestEvalCorpora), or 0
}

// half selects the queries of a file: all of them, or within each tag the 1st, 3rd, 5th... (the tuning
// half) or the 2nd, 4th, 6th... (the held-back half). The split was fixed before any retrieval ran on the
// corpora that use it.
type half int

const (
	allQueries half = iota
	tuneHalf
	heldHalf
)

func (h half) String() string { return [...]string{"", "tune half", "held half"}[h] }

// queries returns the lines of the query file at path that h selects.
func (h half) queries(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	if h == allQueries {
		return data
	}
	var out []byte
	seen := map[string]int{}
	for line := range strings.Lines(string(data)) {
		var q struct{ Tag string }
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		seen[q.Tag]++
		if (seen[q.Tag]%2 == 1) == (h == tuneHalf) {
			out = append(out, line...)
		}
	}
	return out
}

// evalCorpus is an evaluation corpus under testdata: notes, their apply order and times in manifest.jsonl,
// and labelled query files.
type evalCorpus struct {
	dir      string
	minNotes int
	files    []evalFile
}

// The floors are at most 0.002 under the figures main reached on 2026-12-03 with the recency signal of
// rank.go (docs/performance.md), so that a change which loses a query anywhere fails here: one that trades
// a loss for a gain lowers the floor it costs and says why beside it. The recency signal itself gained 31
// queries at rank 1 and lost 12, over the tuning and held halves of every corpus; the floors it lowered
// (eval's tune.jsonl, eval-pair's tuning half, eval-studio's and eval-library's held halves, and
// eval-clinic's and eval-library's recall@5) are those queries. The comments below tell how each corpus came to be and
// what its floors were before; where they say that a floor sits just under a first score, it has risen
// since.
var evalCorpora = []evalCorpus{
	{dir: "eval", minNotes: 100, files: []evalFile{
		{"tune.jsonl", 0.885, 0.981, 0.903, 0.016, 1, allQueries, 8},
		{"held.jsonl", 0.876, 0.98, 0.874, -0.011, 1, allQueries, 8},
		// Questions phrased as users ask them, written after the ranking model, for developing presence.
		{"dev.jsonl", 0.968, 0.999, 0.877, -0.001, 1, allQueries, 0},
		// Written after the ranking was tuned by someone who read neither it nor the other query files;
		// scored once and never tuned on (docs/performance.md has the first score). The floors sat just
		// under it; recall@1 is one query lower since irregular verbs match in all their forms ("take" now
		// also finds a note that "took" longer, above the answer).
		{"fresh.jsonl", 0.919, 0.976, 0.794, -0.001, 0.954, allQueries, 14},
	}},
	// Two corpora written after the ranking by someone who read neither it nor the other corpora, and ran
	// no retrieval on them: a transit agency's engineering notes, and a multi-session chat stored one turn
	// per note. Each was first scored whole and in both halves at once.
	// The floors sat just under that first score (docs/performance.md) and rose with later gains; the chat
	// corpus's presence floors are lower by two queries of its held half, since questions in the past tense
	// no longer reorder by recency.
	{dir: "eval-work", minNotes: 90, files: []evalFile{
		{"queries.jsonl", 0.858, 0.954, 0.849, -0.001, 0.8, allQueries, 15},
		{"queries.jsonl", 0.86, 0.949, 0.841, -0.011, 0.769, tuneHalf, 0},
		{"queries.jsonl", 0.855, 0.958, 0.857, 0.01, 0.833, heldHalf, 0},
	}},
	{dir: "eval-chat", minNotes: 200, files: []evalFile{
		// Since two one-line turns need six shared words to count as notes about the same subject, recall@1
		// is higher and one update of the held half lost its order: the update floors are lower by one query.
		{"queries.jsonl", 0.677, 0.827, 0.751, 0.027, 0.714, allQueries, 14},
		{"queries.jsonl", 0.691, 0.834, 0.773, 0.043, 0.75, tuneHalf, 0},
		{"queries.jsonl", 0.662, 0.819, 0.729, 0.01, 0.666, heldHalf, 0},
	}},
	// A chat of two friends over a year, one turn per note, written like eval-chat after the ranking was,
	// by someone who read neither it nor the other corpora. Scored once, whole and in halves; the floors sit
	// just under that first score (docs/performance.md). Its tuning half was then used to judge listing the
	// reply to a question turn (replies.go) and dated turns as answers to when (presence.go): the floors
	// rose with what they gained, on the tuning half 0.779 to 0.814 at recall@5 and 0.719 to 0.733 in
	// presence, on the held half 0.739 to 0.757 and 0.664 to 0.671.
	{dir: "eval-pair", minNotes: 250, files: []evalFile{
		{"queries.jsonl", 0.561, 0.794, 0.705, 0.08, 0.419, allQueries, 16},
		{"queries.jsonl", 0.574, 0.822, 0.739, 0.105, 0.411, tuneHalf, 0},
		{"queries.jsonl", 0.549, 0.765, 0.67, 0.053, 0.428, heldHalf, 0},
	}},
	// A game studio's engineering notes, written the same way after today's ranking changes; scored once, and
	// the floors sit just under that first score. memoree's recall@5 there is below BM25's.
	{dir: "eval-studio", minNotes: 100, files: []evalFile{
		{"queries.jsonl", 0.864, 0.942, 0.846, -0.001, 0.647, allQueries, 16},
		{"queries.jsonl", 0.91, 0.951, 0.873, 0.016, 0.764, tuneHalf, 0},
		{"queries.jsonl", 0.816, 0.932, 0.818, -0.018, 0.529, heldHalf, 0},
	}},
	// A harbour logistics company's platform team, written the same way while no ranking changed; scored
	// once, and the floors sit just under that first score.
	{dir: "eval-harbor", minNotes: 110, files: []evalFile{
		{"queries.jsonl", 0.856, 0.953, 0.814, 0.022, 0.804, allQueries, 18},
		{"queries.jsonl", 0.794, 0.931, 0.826, 0.029, 0.761, tuneHalf, 0},
		{"queries.jsonl", 0.92, 0.975, 0.801, 0.014, 0.85, heldHalf, 0},
	}},
	// A veterinary clinic group's office, IT and staff notes, written the same way at the same time by
	// someone else; scored once, and the floors sit just under that first score.
	{dir: "eval-clinic", minNotes: 110, files: []evalFile{
		{"queries.jsonl", 0.832, 0.942, 0.796, 0.029, 0.829, allQueries, 20},
		{"queries.jsonl", 0.786, 0.933, 0.781, 0.021, 0.857, tuneHalf, 0},
		{"queries.jsonl", 0.882, 0.952, 0.812, 0.038, 0.8, heldHalf, 0},
	}},
	// A genomics lab and its compute cluster, written the same way after the night's changes; scored once,
	// and the floors sit just under that first score.
	{dir: "eval-lab", minNotes: 100, files: []evalFile{
		{"queries.jsonl", 0.847, 0.966, 0.793, 0.015, 0.785, allQueries, 20},
		{"queries.jsonl", 0.855, 0.975, 0.791, 0.023, 0.809, tuneHalf, 0},
		{"queries.jsonl", 0.838, 0.957, 0.795, 0.008, 0.761, heldHalf, 0},
	}},
	// A regional newspaper's newsroom and web platform, written the same way after the replies of
	// replies.go; scored once, and the floors sit just under that first score.
	{dir: "eval-news", minNotes: 100, files: []evalFile{
		{"queries.jsonl", 0.78, 0.931, 0.811, 0.031, 0.568, allQueries, 20},
		{"queries.jsonl", 0.779, 0.936, 0.806, 0.046, 0.545, tuneHalf, 0},
		{"queries.jsonl", 0.781, 0.926, 0.815, 0.015, 0.59, heldHalf, 0},
	}},
	// An organic farm, its shop, web shop and sensors, written the same way after the supersession rule and
	// the joined words of query.go; scored once, and the floors sit just under that first score.
	{dir: "eval-farm", minNotes: 100, files: []evalFile{
		{"queries.jsonl", 0.769, 0.929, 0.8, 0.034, 0.697, allQueries, 20},
		{"queries.jsonl", 0.801, 0.946, 0.819, 0.038, 0.727, tuneHalf, 0},
		{"queries.jsonl", 0.735, 0.911, 0.78, 0.031, 0.666, heldHalf, 0},
	}},
	// A city's public library service and its IT, written the same way after every change of the night;
	// scored once, and the floors sit just under that first score. Since a newer claim that says the same
	// as an older one no longer moves ahead of it from far below (statementMargin), an update's weak answer
	// ("Large-print standing orders moved over too.") fell from the fourth rank to the sixth, behind the
	// claim of the older note that still ranks first: the recall@5 floor of all queries and the tuning
	// half's gain over BM25 are lower by that query.
	{dir: "eval-library", minNotes: 100, files: []evalFile{
		{"queries.jsonl", 0.791, 0.932, 0.794, 0.03, 0.708, allQueries, 20},
		{"queries.jsonl", 0.774, 0.921, 0.805, 0.03, 0.666, tuneHalf, 0},
		{"queries.jsonl", 0.809, 0.943, 0.783, 0.03, 0.75, heldHalf, 0},
	}},
	// A chat of three former colleagues over sixteen months, one turn per note (half the sessions dated in
	// each turn, half not), written the same way after every change of the night; scored once, and the
	// floors sit just under that first score. Without the replies of replies.go it scored r@5 0.625, r@10
	// 0.685 (0.634 and 0.716 with them). Its first apply failed on a turn of "!!!!", which rules/4 skips.
	{dir: "eval-trio", minNotes: 250, files: []evalFile{
		{"queries.jsonl", 0.456, 0.628, 0.584, 0.012, 0.44, allQueries, 15},
		{"queries.jsonl", 0.482, 0.635, 0.623, -0.009, 0.538, tuneHalf, 0},
		{"queries.jsonl", 0.429, 0.622, 0.544, 0.034, 0.333, heldHalf, 0},
	}},
	// A group of three hotels and its operations and IT, written the same way; scored once (r@1 0.820, r@5
	// 0.917; held half 0.830, 0.887), and the floors sit just under that first score. Its tuning half then
	// led to the groupings of query.go: r@1 0.834, r@5 0.926 (held half 0.840, 0.896).
	{dir: "eval-hotel", minNotes: 80, files: []evalFile{
		{"queries.jsonl", 0.847, 0.934, 0.827, 0.035, 0.777, allQueries, 15},
		{"queries.jsonl", 0.837, 0.954, 0.813, 0.035, 0.777, tuneHalf, 0},
		{"queries.jsonl", 0.857, 0.914, 0.842, 0.037, 0.777, heldHalf, 0},
	}},
	// A regional ferry operator's operations and IT, written the same way; scored once before any ranking
	// change was judged on it (r@1 0.784, r@5 0.911, presence 0.751; FTS5 0.703, 0.886, 0.788; tuning half
	// 0.775, 0.942, 0.775; held half 0.793, 0.879, 0.726), and the floors sit just under that first score.
	// The ranking round written at the same time, which did not read it, moved presence only: 0.758 (held
	// half 0.733), r@1 and r@5 query for query the same. Abbreviations (Feb for February) raised the held
	// half's r@1 by one query and lowered its r@5 by one, a paraphrase that names a month now matching
	// other claims of that month: the held half's gain over FTS5 is one query under its first 0.05.
	{dir: "eval-ferry", minNotes: 90, files: []evalFile{
		{"queries.jsonl", 0.808, 0.914, 0.763, 0.028, 0.717, allQueries, 15},
		{"queries.jsonl", 0.816, 0.957, 0.794, 0.015, 0.782, tuneHalf, 0},
		{"queries.jsonl", 0.801, 0.87, 0.732, 0.042, 0.652, heldHalf, 0},
	}},
	// A school trust's IT and facilities team, written the same way while other spellings (abbreviations,
	// British and American) were added, and scored before and after them: r@1 0.791 and 0.795, r@5 0.928
	// both, presence 0.801 and 0.807; FTS5 0.788, 0.953 and 0.950, 0.816 (tuning half 0.807, 0.929, 0.817
	// both times; held half 0.775 and 0.783, 0.928, 0.785 and 0.797). Its notes are short (560 bytes on
	// average) and its answer lists generous, and plain FTS5 over whole notes finds an answer in its first
	// five more often than memoree does. The floors sit just under the first score.
	{dir: "eval-school", minNotes: 100, files: []evalFile{
		{"queries.jsonl", 0.816, 0.934, 0.809, -0.016, 0.846, allQueries, 18},
		{"queries.jsonl", 0.82, 0.928, 0.822, -0.022, 0.884, tuneHalf, 0},
		{"queries.jsonl", 0.811, 0.941, 0.796, -0.008, 0.807, heldHalf, 0},
	}},
}

// manifestEntry is a line of a corpus's manifest.jsonl: a note's file, relative to the corpus, and its time.
type manifestEntry struct {
	File string    `json:"file"`
	Time time.Time `json:"time"`
}

// readManifest returns the entries of the manifest of the corpus in dir, in order.
func readManifest(t testing.TB, dir string) []manifestEntry {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "manifest.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []manifestEntry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var m manifestEntry
		if err := strictJSON(sc.Bytes(), &m); err != nil {
			t.Fatalf("manifest.jsonl:%d: %v", n, err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// applyCorpus applies every note of the manifest in dir, in order, at its time, as memoree remember --apply
// does: compile with the current compiler, then apply, superseding what the rule lists. It returns the
// notes' texts by artifact hash.
func applyCorpus(t testing.TB, s *recall.Store, dir string, minNotes int) map[string]string {
	t.Helper()
	notes := map[string]string{}
	for _, m := range readManifest(t, dir) {
		text, err := os.ReadFile(filepath.Join(dir, m.File))
		if err != nil {
			t.Fatal(err)
		}
		a := recall.Artifact{Kind: "note", Source: "remember", Text: text}
		r := compiler.Rules.Compile(string(text), compiler.Source{Kind: a.Kind})
		// As remember --apply and pending apply do by default: what the supersession rule lists is
		// superseded, and drops out of recall.
		res, err := s.ApplyWith(context.Background(), a, recall.ClaimsOf(r), m.Time, recall.ApplyOptions{Supersede: recall.SupersedeListed})
		if err != nil {
			t.Fatalf("apply %s: %v", m.File, err)
		}
		if sum := sha256.Sum256(text); res.Artifact != hex.EncodeToString(sum[:]) {
			t.Fatalf("apply %s: artifact %s, want the SHA-256 of the file, which queries name", m.File, res.Artifact)
		}
		notes[res.Artifact] = string(text)
	}
	if len(notes) < minNotes {
		t.Fatalf("the corpus has %d notes, want at least %d", len(notes), minNotes)
	}
	return notes
}

// baseline is plain SQLite FTS5 BM25 over whole notes: the naive design recall must beat.
type baseline struct{ db *sql.DB }

func newBaseline(t testing.TB, notes map[string]string) *baseline {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE VIRTUAL TABLE notes USING fts5 (hash UNINDEXED, text, tokenize = 'porter unicode61 remove_diacritics 2')`); err != nil {
		t.Fatal(err)
	}
	// In one order every run: BM25 ties keep the order of the rows, and in map order the baseline's figures
	// moved from run to run (eval-school's recall@5 0.950 or 0.957).
	for _, h := range slices.Sorted(maps.Keys(notes)) {
		if _, err := db.Exec(`INSERT INTO notes (hash, text) VALUES (?, ?)`, h, notes[h]); err != nil {
			t.Fatal(err)
		}
	}
	return &baseline{db}
}

// baselineStopwords are the English function words the baseline leaves out of a query.

var baselineStopwords = words(`a about after all also am an and any are as at be been before being but by can
		could did do does doing done for from had has have having he her here hers him his how i if in into is it its
		just me more most my no nor not now of off on once only or other our out over own same she should so some such
		than that the their them then there these they this those through to too under until up very was we were what
		when where which while who whom why will with would you your yours near`)

// search runs the OR of the query's content words (runs of letters and digits, stopwords left out unless
// nothing else remains), each quoted, best BM25 first, ten notes.
func (b *baseline) search(ctx context.Context, q string) ([][]string, recall.Presence, error) {
	var all, content []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	}) {
		all = append(all, `"`+w+`"`)
		if !baselineStopwords[w] {
			content = append(content, `"`+w+`"`)
		}
	}
	if len(content) == 0 {
		content = all
	}
	if len(content) == 0 {
		return nil, recall.PresenceNone, nil
	}
	rows, err := b.db.QueryContext(ctx, `SELECT hash FROM notes WHERE notes MATCH ? ORDER BY rank LIMIT 10`, strings.Join(content, " OR "))
	if err != nil {
		return nil, "", err
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, "", err
		}
		out = append(out, []string{h})
	}
	p := recall.PresenceNone
	if len(out) > 0 {
		p = recall.PresenceArtifact
	}
	return out, p, rows.Err()
}

// TestEval applies each evaluation corpus of evalCorpora to a store of its own and scores memoree recall
// and the FTS5 baseline on each of its query files.
func TestEval(t *testing.T) {
	for i, c := range evalCorpora {
		t.Run(c.dir, func(t *testing.T) {
			// Under the race detector every corpus takes ten times as long, and all of them most of the race
			// run's ten minutes: there the first corpus runs the ranking and the store's paths, and the
			// floors of the others are checked by make test.
			if raceDetector && testing.Short() && i > 0 {
				t.Skip("with -race -short only the first corpus is scored")
			}
			evalCorpusFiles(t, c)
		})
	}
}

func evalCorpusFiles(t *testing.T, c evalCorpus) {
	dir := filepath.Join("..", "testdata", c.dir)
	if _, err := os.Stat(filepath.Join(dir, "manifest.jsonl")); err != nil {
		t.Skip("no evaluation corpus:", err)
	}
	s, err := recall.Open(t.TempDir() + "/store")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	notes := applyCorpus(t, s, dir, c.minNotes)
	base := newBaseline(t, notes)
	for _, ef := range c.files {
		name := ef.file
		if ef.half != allQueries {
			name = ef.half.String() + " of " + ef.file
		}
		t.Run(name, func(t *testing.T) {
			queries := ef.half.queries(t, filepath.Join(dir, ef.file))
			rep, err := s.Eval(context.Background(), bytes.NewReader(queries))
			if err != nil {
				t.Fatal(err)
			}
			brep, err := recall.EvalWith(context.Background(), bytes.NewReader(queries), base.search)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%-14s %s", "memoree", scoreLine(rep.EvalScores))
			t.Logf("%-14s %s", "fts5 baseline", scoreLine(brep.EvalScores))
			t.Logf("updates: newer note first in %d of %d", rep.UpdatesInOrder, rep.Updates)
			for _, tag := range rep.Tags() {
				t.Logf("  %-14s memoree  %s", tag, scoreLine(rep.ByTag[tag]))
				t.Logf("  %-14s baseline %s", "", scoreLine(brep.ByTag[tag]))
			}
			if *evalVerbose {
				for i, r := range rep.Results {
					if b := brep.Results[i]; b.Rank != r.Rank && r.Query.Expect == "claim" {
						t.Logf("line %d [%s] %q: memoree rank %d, baseline rank %d", r.Line, r.Query.Tag, r.Query.Query, r.Rank, b.Rank)
					}
				}
				for _, r := range rep.Results {
					wrongPresence := (r.Presence == recall.PresenceNone) != (r.Query.Expect == "none")
					if r.Err != "" || wrongPresence || r.Query.Expect == "claim" && r.Rank != 1 || r.Stale > 0 && r.Stale < r.Rank {
						t.Logf("line %d [%s] %q: rank %d stale %d presence %s %s", r.Line, r.Query.Tag, r.Query.Query, r.Rank, r.Stale, r.Presence, r.Err)
					}
				}
			}
			if rep.Errors > 0 {
				t.Errorf("%d queries failed", rep.Errors)
			}
			if rep.RecallAt1 < ef.minAt1 || rep.RecallAt5 < ef.minAt5 || rep.PresenceAccuracy < ef.minPresence {
				t.Errorf("recall@1 %.3f, recall@5 %.3f, presence %.3f: want at least %.3f, %.3f, %.3f",
					rep.RecallAt1, rep.RecallAt5, rep.PresenceAccuracy, ef.minAt1, ef.minAt5, ef.minPresence)
			}
			if rep.RecallAt5 < brep.RecallAt5+ef.minGain {
				t.Errorf("recall@5 %.3f, the FTS5 baseline %.3f: want at least %.2f higher", rep.RecallAt5, brep.RecallAt5, ef.minGain)
			}
			if rep.Updates > 0 && float64(rep.UpdatesInOrder) < ef.minUpdateShare*float64(rep.Updates) {
				t.Errorf("newer note first in %d of %d updates, want at least %.0f%%", rep.UpdatesInOrder, rep.Updates, 100*ef.minUpdateShare)
			}
		})
	}
}

func scoreLine(e recall.EvalScores) string {
	return fmt.Sprintf("n=%-3d r@1 %.3f  r@5 %.3f  r@10 %.3f  mrr %.3f  presence %.3f  errors %d",
		e.Queries, e.RecallAt1, e.RecallAt5, e.RecallAt10, e.MRR, e.PresenceAccuracy, e.Errors)
}

// words returns the set of the white-space-separated words of list.
func words(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}
