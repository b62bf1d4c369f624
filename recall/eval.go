package recall

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"

	"fmt"
	"io"
	"sort"
	"strings"
)

// EvalQuery is one labelled query of an evaluation file (one JSON object a line).
type EvalQuery struct {
	Query   string   `json:"query"`
	Expect  string   `json:"expect"`  // "claim": some stored note answers it; "none": none does
	Answers []string `json:"answers"` // hex prefixes of the hashes of the artifacts that answer it
	Tag     string   `json:"tag"`
	Stale   []string `json:"stale,omitempty"` // artifacts that stated the fact before it changed
}

// EvalScores are the figures of [Store.Eval] over a set of queries. Recall at k is the share of the "claim"
// queries with a hit among the first k results, MRR the mean of 1/rank of the first hit (0 when none is in
// the first [EvalLimit]); both are 0 for a set without "claim" queries. PresenceAccuracy is the share of
// all queries whose presence was right: [PresenceNone] exactly for the "none" queries. Errors counts the
// lines that could not be parsed or run; they count as misses.
type EvalScores struct {
	Queries          int     `json:"queries"`
	RecallAt1        float64 `json:"recall_at_1"`
	RecallAt5        float64 `json:"recall_at_5"`
	RecallAt10       float64 `json:"recall_at_10"`
	MRR              float64 `json:"mrr"`
	PresenceAccuracy float64 `json:"presence_accuracy"`
	Errors           int     `json:"errors"`
}

// EvalReport is what [Store.Eval] measured: the scores over all queries and by tag. Its JSON form is the
// scores' fields and "by_tag"; the update check and the per-query results are for text output only.
type EvalReport struct {
	EvalScores
	ByTag map[string]EvalScores `json:"by_tag"`
	// Updates counts the queries with stale notes whose results name an answer or a stale note, and
	// UpdatesInOrder those where the first result that names an answer comes before every result that
	// names a stale note.
	Updates        int `json:"-"`
	UpdatesInOrder int `json:"-"`
	// Results holds one entry per query line, in file order.
	Results []EvalResult `json:"-"`
}

// EvalResult is how one query fared.
type EvalResult struct {
	Line     int
	Query    EvalQuery
	Presence Presence
	Rank     int    // 1-based rank of the first result that names an answer; 0 when none does
	Stale    int    // 1-based rank of the first result that names a stale note; 0 when none does
	Err      string // why the line failed, or ""
}

// EvalLimit is the number of results [Store.Eval] asks [Store.Recall] for.
const EvalLimit = 10

// maxEvalLine bounds one line of an evaluation file.
const maxEvalLine = 1 << 20

// Eval runs every query of the JSONL evaluation file r through [Store.Recall] with limit [EvalLimit], as
// memoree recall does, and scores the results: a result is a hit when it names one of the query's answers
// (a claim through its evidence, an artifact by its hash; answers are hash prefixes). Claims rank before
// artifacts. Blank lines are skipped; a line that does not parse, has an expect other than "claim" or
// "none", or whose recall fails counts as an error, and Eval goes on. It returns an error only when r
// cannot be read or ctx is done.
func (s *Store) Eval(ctx context.Context, r io.Reader) (EvalReport, error) {
	return evalQueries(ctx, r, func(ctx context.Context, q string) ([][]string, Presence, error) {
		res, err := s.Recall(ctx, q, EvalLimit)
		if err != nil {
			return nil, "", err
		}
		return res.named(), res.Presence, nil
	})
}

// named returns, for each result in rank order (claims, then artifacts), the artifacts it names.
func (r RecallResult) named() [][]string {
	var out [][]string
	for _, c := range r.Claims {
		var arts []string
		for _, e := range c.Evidence {
			arts = append(arts, e.Artifact)
		}
		out = append(out, arts)
	}
	for _, a := range r.Artifacts {
		out = append(out, []string{a.Artifact})
	}
	return out
}

// searchFunc runs one query and returns, for each result in rank order, the artifacts it names, and the
// presence it reports.
type searchFunc func(ctx context.Context, query string) ([][]string, Presence, error)

