package recall

import (
	"strings"
)

// maxQueryWords bounds the number of words taken from a query, so a pasted document cannot make one
// query scan the whole index once per word.
const maxQueryWords = 32

// maxWordBytes bounds one query word; no natural word is longer.
const maxWordBytes = 100

// stopwords are English function words that never answer a question on their own. They are dropped from a
// query that has other words, and they never count towards presence.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about after all also am an and any are as at be been before being but by can
		could did do does doing done for from had has have having he her here hers him his how i if in into is it its
		just me more most my no nor not now of off on once only or other our out over own same she should so some such
		than that the their them then there these they this those through to too under until up very was we were what
		when where which while who whom why will with would you your yours near`) {
		stopwords[w] = true
	}
}

// queryWords splits user text into search words: maximal runs of letters, digits and combining marks, so
// that punctuation, quotes, operators and underscores separate words (user_id is "user" and "id", as in the
// index). Words are lowercased, deduplicated, stripped of stopwords when anything else remains, and capped at
// [maxQueryWords]. The result never contains FTS5 syntax characters.
func queryWords(q string) []string {
	var all []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(q, func(r rune) bool { return !isWordRune(r) }) {
		w = strings.ToLower(w)
		if len(w) > maxWordBytes {
			w = truncateRunes(w, maxWordBytes)
		}
		if seen[w] {
			continue
		}
		seen[w] = true
		all = append(all, w)
	}
	words := all[:0:0]
	for _, w := range all {
		if !stopwords[w] {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		words = all
	}
	if len(words) > maxQueryWords {
		words = words[:maxQueryWords]
	}
	return words
}

// truncateRunes cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncateRunes(s string, n int) string {
	cut := 0
	for i := range s {
		if i > n {
			break
		}
		cut = i
	}
	return s[:cut]
}

// phrase quotes one word from [queryWords] as an FTS5 string, which FTS5 treats as plain text: the tokenizer
// sees it, the expression parser does not.
func phrase(w string) string {
	return `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
}

// matchExpr builds an FTS5 MATCH expression under which a row matches when any of words does. It returns ""
// for no words.
func matchExpr(words []string) string {
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = phrase(w)
	}
	return strings.Join(parts, " OR ")
}
