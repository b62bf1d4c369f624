package recall

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestEvalScoring checks the arithmetic of Eval on a fake retrieval: ranks, MRR, presence, errors, tags,
// the update order, and the JSON field names the CLI prints.
func TestEvalScoring(t *testing.T) {
	results := map[string][][]string{
		"first":   {{"aaaa1111"}, {"bbbb"}},
		"third":   {{"cccc"}, {"dddd", "eeee"}, {"aaaa2222"}},
		"missing": {{"cccc"}},
		"update":  {{"0dd0"}, {"fee3"}},
		"none":    nil,
		"fails":   nil,
	}
	search := func(_ context.Context, q string) ([][]string, Presence, error) {
		if q == "fails" {
			return nil, "", errors.New("boom")
		}
		if results[q] == nil {
			return nil, PresenceNone, nil
		}
		return results[q], PresenceClaim, nil
	}
	file := strings.Join([]string{
		`{"query": "first", "expect": "claim", "answers": ["AAAA1"], "tag": "keyword"}`,
		``,
		`{"query": "third", "expect": "claim", "answers": ["aaaa2"], "tag": "keyword"}`,
		`{"query": "missing", "expect": "claim", "answers": ["ffff"], "tag": "paraphrase"}`,
		`{"query": "update", "expect": "claim", "answers": ["fee3"], "stale": ["0dd0"], "tag": "update"}`,
		`{"query": "none", "expect": "none", "answers": [], "tag": "none-offtopic"}`,
		`{"query": "first", "expect": "none", "answers": [], "tag": "none-overlap"}`,
		`{"query": "fails", "expect": "claim", "answers": ["aaaa"], "tag": "keyword"}`,
		`not json`,
		`{"query": "first", "expect": "maybe", "answers": [], "tag": "keyword"}`,
	}, "\n")
	rep, err := evalQueries(context.Background(), strings.NewReader(file), search)
	if err != nil {
		t.Fatal(err)
	}
	// Claim queries: first (rank 1), third (3), missing (0), update (2), fails, not json and maybe (errors).
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if rep.Queries != 9 || rep.Errors != 3 || !near(rep.RecallAt1, 1.0/7) || !near(rep.RecallAt5, 3.0/7) ||
		!near(rep.RecallAt10, 3.0/7) || !near(rep.MRR, (1+1.0/3+0.5)/7) {
		t.Errorf("overall %+v", rep.EvalScores)
	}
	// Presence is right for first, third, missing and update (claim for claim queries) and for none; wrong
	// for "first" asked as none-overlap, and for the three errors.
	if !near(rep.PresenceAccuracy, 5.0/9) {
		t.Errorf("presence accuracy %v, want 5/9", rep.PresenceAccuracy)
	}
	// A line that does not parse counts overall only.
	if kw := rep.ByTag["keyword"]; kw.Queries != 4 || kw.Errors != 2 || !near(kw.RecallAt1, 1.0/4) || !near(kw.RecallAt5, 2.0/4) {
		t.Errorf("keyword %+v", kw)
	}
	if no := rep.ByTag["none-overlap"]; no.Queries != 1 || no.PresenceAccuracy != 0 || no.RecallAt5 != 0 {
		t.Errorf("none-overlap %+v", no)
	}
	if rep.Updates != 1 || rep.UpdatesInOrder != 0 {
		t.Errorf("updates %d in order of %d, want 0 of 1: the stale note ranks first", rep.UpdatesInOrder, rep.Updates)
	}
	if len(rep.Results) != 9 || rep.Results[1].Rank != 3 || rep.Results[8].Err == "" {
		t.Errorf("results %+v", rep.Results)
	}
	// JSON: exactly these fields, by_tag holding the same ones.
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range doc {
		keys = append(keys, k)
	}
	want := []string{"by_tag", "errors", "mrr", "presence_accuracy", "queries", "recall_at_1", "recall_at_10", "recall_at_5"}
	if !sameKeys(keys, want) {
		t.Errorf("JSON fields %q, want %q", keys, want)
	}
	var tags map[string]map[string]any
	if err := json.Unmarshal(doc["by_tag"], &tags); err != nil {
		t.Fatal(err)
	}
	var tagKeys []string
	for k := range tags["keyword"] {
		tagKeys = append(tagKeys, k)
	}
	if !sameKeys(tagKeys, want[1:]) {
		t.Errorf("by_tag fields %q", tagKeys)
	}
	if got := rep.Tags(); !reflect.DeepEqual(got, []string{"keyword", "none-offtopic", "none-overlap", "paraphrase", "update"}) {
		t.Errorf("Tags() = %q", got)
	}
}

func sameKeys(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	m := map[string]bool{}
	for _, k := range got {
		m[k] = true
	}
	for _, k := range want {
		if !m[k] {
			return false
		}
	}
	return true
}

func TestEvalCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := openTemp(t)
	if _, err := s.Eval(ctx, strings.NewReader(`{"query": "x", "expect": "none", "answers": [], "tag": "t"}`)); !errors.Is(err, context.Canceled) {
		t.Errorf("Eval(cancelled) = %v", err)
	}
}

// TestEvalQueryCheck: a line that cannot be scored honestly is an error of its own, not a hit or a miss.
func TestEvalQueryCheck(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string // a substring of the error, "" for none
	}{
		{`{"query": "staging region", "expect": "claim", "answers": ["64ab"]}`, ""},
		{`{"query": "staging region", "expect": "none"}`, ""},
		{`{"query": "staging region", "expect": "claim", "answers": ["64"]}`, "hex characters"},
		{`{"query": "staging region", "expect": "claim", "answers": ["zzzz"]}`, "hex characters"},
		{`{"query": "staging region", "expect": "claim", "answers": []}`, "needs answers"},
		{`{"query": "staging region", "expect": "none", "answers": ["64ab"]}`, "takes no answers"},
		{`{"query": "  ", "expect": "none"}`, "empty query"},
		{`{"query": "x", "expect": "claim", "answers": ["64ab"], "stale": ["0l"]}`, "hex characters"},
	} {
		var q EvalQuery
		if err := json.Unmarshal([]byte(tc.line), &q); err != nil {
			t.Fatal(err)
		}
		err := q.check()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: error %v, want %q", tc.line, err, tc.want)
		}
	}
}