// evalQueries scores search on the queries of r; see [Store.Eval].
func evalQueries(ctx context.Context, r io.Reader, search searchFunc) (EvalReport, error) {
	rep := EvalReport{ByTag: map[string]EvalScores{}}
	type tally struct {
		queries, claims, errors, at1, at5, at10, presence int
		rr                                                float64
	}
	var all tally
	tags := map[string]*tally{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEvalLine)
	for line := 1; sc.Scan(); line++ {
		if err := ctx.Err(); err != nil {
			return rep, fmt.Errorf("eval: %w", err)
		}
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		res := EvalResult{Line: line}
		err := json.Unmarshal([]byte(text), &res.Query)
		q := res.Query
		if err == nil {
			err = q.check()
		}
		var named [][]string
		if err == nil {
			named, res.Presence, err = search(ctx, q.Query)
			if ctx.Err() != nil {
				return rep, fmt.Errorf("eval: %w", ctx.Err())
			}
		}
		// A line that does not parse has no tag: it counts only overall.
		tg := &tally{}
		if res.Query.Tag != "" || err == nil {
			if tags[q.Tag] == nil {
				tags[q.Tag] = &tally{}
			}
			tg = tags[q.Tag]
		}
		for _, t := range []*tally{&all, tg} {
			t.queries++
			if q.Expect == "claim" || err != nil && q.Expect != "none" {
				t.claims++
			}
		}
		if err != nil {
			res.Err = err.Error()
			all.errors++
			tg.errors++
			rep.Results = append(rep.Results, res)
			continue
		}
		res.Rank = firstNaming(named, q.Answers)
		res.Stale = firstNaming(named, q.Stale)
		for _, t := range []*tally{&all, tg} {
			if (res.Presence == PresenceNone) == (q.Expect == "none") {
				t.presence++
			}
			if q.Expect != "claim" || res.Rank == 0 {
				continue
			}
			t.rr += 1 / float64(res.Rank)
			if res.Rank <= 1 {
				t.at1++
			}
			if res.Rank <= 5 {
				t.at5++
			}
			t.at10++
		}
		if len(q.Stale) > 0 && (res.Rank > 0 || res.Stale > 0) {
			rep.Updates++
			if res.Rank > 0 && (res.Stale == 0 || res.Rank < res.Stale) {
				rep.UpdatesInOrder++
			}
		}
		rep.Results = append(rep.Results, res)
	}
	if err := sc.Err(); err != nil {
		return rep, fmt.Errorf("eval: read: %w", err)
	}
	scores := func(t *tally) EvalScores {
		e := EvalScores{Queries: t.queries, Errors: t.errors}
		if t.claims > 0 {
			n := float64(t.claims)
			e.RecallAt1, e.RecallAt5, e.RecallAt10, e.MRR = float64(t.at1)/n, float64(t.at5)/n, float64(t.at10)/n, t.rr/n
		}
		if t.queries > 0 {
			e.PresenceAccuracy = float64(t.presence) / float64(t.queries)
		}
		return e
	}
	rep.EvalScores = scores(&all)
	for tag, t := range tags {
		rep.ByTag[tag] = scores(t)
	}
	return rep, nil
}

// firstNaming returns the 1-based rank of the first result that names an artifact with one of the hash
// prefixes, or 0. An empty prefix names nothing.
func firstNaming(named [][]string, prefixes []string) int {
	for i, arts := range named {
		for _, a := range arts {
			for _, p := range prefixes {
				if p != "" && strings.HasPrefix(a, strings.ToLower(p)) {
					return i + 1
				}
			}
		}
	}
	return 0
}

// Tags returns the report's tags, sorted.
func (r EvalReport) Tags() []string {
	out := make([]string, 0, len(r.ByTag))
	for t := range r.ByTag {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// EvalWith scores search, another retrieval (a baseline, say), on the queries of r exactly as [Store.Eval]
// scores Recall. search returns, for each result in rank order, the artifact hashes it names, and its
// presence.
func EvalWith(ctx context.Context, r io.Reader, search func(ctx context.Context, query string) ([][]string, Presence, error)) (EvalReport, error) {
	return evalQueries(ctx, r, search)
}

// check returns what is wrong with a parsed query line, or nil: a query to ask, an expect of claim or none,
// answers for a claim (and none for none), and each answer or stale note a hash prefix that [CheckPrefix]
// accepts, as everywhere else, so that one short label cannot name many notes.
func (q EvalQuery) check() error {
	if strings.TrimSpace(q.Query) == "" {
		return errors.New("empty query")
	}
	switch q.Expect {
	case "claim":
		if len(q.Answers) == 0 {
			return errors.New(`expect "claim" needs answers: the hash prefixes of the notes that answer it`)
		}
	case "none":
		if len(q.Answers) > 0 {
			return errors.New(`expect "none" takes no answers`)
		}
	default:
		return fmt.Errorf("expect %q: want claim or none", q.Expect)
	}
	for _, list := range [][]string{q.Answers, q.Stale} {
		for _, a := range list {
			if err := CheckPrefix(a); err != nil {
				return err
			}
		}
	}
	return nil
}
