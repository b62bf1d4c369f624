package recall

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// Ranking policy, shared by claims and artifacts.
//
// Candidates. BM25 over every hit of a broad word is what makes a naive design slow (every matching row is
// scored and sorted), so one statement reads each query term's newest rows, never more than [commonDF]+1,
// with their BM25 for that term: a term with more is common, the others rare. Rare terms' hits are the
// candidates first, by BM25 for all the rare terms together; common terms' hits join only when rare terms
// leave the page unfilled, and then only the newest [candidateCap] of them.
//
// Scores. The best [rerankDepth] candidates (or as many as the caller wants, if more) are scored by one
// model: a weighted sum of named signals (see [signals]), each a value in [0, 1] for one candidate and one
// query. There are no tiers: a claim that holds half of the query's words does not outrank a better match
// because of it; how much each word counts is its IDF. Another signal (a vector similarity, say) joins by
// adding an entry to [signals].
//
// Recency. Updates must rank above what they replace. The fused score has a recency signal, weighted by
// how much of the query a claim holds (see [recencySignal]); beyond it, a newer candidate moves ahead of an
// older one about the same subject (the query terms they hold overlap by [sameSubject] or more, by IDF)
// unless the older one scores more than [recencyMargin] higher. This is ranking only, not the stored supersession of
// supersede.go: both claims stay current (see [updatesFirst]).
//
// Filters. An ftsTable's where (see filter.go: superseded claims out unless history is asked for, a ref)
// applies to the rows each term reads, so filtered rows are never candidates and take no part in the
// scores. A rare term's document frequency is then the rows the filter admits, a common term's the whole
// index's, like the index totals BM25 uses; the difference is a few rows among a thousand or more.
const (
	commonDF      = 1000
	candidateCap  = 1000
	rerankDepth   = 50
	recencyMargin = 0.5
	sameSubject   = 0.5
)

// Subject tests of [updatesFirst] and the redundancy penalty of [diversify].
const (
	sameSubjectText = 0.2
	// queryCover: two claims that each hold this share of the query's informative words are about the
	// subject the query names, whatever words they share.
	queryCover    = 0.7
	sameStatement = 0.4
	// statementMargin: a newer claim that says the same as an older one moves ahead of it unless the older
	// scores more than this higher. Short claims say the same by their context's words (a speaker, a
	// heading) as much as by their own, and one that matches the query far worse states something else;
	// it then does not move ahead of the older by any rule.
	statementMargin = 1.0
	redundancy      = 0.3
	// restated is the word overlap at which a newer claim restates an older one, which context blocks
	// then leave out as superseded.
	restated = 0.75
)

// Presence floors: the IDF-weighted share of the query's informative words that the best claim, or an
// artifact, must hold to answer the query. Below them, what matches is incidental.
const (
	claimFloor    = 0.5
	artifactFloor = 0.6
)

// hit is one ranked row of claims_fts or artifacts_fts.
type hit struct {
	id         int64
	score      float64 // claims: the fused score; artifacts: BM25 (Search) or coverage (answersOnly)
	bm25       float64 // BM25 of the row for the query terms it was found by
	cover      uint64  // bit i set when query term i occurs in the row
	coverage   float64 // IDF-weighted share of the query's informative terms in the row, 0-1
	created    int64
	note       int64     // claims: the newest artifact that holds it
	restatedBy int64     // claims: a newer candidate that restates it (see updatesFirst), or 0
	replyTo    int64     // claims: the question turn it replies to (see addReplies), or 0
	f          [4]string // the row's ftsTable.cols
	signals    [numSignals]float64
}

// ftsTable names one of the two full-text indexes, the table of its rows and the four columns of it that
// results show, qualified by the alias r. When text is set the first and third of those are the indexed
// text, and BM25 is computed from it (see scoreText); otherwise FTS5's bm25() computes it.
type ftsTable struct {
	fts, rows, cols string
	text            bool
	where           string // an SQL condition on r that rows must meet, or ""; see filter.go
	// serial keeps a ranking's statements on one connection, for a caller that runs statements of its own
	// alongside (see matchingRows).
	serial bool
}

