package recall

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Ranking policy, shared by claims and artifacts.
//
// BM25 over every hit of a broad word is what makes a naive design slow (every matching row is scored and
// sorted), so one statement reads each query word's newest rows, never more than [commonDF]+1, with their
// BM25 for that word: a word with more is common, the others rare. Rare words' hits are ranked first, by
// BM25 for all the rare words together. Common words' hits are ranked only when rare words leave the page
// unfilled, and then only the newest [candidateCap] of them. A claim that matches a rare word therefore
// ranks above one that matches only common words, and a broad query ranks its newest hits, which also suits
// "the newer statement wins".
//
// The best candidates are then re-ranked: those that answer the query (see [answers]) come first, and a newer
// hit moves ahead of an older one that matched the same query words unless the older one scores more than
// [newerWins] times higher.
const (
	commonDF     = 1000
	candidateCap = 1000
	rerankDepth  = 50
	newerWins    = 1.5
)

// hit is one ranked row of claims_fts or artifacts_fts.
type hit struct {
	id      int64
	score   float64 // BM25, or for answersOnly the query words the row holds; higher is better
	cover   uint64  // bit i set when query word i occurs in the row
	created int64
	f       [4]string // the row's ftsTable.cols
}

// answers reports whether a row that contains c of the n significant query words answers the query: every
// word of a one-word query, otherwise at least two words and at least half of them. One shared word out of
// several is incidental.
func answers(c, n int) bool {
	if n == 0 {
		return false
	}
	if n == 1 {
		return c == 1
	}
	return c >= 2 && 2*c >= n
}

// ftsTable names one of the two full-text indexes, the table of its rows and the four columns of it that
// results show, qualified by the alias r. When text is set the first of those is the indexed text, and BM25
// is computed from it (see scoreText); otherwise FTS5's bm25() computes it.
type ftsTable struct {
	fts, rows, cols string
	text            bool
	where           string // an SQL condition on r that rows must meet, or ""; see filter.go
}

var (
	claimIndex    = ftsTable{fts: "claims_fts", rows: "claims", cols: "r.text, r.kind, '', ''", text: true, where: activeClaims}
	artifactIndex = ftsTable{fts: "artifacts_fts", rows: "artifacts", cols: "r.hash, r.kind, r.session, r.task"}
)

// query is a parsed user query.
type query struct {
	words       []string
	significant int // words that are not stopwords
}

func parseQuery(q string) query {
	words := queryWords(q)
	n := 0
	for _, w := range words {
		if !stopwords[w] {
			n++
		}
	}
	return query{words: words, significant: n}
}

func (q query) answers(h hit) bool {
	return answers(bits.OnesCount64(h.cover), q.significant)
}

// mayAnswer reports whether some row answers q, given every row of each query word (rows[i] for word i,
// complete). Stopwords count only in a query of nothing else, as in [Store.cover].
func (q query) mayAnswer(rows []map[int64]bool) bool {
	count := map[int64]int{}
	for wi, ids := range rows {
		if stopwords[q.words[wi]] && q.significant > 0 {
			continue
		}
		for id := range ids {
			count[id]++
			if answers(count[id], q.significant) {
				return true
			}
		}
	}
	return false
}

// rankMode says which rows a caller of rank wants, and how they are scored.
type rankMode int

const (
	// allRows: the best rows by BM25, answering or not.
	allRows rankMode = iota
	// answersOnly: nothing unless a row may answer the query. A row's score is then the number of query words
	// it holds, so that rows that answer come first and the newest first among equals. BM25 is not computed:
	// it costs each word a second pass over the index, a third of a recall's artifact search.
	answersOnly
)

// rank returns up to want best rows of t for q, and whether more rows match. With answersOnly it returns
// nothing when the rows that hold each query word show that none answers q: they show it whenever no word is
// common, since a rare word's rows are all read.
func (s *Store) rank(ctx context.Context, t ftsTable, q query, want int, mode rankMode) ([]hit, bool, error) {
	if len(q.words) == 0 || want <= 0 {
		return nil, false, nil
	}
	var rare, common []int
	df := make([]int, len(q.words))
	// rows[i] holds every row of a rare word i, which is how its coverage is checked later.
	rows := make([]map[int64]bool, len(q.words))
	perWord, err := s.matchingRows(ctx, t, q.words, commonDF+1, mode)
	if err != nil {
		return nil, false, err
	}
	for i, w := range perWord {
		n := len(w)
		df[i] = n
		if n <= commonDF {
			rows[i] = make(map[int64]bool, n)
			for _, h := range w {
				rows[i][h.id] = true
			}
		}
		switch {
		case n == 0:
		case n <= commonDF:
			rare = append(rare, i)
		default:
			common = append(common, i)
		}
	}
	if mode == answersOnly && len(common) == 0 && !q.mayAnswer(rows) {
		return nil, false, nil
	}
	var cands []hit
	seen := map[int64]bool{}
	for _, tier := range [][]int{rare, common} {
		if len(tier) == 0 || len(cands) > want {
			continue
		}
		got := scoreNewest(perWord, tier, candidateCap)
		sort.SliceStable(got, func(i, j int) bool { return got[i].score > got[j].score })
		for _, h := range got {
			if !seen[h.id] {
				seen[h.id] = true
				cands = append(cands, h)
			}
		}
	}
	more := len(cands) > want
	top := cands[:min(len(cands), max(want, rerankDepth))]
	if err := s.cover(ctx, t, q, df, rows, top); err != nil {
		return nil, false, err
	}
	if mode == answersOnly {
		// The candidates were counted within their tier; a row holds the other tier's words too.
		for i := range top {
			top[i].score = float64(bits.OnesCount64(top[i].cover))
		}
	}
	sort.SliceStable(top, func(i, j int) bool {
		ai, aj := q.answers(top[i]), q.answers(top[j])
		if ai != aj {
			return ai
		}
		return top[i].score > top[j].score
	})
	// Newer first among rows about the same thing: one insertion pass over neighbours with the same words.
	for i := 1; i < len(top); i++ {
		for j := i; j > 0; j-- {
			a, b := top[j-1], top[j]
			if a.cover != b.cover || b.created <= a.created || a.score > b.score*newerWins {
				break
			}
			top[j-1], top[j] = b, a
		}
	}
	return top[:min(len(top), want)], more, nil
}

