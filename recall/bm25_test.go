package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestSQLiteVarint(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		n    int
	}{
		{"\x00", 0, 1},
		{"\x7f", 127, 1},
		{"\x81\x00", 128, 2},
		{"\x86\x8d\x20", 100000, 3},
		{"\xb3\xe7\x3c", 848828, 3},
		{"\x86\x8d\x20\x01", 100000, 3},                 // stops at the first byte under 0x80
		{"\xff\xff\xff\xff\xff\xff\xff\xff\xff", -1, 9}, // the ninth byte gives all 8 bits
		{"\x81\x81\x81\x81\x81\x81\x81\x81\x01", 0x204081020408101, 9}, // eight 7-bit ones, then 8 bits
		{"", 0, 0},
		{"\x86\x8d", 0, 0}, // ends inside the number
	} {
		got, n := sqliteVarint(c.in)
		if got != c.want || n != c.n {
			t.Errorf("sqliteVarint(%q) = %d, %d; want %d, %d", c.in, got, n, c.want, c.n)
		}
	}
}

func TestParseAverages(t *testing.T) {
	rows, words, err := parseAverages("\x86\x8d\x20\xb3\xe7\x3c")
	if err != nil || rows != 100000 || words != 848828 {
		t.Errorf("one column: %d rows, %d words, %v; want 100000, 848828", rows, words, err)
	}
	rows, words, err = parseAverages("\x03\x05\x81\x00")
	if err != nil || rows != 3 || words != 133 {
		t.Errorf("two columns: %d rows, %d words, %v; want 3, 133 (5 + 128)", rows, words, err)
	}
	for _, bad := range []string{"", "\x86", "\x03\x85"} {
		if _, _, err := parseAverages(bad); err == nil {
			t.Errorf("parseAverages(%q) decoded", bad)
		}
	}
}

func TestWordCounts(t *testing.T) {
	for _, c := range []struct {
		text, word     string
		words, matches int
	}{
		{"Deploy from the release branch.", "deploy", 5, 1},
		{"Deploys deploy DEPLOYED deploying", "deploy", 4, 4},
		{"user_id and user id meet", "user", 6, 2},
		{"José met jose at café-bar", "Jose", 6, 2},
		{"", "anything", 0, 0},
		{"  ...  ", "dots", 0, 0},
		{"v1.2 of main.go", "go", 5, 1},
	} {
		w, m := wordCounts(c.text, []string{stem(fold(c.word))})
		if w != c.words || m != c.matches {
			t.Errorf("wordCounts(%q, %q) = %d words, %d matches; want %d, %d", c.text, c.word, w, m, c.words, c.matches)
		}
	}
}

// TestIDF checks the floor FTS5 puts under the inverse document frequency of a word in most rows.
func TestIDF(t *testing.T) {
	if v := idf(100, 1); v < 4 || v > 5 {
		t.Errorf("idf(100, 1) = %v, want ln(99.5/1.5), about 4.19", v)
	}
	for _, hits := range []int64{50, 90, 100, 200} {
		if v := idf(100, hits); v != 1e-6 && hits >= 50 {
			t.Errorf("idf(100, %d) = %v, want the floor 1e-6", hits, v)
		}
	}
	if !strings.Contains(averagesSQL, "id = 1") {
		t.Error("averagesSQL does not select the averages record (rowid 1)")
	}
}

// TestScoreTextRandom compares the BM25 that scoreText computes with FTS5's bm25() on random claims: words
// repeat within a claim (term frequency above 1), claims differ in length, and some words are in most rows.
// The words share no stems, so memoree's word matching and the index's Porter stemmer agree on every token,
// and the scores must agree to the last bit.
func TestScoreTextRandom(t *testing.T) {
	s := openTemp(t)
	vocab := []string{"kiwi", "mango", "papaya", "guava", "lemon", "melon", "plum", "fig", "date", "lime", "Kiwi", "MANGO"}
	rng := rand.New(rand.NewPCG(7, 11))
	var batches []Batch
	for n := 0; n < 30; n++ {
		var lines []string
		for i := 0; i < 40; i++ {
			k := 2 + rng.IntN(9)
			ws := make([]string, k)
			for j := range ws {
				// Skewed: the first words are in most claims.
				ws[j] = vocab[min(rng.IntN(len(vocab)), rng.IntN(len(vocab)))]
			}
			lines = append(lines, fmt.Sprintf("c%d-%d %s", n, i, strings.Join(ws, " ")))
		}
		a, c := note("s", "t", lines...)
		batches = append(batches, Batch{Artifact: a, Claims: c})
	}
	if _, err := s.ApplyBatch(context.Background(), batches, t0); err != nil {
		t.Fatal(err)
	}
	for q := 0; q < 40; q++ {
		q := parseQuery(strings.Join([]string{vocab[rng.IntN(10)], vocab[rng.IntN(10)], vocab[rng.IntN(10)]}[:1+rng.IntN(3)], " "))
		perWord, err := s.matchingRows(context.Background(), claimIndex, &q, commonDF+1, allRows)
		if err != nil {
			t.Fatal(err)
		}
		for i, tm := range q.terms {
			w := tm.alts[0]
			want := map[int64]float64{}
			rows, err := s.db.Query(`SELECT rowid, -bm25(claims_fts) FROM claims_fts WHERE claims_fts MATCH ?`, tm.expr())
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id int64
				var score float64
				if err := rows.Scan(&id, &score); err != nil {
					t.Fatal(err)
				}
				want[id] = score
			}
			rows.Close()
			if len(perWord[i]) != min(len(want), commonDF+1) || len(want) == 0 {
				t.Fatalf("%q: %d rows, FTS5 has %d", w, len(perWord[i]), len(want))
			}
			for _, h := range perWord[i] {
				if h.bm25 != want[h.id] {
					t.Fatalf("%q: row %d (%q) scores %v, FTS5 %v", w, h.id, h.f[0], h.bm25, want[h.id])
				}
			}
		}
	}
}

// FuzzWordCounts checks wordCounts against its definition, every word stemmed and compared with each stem,
// which it shortcuts for ASCII words whose first letter no stem starts with.
func FuzzWordCounts(f *testing.F) {
	for _, seed := range []struct{ text, word string }{
		{"Deploys happen on Fridays; deploying is DEPLOYED", "deploying"},
		{"Straße in München, café au lait", "Straße"},
		{"user_id and userID, FW-233 and eu-west-1", "user"},
		{"Ärger über Öl: Éclair", "ärger"},
		{"ing ed es s ly things", "thing"},
		{"", "x"},
	} {
		f.Add(seed.text, seed.word)
	}
	f.Fuzz(func(t *testing.T, text, word string) {
		stems := []string{stem(fold(word)), "s", ""}
		words, matches := wordCounts(text, stems)
		var wantWords, wantMatches int
		eachWord(text, func(start, end int) {
			wantWords++
			st := stem(fold(text[start:end]))
			if slices.Contains(stems, st) {
				wantMatches++
			}
		})
		if words != wantWords || matches != wantMatches {
			t.Fatalf("wordCounts(%q, %q) = %d, %d; want %d, %d", text, stems, words, matches, wantWords, wantMatches)
		}
	})
}