var (
	claimIndex    = ftsTable{fts: "claims_fts", rows: "claims", cols: "r.text, r.kind, r.context, r.status", text: true, where: activeClaims}
	artifactIndex = ftsTable{fts: "artifacts_fts", rows: "artifacts", cols: "r.hash, r.kind, r.session, r.task"}
)

// query is a parsed user query.
type query struct {
	terms       []term
	words       []string // the words of the terms, for snippets
	significant int      // terms that are not stopwords
	past        bool     // the query asks in the past tense (did, was, were, had), in English; see updatesFirst
	wants       asked    // what the question asks for; see presence.go
	kindTerms   uint64   // bit i set when term i names what a question for a contact asks for (email, phone...)
	// weight[i] is how informative term i is: its IDF among claims, 0 for a stopword in a query with other
	// terms. Ranking claims sets it; until then every informative term weighs 1.
	weight []float64
}

// pastWords are the English auxiliaries of a question about what happened.
var pastWords = wordSet(`did was were had`)

// questionWords are the English words that open a question whose next word may be its verb.
var questionWords = wordSet(`who what which`)

func parseQuery(text string) query {
	q := query{terms: searchTerms(text, true), wants: askedFor(text)}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
	for _, w := range words {
		q.past = q.past || pastWords[w]
	}
	// "Who asked...", "what caused...": a question word and a verb in the past tense (not "breed", "need").
	if len(words) > 1 && questionWords[words[0]] && len(words[1]) > 4 && strings.HasSuffix(words[1], "ed") &&
		!strings.HasSuffix(words[1], "eed") {
		q.past = true
	}
	if q.wants.contact() {
		for i, t := range q.terms {
			if contactWords[t.alts[0]] {
				q.kindTerms |= 1 << i
			}
		}
	}
	q.weight = make([]float64, len(q.terms))
	for _, t := range q.terms {
		q.words = append(q.words, t.words...)
		if !t.stop {
			q.significant++
		}
	}
	for i, t := range q.terms {
		if !t.stop || q.significant == 0 {
			q.weight[i] = 1
		}
	}
	return q
}

// coverage is the IDF-weighted share of q's informative terms in cover, 0-1.
func (q *query) coverage(cover uint64) float64 {
	return q.coverageWithout(cover, 0)
}

// coverageWithout is [query.coverage] of the terms not in skip (bit i for term i), or of all of them when
// the query has no other informative term.
func (q *query) coverageWithout(cover, skip uint64) float64 {
	var have, all float64
	for i, w := range q.weight {
		if skip&(1<<i) != 0 {
			continue
		}
		all += w
		if cover&(1<<i) != 0 {
			have += w
		}
	}
	if all == 0 && skip != 0 {
		return q.coverage(cover) // nothing but the skipped terms
	}
	if all == 0 {
		return 0
	}
	return have / all
}

// overlap is how much of the query terms two rows hold they share, by weight: |a∩b| / |a∪b|.
func (q *query) overlap(a, b uint64) float64 {
	var both, either float64
	for i, w := range q.weight {
		if (a|b)&(1<<i) != 0 {
			either += w
			if a&b&(1<<i) != 0 {
				both += w
			}
		}
	}
	if either == 0 {
		return 0
	}
	return both / either
}

// mayCover reports whether some row may cover floor of q, given every row of each query term (rows[i] for
// term i, complete).
func (q *query) mayCover(rows []map[int64]bool, floor float64) bool {
	cover := map[int64]uint64{}
	for ti, ids := range rows {
		for id := range ids {
			cover[id] |= 1 << ti
			if q.coverage(cover[id]) >= floor {
				return true
			}
		}
	}
	return false
}

// rankMode says which rows a caller of rank wants, and how they are scored.
type rankMode int

const (
	// allRows: the best rows, by the fused score for claims and by BM25 for artifacts.
	allRows rankMode = iota
	// answersOnly: nothing unless a row may reach [artifactFloor]. A row's score is then its coverage, so
	// that rows that answer come first, the newest first among equals. BM25 is not computed: it costs each
	// term a second pass over the index, a third of a recall's artifact search.
	answersOnly
)

