package recall_test

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/memoree/memoree/recall/internal/gen"

	_ "modernc.org/sqlite"
)

// tokenizerCandidates are the FTS5 tokenizers compared for the claim and artifact indexes.
var tokenizerCandidates = []string{
	"unicode61",
	"unicode61 remove_diacritics 2",
	"porter unicode61 remove_diacritics 2",
	"trigram",
}

// tokenizerCases are how people ask: each query must find the text.
var tokenizerCases = []struct{ text, query string }{
	{"The staging cluster deploys nightly", "deployed"},
	{"The staging cluster deploys nightly", "deploying"},
	{"Backups are verified weekly", "backup"},
	{"José owns billing", "Jose"},
	{"Jose owns billing", "José"},
	{"Việt Nam office", "viet"}, // two diacritics on one letter
	{"The user_id column is a UUID", "user id"},
	{"The user id is a UUID", "user_id"},
	{"CAFÉ menu", "cafe"},
}

func memFTS(t testing.TB, tok string) *sql.DB {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE VIRTUAL TABLE f USING fts5 (text, tokenize = '` + tok + `')`); err != nil {
		t.Fatal(err)
	}
	return db
}

// queryExpr turns a query into the OR of its words, as the store does.
func queryExpr(q string) string {
	f := strings.FieldsFunc(q, func(r rune) bool { return r == ' ' || r == '_' })
	return `"` + strings.Join(f, `" OR "`) + `"`
}

// TestTokenizerChoice measures which tokenizers find each case and checks that the one the store uses finds
// them all. Run with -v to see the table.
func TestTokenizerChoice(t *testing.T) {
	for _, tok := range tokenizerCandidates {
		found := 0
		var missed []string
		for _, c := range tokenizerCases {
			db := memFTS(t, tok)
			if _, err := db.Exec(`INSERT INTO f (text) VALUES (?)`, c.text); err != nil {
				t.Fatal(err)
			}
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM f WHERE f MATCH ?`, queryExpr(c.query)).Scan(&n); err != nil {
				t.Fatal(err)
			}
			db.Close()
			if n > 0 {
				found++
			} else {
				missed = append(missed, c.query)
			}
		}
		t.Logf("%-38s finds %d/%d; misses %q", tok, found, len(tokenizerCases), missed)
		if tok == "porter unicode61 remove_diacritics 2" && found != len(tokenizerCases) {
			t.Errorf("the store's tokenizer misses %q", missed)
		}
	}
}

// BenchmarkTokenizers reports, for each candidate tokenizer, the index size per claim of 10,000 generated
// claims and the time of a broad query ranked by BM25.
func BenchmarkTokenizers(b *testing.B) {
	var texts []string
	for _, bt := range gen.Batches(10000) {
		for _, c := range bt.Claims {
			texts = append(texts, c.Text)
		}
	}
	for _, tok := range tokenizerCandidates {
		b.Run(strings.ReplaceAll(tok, " ", "_"), func(b *testing.B) {
			db := memFTS(b, tok)
			defer db.Close()
			tx, err := db.Begin()
			if err != nil {
				b.Fatal(err)
			}
			for _, s := range texts {
				if _, err := tx.Exec(`INSERT INTO f (text) VALUES (?)`, s); err != nil {
					b.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			if _, err := db.Exec(`INSERT INTO f (f) VALUES ('optimize')`); err != nil {
				b.Fatal(err)
			}
			var idx int64
			if err := db.QueryRow(`SELECT sum(length(block)) FROM f_data`).Scan(&idx); err != nil {
				b.Fatal(err)
			}
			q := queryExpr(gen.BroadQuery())
			b.ResetTimer()
			for b.Loop() {
				rows, err := db.Query(`SELECT rowid FROM f WHERE f MATCH ? ORDER BY rank LIMIT 10`, q)
				if err != nil {
					b.Fatal(err)
				}
				for rows.Next() {
				}
				rows.Close()
			}
			b.ReportMetric(float64(idx)/float64(len(texts)), "index-bytes/claim")
		})
	}
}
