package scan

import (
	"math/rand/v2"
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
	a.scan(text, func(k, at int) { got[hit{k, at}] = true })
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