// rank returns up to want best rows of t for q, and whether more rows match. Ranking claims sets q's term
// weights. With answersOnly it returns nothing when the rows that hold each query term show that none
// reaches the floor: they show it whenever no term is common, since a rare term's rows are all read.
func (s *Store) rank(ctx context.Context, t ftsTable, q *query, want int, mode rankMode) ([]hit, bool, error) {
	if len(q.terms) == 0 || want <= 0 {
		return nil, false, nil
	}
	var rare, common []int
	df := make([]int, len(q.terms))
	// rows[i] holds every row of a rare term i, which is how its coverage is checked later.
	rows := make([]map[int64]bool, len(q.terms))
	perTerm, err := s.matchingRows(ctx, t, q, commonDF+1, mode)
	if err != nil {
		return nil, false, err
	}
	if found, err := s.unfoldMissing(ctx, t, q, perTerm); err != nil {
		return nil, false, err
	} else if found {
		if perTerm, err = s.matchingRows(ctx, t, q, commonDF+1, mode); err != nil {
			return nil, false, err
		}
	}
	for i, w := range perTerm {
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
	if mode == answersOnly && len(common) == 0 && !q.mayCover(rows, artifactFloor) {
		return nil, false, nil
	}
	// The candidates: the best of the rare terms' rows by BM25, then, if too few, the common terms'. Only
	// the first max(want, rerankDepth) are kept, and the rest are counted. A row is large, so positions are
	// sorted rather than rows.
	var top []hit
	seen := map[int64]bool{}
	found := 0
	for _, tier := range [][]int{rare, common} {
		if len(tier) == 0 || found > want {
			continue
		}
		got := scoreNewest(perTerm, tier, candidateCap)
		order := make([]int, len(got))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return descending(got[a].bm25, got[b].bm25) })
		for _, i := range order {
			if h := &got[i]; !seen[h.id] {
				seen[h.id] = true
				found++
				if len(top) < max(want, rerankDepth) {
					top = append(top, *h)
				}
			}
		}
	}
	more := found > want
	if err := s.cover(ctx, t, q, df, rows, perTerm, top); err != nil {
		return nil, false, err
	}
	for i := range top {
		top[i].coverage = q.coverage(top[i].cover)
	}
	switch {
	case mode == answersOnly:
		for i := range top {
			top[i].score = top[i].coverage
		}
	case t.text:
		if err := s.fuse(ctx, q, perTerm, top); err != nil {
			return nil, false, err
		}
		slices.SortStableFunc(top, func(a, b hit) int { return descending(a.score, b.score) })
		diversify(top)
		subjects, err := s.noteSubjects(ctx, subjectPairs(q, top))
		if err != nil {
			return nil, false, err
		}
		updatesFirst(q, top, subjects)
		return top[:min(len(top), want)], more, nil
	default:
		for i := range top {
			top[i].score = top[i].bm25
		}
	}
	slices.SortStableFunc(top, func(a, b hit) int { return descending(a.score, b.score) })
	newerFirst(q, top, true)
	return top[:min(len(top), want)], more, nil
}

// diversify lowers the score of each claim by [redundancy] for every better claim from the same artifact,
// and re-sorts top (sorted by score) greedily: the best claim of another note comes before a note's
// second-best unless that one scores clearly higher. The order of a note's own claims does not change.
func diversify(top []hit) {
	shown := map[int64]int{}
	for i := range top {
		best, bestScore := i, math.Inf(-1)
		for j := i; j < len(top); j++ {
			if v := top[j].score - redundancy*float64(shown[top[j].note]); v > bestScore {
				best, bestScore = j, v
			}
		}
		h := top[best]
		copy(top[i+1:best+1], top[i:best])
		h.score = bestScore
		top[i] = h
		shown[h.note]++
	}
}

