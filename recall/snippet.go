package recall

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// snippetWords is how many words a snippet shows.
const snippetWords = 16

// span is the byte range of a word in a text.
type span struct{ start, end int }

// isWordRune reports whether r belongs to a word of a query or of a snippet's text.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// folders holds the transformers of [fold], which cost kilobytes of buffers each to make: a transformer
// keeps state, so each is used by one call at a time.
var folders = sync.Pool{New: func() any {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}}

// fold lowercases s and removes its diacritics, as the index tokenizer does.
func fold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	t := folders.Get().(transform.Transformer)
	defer folders.Put(t)
	out, _, err := transform.String(t, strings.ToLower(s))
	if err != nil {
		return strings.ToLower(s)
	}
	return out
}

// suffixes are the English inflections [stem] strips.
var suffixes = []string{"ing", "ed", "es", "s", "ly"}

// stem strips one common English inflection, a rough stand-in for the index's Porter stemmer that is only
// used to place snippets.
func stem(w string) string {
	for _, suf := range suffixes {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// matchesStem reports whether word (any case) is the stemmed query word st, or an inflection of it, or,
// for stems of four letters or more, starts with it.
func matchesStem(word, st string) bool {
	if !isASCII(word) {
		word = fold(word)
	}
	if len(word) < len(st) || !strings.EqualFold(word[:len(st)], st) {
		return false
	}
	rest := word[len(st):]
	if rest == "" || len(st) >= 4 {
		return true
	}
	for _, suf := range suffixes {
		if strings.EqualFold(rest, suf) {
			return true
		}
	}
	return false
}

func wordSpans(text string) []span {
	var out []span
	eachWord(text, func(start, end int) { out = append(out, span{start, end}) })
	return out
}

// eachWord calls f with the byte range of each word of text, in order: each maximal run of runes that
// [isWordRune] accepts.
func eachWord(text string, f func(start, end int)) {
	start := -1
	for i, r := range text {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			f(start, i)
			start = -1
		}
	}
	if start >= 0 {
		f(start, len(text))
	}
}

// snippet returns the part of text, about [snippetWords] words long, that holds the most distinct query
// words, with those words in [brackets], whitespace collapsed, and … where the text was cut. The index
// matched the text with Porter stemming; this placement uses a simpler stemmer and falls back to the start
// of the text when it finds no word.
func snippet(text []byte, words []string) string {
	s := string(text)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	n := min(len(words), 64)
	stems := make([]string, 0, n)
	for _, w := range words[:n] {
		stems = append(stems, stem(fold(w)))
	}
	var toks []span
	if isASCII(s) {
		// Fast path: find the stems in the lowercased text and tokenize only the window around the best one.
		toks = asciiWindow(s, stems)
	} else {
		toks = wordSpans(s)
	}
	if len(toks) == 0 {
		return ""
	}
	match := make([]uint64, len(toks)) // bit i: the word matches query word i
	for i, t := range toks {
		for wi, st := range stems {
			if matchesStem(s[t.start:t.end], st) {
				match[i] = 1 << wi
				break
			}
		}
	}
	best, bestN := 0, 0
	for i := range toks {
		if match[i] == 0 {
			continue
		}
		var seen uint64
		for j := i; j < min(len(toks), i+snippetWords); j++ {
			seen |= match[j]
		}
		if n := bits.OnesCount64(seen); n > bestN {
			best, bestN = i, n
		}
	}
	// Start a little before the first match so it reads in context.
	from := max(0, best-3)
	if bestN == 0 {
		from = 0
	}
	to := min(len(toks), from+snippetWords)
	var b strings.Builder
	if strings.IndexFunc(s[:toks[from].start], isWordRune) >= 0 {
		b.WriteString("…")
	}
	pos := toks[from].start
	for i := from; i < to; i++ {
		t := toks[i]
		b.WriteString(s[pos:t.start])
		if match[i] != 0 {
			b.WriteString("[" + s[t.start:t.end] + "]")
		} else {
			b.WriteString(s[t.start:t.end])
		}
		pos = t.end
	}
	if strings.IndexFunc(s[pos:], isWordRune) >= 0 {
		b.WriteString("…")
	} else {
		b.WriteString(s[pos:])
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// snippetReach is how many bytes around the best match [asciiWindow] tokenizes: enough for
// [snippetWords] words of ordinary length on either side.
const snippetReach = 200

// asciiWindow returns the words of an ASCII text near the place where the most distinct stems occur
// within snippetReach bytes, or the words at its start when none occurs.
func asciiWindow(s string, stems []string) []span {
	lower := strings.ToLower(s)
	type occ struct {
		pos int
		bit uint64
	}
	var occs []occ
	for wi, st := range stems {
		if st == "" || !isASCII(st) {
			continue
		}
		for off := 0; ; {
			i := strings.Index(lower[off:], st)
			if i < 0 {
				break
			}
			p := off + i
			// Only at the start of a word.
			if p == 0 || !isWordRune(rune(lower[p-1])) {
				occs = append(occs, occ{p, 1 << wi})
			}
			off = p + len(st)
		}
	}
	slices.SortFunc(occs, func(a, b occ) int { return a.pos - b.pos })
	center, bestN := 0, 0
	for i, o := range occs {
		var seen uint64
		for j := i; j < len(occs) && occs[j].pos < o.pos+snippetReach/2; j++ {
			seen |= occs[j].bit
		}
		if n := bits.OnesCount64(seen); n > bestN {
			center, bestN = o.pos, n
		}
	}
	from := max(0, center-snippetReach/2)
	to := min(len(s), center+snippetReach)
	// Widen to word boundaries so no word is cut.
	for from > 0 && isWordRune(rune(s[from-1])) {
		from--
	}
	for to < len(s) && isWordRune(rune(s[to])) {
		to++
	}
	spans := wordSpans(s[from:to])
	for i := range spans {
		spans[i].start += from
		spans[i].end += from
	}
	return spans
}
