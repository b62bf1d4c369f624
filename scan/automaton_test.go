package scan

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestAutomatonWide builds a matcher with more state-class slots than 16-bit transitions can address and
// checks that it still reports every keyword occurrence a naive search finds.
func TestAutomatonWide(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + r.IntN(26))
		}
		return string(b)
	}
	seen := map[string]bool{}
	var words []string
	for len(words) < 4000 {
		if w := word(9); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	a := buildAutomaton(words, true)
	if len(a.next) <= 1<<16 {
		t.Fatalf("automaton has %d slots; the test needs more than %d", len(a.next), 1<<16)
	}
	var sb strings.Builder
	for i := 0; i < 600; i++ {
		sb.WriteString(word(3))
		sb.WriteString(words[r.IntN(len(words))])
	}
	text := sb.String()
	type hit struct{ k, at int }
	got := map[hit]bool{}
	hits, _ := a.scan(text, nil, nil)
	for _, h := range hits {
		got[hit{h.k, h.pos}] = true
	}
	want := 0
	for k, w := range words {
		for from := 0; ; {
			i := strings.Index(text[from:], w)
			if i < 0 {
				break
			}
			want++
			if !got[hit{k, from + i}] {
				t.Fatalf("keyword %q at %d not reported", w, from+i)
			}
			from += i + 1
		}
	}
	if len(got) != want {
		t.Fatalf("reported %d hits, a naive search finds %d", len(got), want)
	}
}

// naiveHits lists every occurrence of a's keywords in text by comparing input classes at each position, in
// the order scan promises: by end, then the longer keyword first, then by keyword number.
func naiveHits(a *automaton, words []string, text string) []kwHit {
	var out []kwHit
	for end := 1; end <= len(text); end++ {
		var at []kwHit
		for k, w := range words {
			start := end - len(w)
			if start < 0 {
				continue
			}
			ok := true
			for i := 0; i < len(w) && ok; i++ {
				ok = a.class[text[start+i]] == a.class[lowerByte(w[i])]
			}
			if ok {
				at = append(at, kwHit{k, start})
			}
		}
		slices.SortStableFunc(at, func(x, y kwHit) int { return x.pos - y.pos })
		out = append(out, at...)
	}
	return out
}

// TestAutomatonOrder checks that scan reports what a naive search finds, in the same order, for texts short
// enough for one chain and long enough for two, with keywords across the second chain's start.
func TestAutomatonOrder(t *testing.T) {
	words := []string{"pass", "password", "word", "sword", "api_key", "key", "ke", "-u ", "ab", "bab", "abababab"}
	a := buildAutomaton(words, true)
	r := rand.New(rand.NewPCG(3, 4))
	pieces := append([]string{"x", " ", "P", "A", "_", "-", "u", "b", "é"}, words...)
	for n := 0; n < 400; n++ {
		var sb strings.Builder
		for sb.Len() < r.IntN(12*a.maxLen) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := sb.String()
		got, _ := a.scan(text, nil, nil)
		if want := naiveHits(a, words, text); !slices.Equal(got, want) {
			t.Fatalf("text %q:\n got %v\nwant %v", text, got, want)
		}
	}
}

// FuzzAutomatonOrder compares scan with the naive search on any text, over the rules' own keywords.
func FuzzAutomatonOrder(f *testing.F) {
	f.Add(strings.Repeat("password=hunter2 api-key: ", 8))
	f.Add(strings.Repeat("x", 200) + "Authorization: Bearer " + strings.Repeat("y", 200))
	words, _, _ := routeKeywords(ruleTable())
	a := buildAutomaton(words, true)
	f.Fuzz(func(t *testing.T, text string) {
		got, _ := a.scan(text, nil, nil)
		if want := naiveHits(a, words, text); !slices.Equal(got, want) {
			t.Fatalf("scan and the naive search differ on %q", text)
		}
	})
}