// updatesFirst moves each claim ahead of the older claims it updates: claims about the same subject (their
// words overlap by [sameSubjectText] or more, or each holds [queryCover] of the query) whose query terms
// overlap by [sameSubject], unless the older scores more than [recencyMargin] higher; or, when the claims'
// words overlap by [sameStatement] and their texts share a word, unless the older scores more than
// [statementMargin] higher.
// A newer claim that does not state the contact a question asks for (see presence.go) does not move ahead
// of an older one that does.
// Claims from notes about the same subject (see notes) move ahead unless the older, or any claim they
// would pass, scores more than [noteRecencyMargin] higher: in a series of notes each about the same subject
// as the last (a weekly digest), moves one after another would otherwise carry the newest above a claim
// that scores far higher. For a question in the past tense nothing moves.
func updatesFirst(q *query, top []hit, notes noteSubjects) {
	n := len(top)
	words, own := make([][]int32, n), make([][]int32, n)
	ids := notes.ids
	for i := range top {
		own[i], words[i] = subjectWords(top[i].f[0], top[i].f[2], ids)
	}
	// sim[i*n+j]: the word overlap of the candidates first at ranks i and j. The rules below only compare
	// an older candidate with a newer one, so candidates of the same time (the claims of one note, say) are
	// left at 0.
	// Two claims whose texts share no word do not say the same, whatever their contexts share: a speaker
	// and a date make most of the words of a short turn. Their overlap counts at most as the same subject.
	sim := make([]float64, n*n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			if top[i].created == top[j].created {
				continue
			}
			v := jaccard(words[i], words[j])
			if v >= sameStatement && jaccard(own[i], own[j]) == 0 {
				v = sameSubjectText
			}
			sim[i*n+j], sim[j*n+i] = v, v
		}
	}
	// A claim that a newer one restates is superseded by it, wherever the two rank.
	for i := range n {
		for j := range n {
			if top[j].created > top[i].created && sim[i*n+j] >= restated {
				top[i].restatedBy = top[j].id
			}
		}
	}
	if q.past {
		// A question in the past tense asks what happened, not what holds now: being newer is no reason
		// to rank ahead ("where did Zoë adopt Toffee?" is not answered by her latest news of Toffee).
		return
	}
	idx := make([]int, n) // idx[k]: the rank at which the candidate now at rank k was first
	for k := range idx {
		idx[k] = k
	}
	// A newer note moves ahead of an older claim with its best claim only: its first in top, which
	// diversify ordered. Its other claims may state other things, which the older claim answers better.
	lead := map[int64]int64{}
	for _, h := range top {
		if _, ok := lead[h.note]; !ok {
			lead[h.note] = h.id
		}
	}
	for i := 0; i < n; i++ {
		// Whatever moves to rank i is newer than what was there, so this ends.
		passed := math.Inf(-1) // the best score of top[i:j], which b would pass
		for j := i + 1; j < n; j++ {
			a, b := &top[i], &top[j]
			passed = max(passed, top[j-1].score)
			if b.created <= a.created || a.signals[sigStates] > b.signals[sigStates] {
				// Older, or it does not state the email address (say) that a states and the question
				// asks for: it cannot be a's update.
				continue
			}
			// b stays below a unless the claims say the same, are about the same subject, or come from
			// notes about the same subject; the cheaper tests first.
			v, gap := sim[idx[i]*n+idx[j]], a.score-b.score
			bothCover := min(a.coverage, b.coverage) >= queryCover
			if v >= sameStatement && gap > statementMargin {
				// It says the same as a with other words of the query: a different statement, which
				// the note rule must not move either.
				continue
			}
			if v < sameStatement && ((v < sameSubjectText && !bothCover) || gap > recencyMargin || q.overlap(a.cover, b.cover) < sameSubject) {
				sameNote := lead[b.note] == b.id && passed-b.score <= noteRecencyMargin &&
					q.overlap(a.cover, b.cover) >= noteSameSubject && notes.same(a.note, b.note)
				if !sameNote {
					continue
				}
			}
			// b moves to just above a; then what is newer than b may move above it in turn.
			bv, bi := *b, idx[j]
			copy(top[i+1:j+1], top[i:j])
			copy(idx[i+1:j+1], idx[i:j])
			top[i], idx[i] = bv, bi
			j = i
			passed = math.Inf(-1)
		}
	}
}