// matchingRows returns, for each word, the rows of t that contain it, newest first, but at most limit of
// them, in one statement. Each comes loaded with its columns and scored for that word alone: by BM25 for
// allRows, else 1.
func (s *Store) matchingRows(ctx context.Context, t ftsTable, words []string, limit int, mode rankMode) ([][]hit, error) {
	score := "1.0"
	if mode == allRows {
		score = "-bm25(" + t.fts + ")"
		if t.text {
			score = "0.0" // see scoreText
		}
	}
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		fmt.Fprintf(&b, `SELECT * FROM (SELECT %d, f.rowid, %s, r.created, %s FROM %s f JOIN %s r ON r.id = f.rowid
			WHERE %s MATCH %s%s ORDER BY f.rowid DESC LIMIT %d)`,
			i, score, t.cols, t.fts, t.rows, t.fts, sqlString(phrase(w)), andWhere(t.where), limit)
	}
	textScored := mode == allRows && t.text
	if textScored {
		fmt.Fprintf(&b, averagesSQL, t.fts)
	}
	r, err := s.db.QueryContext(ctx, b.String())
	if err != nil {
		return nil, fmt.Errorf("search %s: %w", t.rows, err)
	}
	defer r.Close()
	out := make([][]hit, len(words))
	var averages string
	for r.Next() {
		var i int
		var h hit
		if err := r.Scan(&i, &h.id, &h.score, &h.created, &h.f[0], &h.f[1], &h.f[2], &h.f[3]); err != nil {
			return nil, fmt.Errorf("search %s: %w", t.rows, err)
		}
		if i < 0 {
			averages = h.f[0]
			continue
		}
		out[i] = append(out[i], h)
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("search %s: %w", t.rows, err)
	}
	r.Close() // scoreText's statement needs the connection
	if textScored && slices.ContainsFunc(out, func(rows []hit) bool { return len(rows) > 0 }) {
		if err := s.scoreText(ctx, t, words, limit, out, averages); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// scoreNewest returns the newest limit rows that hold any of the words that tier indexes in perWord, newest
// first, each scored by BM25 for those words together. The scores come from the words' own: FTS5's BM25 of an
// OR of phrases is the sum of each phrase's BM25, since a phrase's weight depends on the whole table and
// not on the other phrases. The sum is taken in tier order, as FTS5 adds the phrases of an expression, so it
// matches what FTS5 would return to the last bit.
//
// perWord may hold only a word's newest rows (see matchingRows) and still be enough: a row among the newest
// limit that hold any tier word has fewer than limit newer rows holding any one of its words, so each of its
// words lists it.
func scoreNewest(perWord [][]hit, tier []int, limit int) []hit {
	byID := map[int64]*hit{}
	for _, wi := range tier {
		for _, h := range perWord[wi] {
			if got := byID[h.id]; got != nil {
				got.score += h.score
				continue
			}
			c := h
			byID[h.id] = &c
		}
	}
	out := make([]hit, 0, len(byID))
	for _, h := range byID {
		out = append(out, *h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id > out[j].id })
	return out[:min(len(out), limit)]
}

// sqlString quotes s as an SQL string literal.
//
// MATCH expressions are written into the statement text rather than bound: FTS5 asks SQLite for the value
// while planning, which makes SQLite prepare a statement again whenever that parameter is bound, so a bound
// MATCH costs two parses per execution and an inlined one costs one. Statements with inlined expressions
// are not cached.
func sqlString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// idList renders the ids of hits as a JSON array, for `IN (SELECT value FROM json_each(?))`, which keeps
// the statement text fixed so that it is prepared once.
func idList(hits []hit) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, h := range hits {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(h.id, 10))
	}
	b.WriteByte(']')
	return b.String()
}

// inIDs is the SQL set of the ids passed as one idList argument.
const inIDs = ` IN (SELECT value FROM json_each(?))`

// cover sets the cover bits of hits: which query words each row contains. rows holds the complete row set
// of each rare word; common words are probed for the hits only.
func (s *Store) cover(ctx context.Context, t ftsTable, q query, df []int, rows []map[int64]bool, hits []hit) error {
	if len(hits) == 0 {
		return nil
	}
	idx := make(map[int64]int, len(hits))
	for i, h := range hits {
		idx[h.id] = i
	}
	ids := idList(hits)
	for wi, w := range q.words {
		if df[wi] == 0 || stopwords[w] && q.significant > 0 {
			continue
		}
		if rows[wi] != nil {
			for i, h := range hits {
				if rows[wi][h.id] {
					hits[i].cover |= 1 << wi
				}
			}
			continue
		}
		got, err := column[int64](ctx, s.db, `SELECT rowid FROM `+t.fts+` WHERE `+t.fts+` MATCH `+sqlString(phrase(w))+
			` AND rowid`+inIDs, ids)
		if err != nil {
			return fmt.Errorf("search %s: %w", t.rows, err)
		}
		for _, id := range got {
			if i, ok := idx[id]; ok {
				hits[i].cover |= 1 << wi
			}
		}
	}
	return nil
}
