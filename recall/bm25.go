package recall

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// BM25 of claims, computed here rather than by FTS5's bm25().
//
// bm25() counts each query word's rows with a second pass over the index, which costs a selective recall more
// than the pass that finds the rows (a third of its claim search on a 100,000-claim store). The rows that
// pass finds hold the claim text, so the same score comes from the text and the index's totals instead:
// a rare word's rows are all read and counted, and a common word's are counted by one statement.
//
// The arithmetic is FTS5's, operation for operation, so a row that tokenizes the same way here scores the
// same to the last bit (TestScoreNewestMatchesFTS). Words are counted with [stem] and [fold], which stand in
// for the index's Porter stemmer: a word the index matched counts at least once in its rows, and a second
// inflection of it in the same claim may go uncounted.

// bm25 is FTS5's BM25 of one word in one row: idf of the word, f its occurrences in the row, d the row's
// words, avgdl the index's mean words per row.
func bm25(idf, f, d, avgdl float64) float64 {
	k1, b := 1.2, 0.75
	return idf * (float64(f*(k1+1)) / (f + float64(k1*(1-b+float64(b*d)/avgdl))))
}

// idf is FTS5's inverse document frequency of a word that nHit of nRow rows hold.
func idf(nRow, nHit int64) float64 {
	v := math.Log((float64(nRow-nHit) + 0.5) / (float64(nHit) + 0.5))
	if !(v > 0) { // FTS5 tests v <= 0; NaN, from counts that disagree, takes the floor too
		v = 1e-6
	}
	return v
}

// averagesSQL selects an FTS5 index's averages record, as a row that matchingRows tells from the others by
// its first column, -1.
const averagesSQL = ` UNION ALL SELECT -1, 0, 0.0, 0, block, '', '', '' FROM %s_data WHERE id = 1`

// errAverages reports an averages record that does not decode.
var errAverages = errors.New("unreadable index totals")

// parseAverages decodes an FTS5 averages record: the rows in the index, then the words in each column.
func parseAverages(rec string) (rows, words int64, err error) {
	r, n := sqliteVarint(rec)
	if n == 0 {
		return 0, 0, errAverages
	}
	for rec = rec[n:]; rec != ""; rec = rec[n:] {
		var w int64
		if w, n = sqliteVarint(rec); n == 0 {
			return 0, 0, errAverages
		}
		words += w
	}
	return r, words, nil
}

// sqliteVarint decodes SQLite's variable-length integer at the start of s: big-endian groups of 7 bits, each
// byte but the last with its high bit set, and a ninth byte, if any, contributing all 8 bits. It returns the
// value and the bytes read, 0 when s ends first.
func sqliteVarint(s string) (int64, int) {
	var v uint64
	for i := 0; i < len(s) && i < 9; i++ {
		c := uint64(s[i])
		if i == 8 {
			return int64(v<<8 | c), 9
		}
		v = v<<7 | c&0x7f
		if c < 0x80 {
			return int64(v), i + 1
		}
	}
	return 0, 0
}

// scoreText sets the BM25 of every row in perTerm for its term (q.terms[i] for perTerm[i]), from the row's
// text and context in f[0] and f[2] and the index totals in averages, and sets q's term weights to their
// IDF. A term with limit rows or more, a common term, has its rows counted (see countRows); the others have
// all their rows in perTerm.
//
// The terms that alongside marks are being counted by others; wait returns their counts.
func (s *Store) scoreText(ctx context.Context, t ftsTable, q *query, limit int, perTerm [][]hit, averages string,
	alongside []bool, wait func() ([]int64, error)) error {
	nRow, nWords, err := parseAverages(averages)
	if err != nil || nRow < 0 {
		return fmt.Errorf("search %s: %w", t.rows, cmp.Or(err, errAverages))
	}
	if nRow == 0 {
		return nil
	}
	avgdl := float64(nWords) / float64(nRow)
	hits := make([]int64, len(q.terms))
	var common []int
	for i, rows := range perTerm {
		hits[i] = int64(len(rows))
		if len(rows) >= limit {
			common = append(common, i)
		}
	}
	var here, there []int // common terms to count here, and those counted alongside
	for _, i := range common {
		if alongside[i] {
			there = append(there, i)
		} else {
			here = append(here, i)
		}
	}
	if len(here) > 0 {
		if err := s.countRows(ctx, t, q, here, hits); err != nil {
			return fmt.Errorf("search %s: %w", t.rows, err)
		}
	}
	if len(there) > 0 {
		counts, err := wait()
		if err != nil {
			return fmt.Errorf("search %s: %w", t.rows, err)
		}
		for _, i := range there {
			hits[i] = counts[i]
		}
	}
	for i, tm := range q.terms {
		stems := tm.stems()
		weight := idf(nRow, hits[i])
		if q.weight[i] > 0 {
			q.weight[i] = termWeight(tm, nRow, hits[i])
		}
		for j := range perTerm[i] {
			h := &perTerm[i][j]
			d, f := wordCounts(h.f[0], stems)
			if h.f[2] != "" {
				d2, f2 := wordCounts(h.f[2], stems)
				d, f = d+d2, f+f2
			}
			h.bm25 = bm25(weight, float64(max(f, 1)), float64(d), avgdl)
		}
	}
	return nil
}

// stems returns what [wordCounts] counts for the term: the stem of each alternative that is one word, and
// of the first word of each that is several.
func (t term) stems() []string {
	out := make([]string, 0, len(t.alts)+len(t.joined))
	for _, a := range slices.Concat(t.alts, t.joined) {
		w, _, _ := strings.Cut(a, " ")
		out = append(out, stem(fold(w)))
	}
	return out
}

// wordCounts returns how many words text holds, as the index tokenizer cuts them (runs of letters and
// digits), and how many of them have one of the stems.
func wordCounts(text string, stems []string) (words, matches int) {
	eachWord(text, func(start, end int) {
		words++
		if w := text[start:end]; isASCII(w) && !firstLetterOf(w[0], stems) {
			// An ASCII word's stem starts with its first letter in lower case: no stem can be it.
			return
		}
		st := stem(fold(text[start:end]))
		for _, s := range stems {
			if st == s {
				matches++
				break
			}
		}
	})
	return words, matches
}

// firstLetterOf reports whether one of stems starts with the ASCII byte c in lower case.
func firstLetterOf(c byte, stems []string) bool {
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	for _, s := range stems {
		if s != "" && s[0] == c {
			return true
		}
	}
	return false
}