// subjectWords returns the stems of the informative words of a claim's text, and of its text and context
// together, without the context's numbers (dates of a conversation say nothing about its subject), each as
// a sorted set of ids that ids assigns. The text is read once for both.
func subjectWords(text, context string, ids map[string]int32) (own, all []int32) {
	var out []int32
	for k, t := range []string{text, context} {
		if k == 1 {
			own = slices.Compact(slices.Sorted(slices.Values(out)))
		}
		eachWord(t, func(s, e int) {
			w := fold(t[s:e])
			if stopwords()[w] || k == 1 && strings.Trim(w, "0123456789") == "" {
				return
			}
			st := stem(w)
			id, ok := ids[st]
			if !ok {
				id = int32(len(ids))
				ids[st] = id
			}
			out = append(out, id)
		})
	}
	slices.Sort(out)
	return own, slices.Compact(out)
}

// jaccard is |a∩b| / |a∪b| of two sorted sets, 0 for two empty sets.
func jaccard[T cmp.Ordered](a, b []T) float64 {
	both := shared(a, b)
	either := len(a) + len(b) - both
	if either == 0 {
		return 0
	}
	return float64(both) / float64(either)
}

// shared is |a∩b| of two sorted sets.
func shared[T cmp.Ordered](a, b []T) int {
	both := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			both++
			i++
			j++
		}
	}
	return both
}

// newerFirst moves each row ahead of older rows about the same subject that do not score clearly higher:
// by [recencyMargin] for fused scores, or by a factor of 1.5 for BM25 and coverage (relative).
func newerFirst(q *query, top []hit, relative bool) {
	for i := 1; i < len(top); i++ {
		for j := i; j > 0; j-- {
			a, b := top[j-1], top[j]
			clearly := a.score-b.score > recencyMargin
			if relative {
				clearly = a.score > b.score*1.5
			}
			if b.created <= a.created || clearly || q.overlap(a.cover, b.cover) < sameSubject {
				break
			}
			top[j-1], top[j] = b, a
		}
	}
}

// unfoldMissing adds to each term of q that matched no row of t (perTerm, from matchingRows) the spellings
// of its unfolded letters, when t's index holds any of them, and reports whether it added any. They are
// looked up in one statement, and only for a word that matched nothing: as alternatives of every name, they
// would cost every query that names someone a tenth of its time.
func (s *Store) unfoldMissing(ctx context.Context, t ftsTable, q *query, perTerm [][]hit) (bool, error) {
	var b strings.Builder
	asked := 0
	for i := range q.terms {
		if tm := q.terms[i]; len(perTerm[i]) == 0 && len(tm.unfolded) > 0 {
			if asked > 0 {
				b.WriteString(" UNION ALL ")
			}
			alt := term{alts: tm.unfolded}
			fmt.Fprintf(&b, `SELECT %d FROM (SELECT rowid FROM %s WHERE %s MATCH %s LIMIT 1)`, i, t.fts, t.fts, sqlString(alt.expr()))
			asked++
		}
	}
	if asked == 0 {
		return false, nil
	}
	held, err := column[int](ctx, s.db, b.String())
	if err != nil {
		return false, fmt.Errorf("search %s: %w", t.rows, err)
	}
	for _, i := range held {
		q.terms[i].alts = append(q.terms[i].alts, q.terms[i].unfolded...)
	}
	for i := range q.terms {
		q.terms[i].unfolded = nil
	}
	return len(held) > 0, nil
}

// matchingRows returns, for each term, the rows of t that contain it, newest first, but at most limit of
// them, in one statement. Each comes loaded with its columns and with its BM25 for that term alone (allRows),
// else 1. For claims it also sets q's term weights.
func (s *Store) matchingRows(ctx context.Context, t ftsTable, q *query, limit int, mode rankMode) ([][]hit, error) {
	score := "1.0"
	if mode == allRows {
		score = "-bm25(" + t.fts + ")"
		if t.text {
			score = "0.0" // see scoreText
		}
	}
	var b strings.Builder
	for i, tm := range q.terms {
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		fmt.Fprintf(&b, `SELECT * FROM (SELECT %d, f.rowid, %s, r.created, %s FROM %s f JOIN %s r ON r.id = f.rowid
			WHERE %s MATCH %s%s ORDER BY f.rowid DESC LIMIT %d)`,
			i, score, t.cols, t.fts, t.rows, t.fts, sqlString(tm.expr()), andWhere(t.where), limit)
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
	out := make([][]hit, len(q.terms))
	// A term whose rows reach limit while later terms' rows are still read is common: its rows are counted
	// meanwhile, on another connection where the store has one (see countRows).
	counts := make([]int64, len(q.terms))
	counted := make([]bool, len(q.terms))
	var wg sync.WaitGroup
	var countErr error
	var mu sync.Mutex
	defer wg.Wait()
	var averages string
	for r.Next() {
		var i int
		var h hit
		if err := r.Scan(&i, &h.id, &h.bm25, &h.created, &h.f[0], &h.f[1], &h.f[2], &h.f[3]); err != nil {
			return nil, fmt.Errorf("search %s: %w", t.rows, err)
		}
		if i < 0 {
			averages = h.f[0]
			continue
		}
		out[i] = append(out[i], h)
		if textScored && !t.serial && len(out[i]) == limit && i < len(q.terms)-1 {
			counted[i] = true
			wg.Go(func() {
				if err := s.countRows(ctx, t, q, []int{i}, counts); err != nil {
					mu.Lock()
					countErr = cmp.Or(countErr, err)
					mu.Unlock()
				}
			})
		}
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("search %s: %w", t.rows, err)
	}
	r.Close() // scoreText's statement needs the connection
	if textScored && averages != "" {
		if err := s.scoreText(ctx, t, q, limit, out, averages, counted, func() ([]int64, error) {
			wg.Wait()
			return counts, countErr
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// scoreNewest returns the newest limit rows that hold any of the terms that tier indexes in perTerm, newest
// first, each with its BM25 for those terms together. The scores come from the terms' own: FTS5's BM25 of
// an OR of phrases is the sum of each phrase's BM25, since a phrase's weight depends on the whole table and
// not on the other phrases. The sum is taken in tier order, as FTS5 adds the phrases of an expression, so
// it matches what FTS5 would return to the last bit.
//
// perTerm may hold only a term's newest rows (see matchingRows) and still be enough: a row among the
// newest limit that hold any tier term has fewer than limit newer rows holding any one of its terms, so
// each of its terms lists it.
func scoreNewest(perTerm [][]hit, tier []int, limit int) []hit {
	// Each term's rows are newest first: merge them, one row per id, newest first.
	next := make([]int, len(tier)) // next[k]: the first row of perTerm[tier[k]] not taken yet
	var out []hit
	for len(out) < limit {
		newest, found := int64(0), false
		for k, ti := range tier {
			if rows := perTerm[ti]; next[k] < len(rows) && (!found || rows[next[k]].id > newest) {
				newest, found = rows[next[k]].id, true
			}
		}
		if !found {
			break
		}
		var h *hit
		for k, ti := range tier {
			if rows := perTerm[ti]; next[k] < len(rows) && rows[next[k]].id == newest {
				if h == nil {
					out = append(out, rows[next[k]])
					h = &out[len(out)-1]
				} else {
					h.bm25 += rows[next[k]].bm25
				}
				next[k]++
			}
		}
	}
	return out
}

// descending orders a before b when a is greater, as a comparison function for a stable sort, best first.
func descending(a, b float64) int {
	switch {
	case a > b:
		return -1
	case b > a:
		return 1
	}
	return 0
}

// Signals of the claim ranking, each a value in [0, 1].
const (
	sigBM25     = iota // BM25 of the claim's text and context, relative to the best candidate
	sigNote            // what the claim's artifact as a whole holds of the query, relative to the best candidate's
	sigCoverage        // the IDF-weighted share of the query's informative terms the claim holds
	sigLength          // a prior against claims too short to say anything: informative words, up to 6
	sigStates          // 1 when the question asks for a kind of answer (presence.go) and the claim states one
	sigRecency         // how new the claim is among the candidates, times its coverage cubed; see [recencySignal]
	numSignals
)

// signals names the signals and gives their weights in the fused score.
var signals = [numSignals]struct {
	name   string
	weight float64
}{
	sigBM25:     {"bm25", 1},
	sigNote:     {"note", 1},
	sigCoverage: {"coverage", 1.2},
	sigLength:   {"length", 0.5},
	sigStates:   {"states", 1},
	sigRecency:  {"recency", 1},
}

// SignalNames returns the names of the ranking signals, in the order of [ScoreParts].
func SignalNames() []string {
	out := make([]string, numSignals)
	for i, s := range signals {
		out[i] = s.name
	}
	return out
}

// fuse computes every signal for the claims in top and sets their score to the weighted sum.
func (s *Store) fuse(ctx context.Context, q *query, perTerm [][]hit, top []hit) error {
	if len(top) == 0 {
		return nil
	}
	notes, err := s.noteScores(ctx, q, perTerm, top)
	if err != nil {
		return err
	}
	var bestBM25, bestNote float64
	oldest, newest := top[0].created, top[0].created
	for i := range top {
		bestBM25 = max(bestBM25, top[i].bm25)
		bestNote = max(bestNote, notes[i])
		oldest, newest = min(oldest, top[i].created), max(newest, top[i].created)
	}
	for i := range top {
		h := &top[i]
		h.signals[sigBM25] = ratio(h.bm25, bestBM25)
		h.signals[sigNote] = ratio(notes[i], bestNote)
		h.signals[sigLength] = min(1, float64(informativeWords(h.f[0]))/6)
		if q.wants.contact() && q.wants.states(h.f[0], q) {
			// An email address answers "email address" without the words: the coverage of a claim that
			// states one is that of the question's other words.
			h.signals[sigStates] = 1
			h.coverage = q.coverageWithout(h.cover, q.kindTerms)
		}
		h.signals[sigCoverage] = h.coverage
		h.signals[sigRecency] = recencySignal(q, h, oldest, newest)
		h.score = 0
		for k, v := range h.signals {
			h.score += signals[k].weight * v
		}
	}
	return nil
}

// recencySignal is where h's time falls between the oldest and the newest candidate (0 to 1), times its
// coverage cubed: a newer claim gains over an older one in proportion to how much of the query it holds,
// so a claim that states the subject the query names gains nearly the whole weight and one that shares a
// name or a word of it gains next to nothing. It leaves [updatesFirst] the cases where the newer claim
// holds less of the query than the one it updates. A question in the past tense asks what happened, not
// what holds now: there it is 0.
func recencySignal(q *query, h *hit, oldest, newest int64) float64 {
	if q.past || newest <= oldest {
		return 0
	}
	return float64(h.created-oldest) / float64(newest-oldest) * h.coverage * h.coverage * h.coverage
}

func ratio(a, b float64) float64 {
	if b <= 0 || math.IsNaN(a) {
		return 0
	}
	return a / b
}

// informativeWords counts the words of text that are not stopwords.
func informativeWords(text string) int {
	n := 0
	eachWord(text, func(s, e int) {
		if !stopwords()[strings.ToLower(text[s:e])] {
			n++
		}
	})
	return n
}

// noteScores returns, for each claim of top, the best score for q among the artifacts that hold it: BM25
// over the artifact's claims, each query term counted once per claim of the artifact that holds it (in
// its text or context), without length normalization. The claims are those in perTerm, the rows each
// term matched: all of them for a rare term, and for a common one those among the candidates in top.
//
// FTS5's bm25() over the artifact index would count the words themselves, but it counts every term's
// rows in a second pass over the index, which costs more than the rest of a selective recall.
func (s *Store) noteScores(ctx context.Context, q *query, perTerm [][]hit, top []hit) ([]float64, error) {
	var all []hit
	seen := map[int64]bool{}
	for _, h := range top {
		if !seen[h.id] {
			seen[h.id] = true
			all = append(all, h)
		}
	}
	// A common term's rows are only its newest: they say little about any one note, and looking up the
	// notes of a thousand rows would cost a broad recall more than its ranking. Its candidates count.
	inTop := make(map[int64]bool, len(top))
	for _, h := range top {
		inTop[h.id] = true
	}
	counted := func(ti int, h hit) bool {
		return q.weight[ti] > 0 && (len(perTerm[ti]) <= commonDF || inTop[h.id])
	}
	for ti, rows := range perTerm {
		for _, h := range rows {
			if counted(ti, h) && !seen[h.id] {
				seen[h.id] = true
				all = append(all, h)
			}
		}
	}
	rows, err := s.query(ctx, `SELECT claim, artifact FROM evidence WHERE claim`+inIDs, idList(all))
	if err != nil {
		return nil, fmt.Errorf("note scores: %w", err)
	}
	byClaim := map[int64][]int64{}
	for rows.Next() {
		var c, a int64
		if err := rows.Scan(&c, &a); err != nil {
			rows.Close()
			return nil, fmt.Errorf("note scores: %w", err)
		}
		byClaim[c] = append(byClaim[c], a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("note scores: %w", err)
	}
	// tf[artifact][term]: the artifact's claims that hold the term.
	tf := map[int64][]int{}
	for ti, rows := range perTerm {
		for _, h := range rows {
			if !counted(ti, h) {
				continue
			}
			for _, a := range byClaim[h.id] {
				if tf[a] == nil {
					tf[a] = make([]int, len(q.terms))
				}
				tf[a][ti]++
			}
		}
	}
	const k1 = 1.2
	score := func(a int64) float64 {
		v := 0.0
		for ti, f := range tf[a] {
			v += q.weight[ti] * float64(f) * (k1 + 1) / (float64(f) + k1)
		}
		return v
	}
	out := make([]float64, len(top))
	for i, h := range top {
		for _, a := range byClaim[h.id] {
			out[i] = max(out[i], score(a))
			top[i].note = max(top[i].note, a)
		}
	}
	return out, nil
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
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	return idArray(ids)
}

// idArray renders ids as a JSON array, in their order, for inIDs.
func idArray(ids []int64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteByte(']')
	return b.String()
}

// inIDs is the SQL set of the ids passed as one idArray argument.
const inIDs = ` IN (SELECT value FROM json_each(?))`

// cover sets the cover bits of hits: which query terms each row contains. rows holds the complete row set
// of each rare term; perTerm the newest rows of each term (see matchingRows). A common term's newest rows are
// all its rows from the oldest of them on, so they answer for the hits that are no older; for older hits the
// index is probed.
func (s *Store) cover(ctx context.Context, t ftsTable, q *query, df []int, rows []map[int64]bool, perTerm [][]hit, hits []hit) error {
	if len(hits) == 0 {
		return nil
	}
	idx := make(map[int64]int, len(hits))
	lo, hi := hits[0].id, hits[0].id
	for i, h := range hits {
		idx[h.id] = i
		lo, hi = min(lo, h.id), max(hi, h.id)
	}
	for ti, tm := range q.terms {
		if df[ti] == 0 || q.weight[ti] == 0 {
			continue
		}
		if rows[ti] != nil {
			for i, h := range hits {
				if rows[ti][h.id] {
					hits[i].cover |= 1 << ti
				}
			}
			continue
		}
		if newest := perTerm[ti]; len(newest) > 0 && lo >= newest[len(newest)-1].id {
			for _, h := range newest {
				if i, ok := idx[h.id]; ok {
					hits[i].cover |= 1 << ti
				}
			}
			continue
		}
		// The term's rows between the first and the last hit, which FTS5 seeks to, not the hits themselves:
		// FTS5 cannot seek to a set of rowids and would read the term's every row once per hit.
		got, err := column[int64](ctx, s.db, `SELECT rowid FROM `+t.fts+` WHERE `+t.fts+` MATCH `+sqlString(tm.expr())+
			` AND rowid BETWEEN ? AND ?`, lo, hi)
		if err != nil {
			return fmt.Errorf("search %s: %w", t.rows, err)
		}
		for _, id := range got {
			if i, ok := idx[id]; ok {
				hits[i].cover |= 1 << ti
			}
		}
	}
	return nil
}
