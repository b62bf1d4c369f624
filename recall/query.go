package recall

import (
	"slices"
	"strings"
	"sync"
	"unicode"
)

// maxQueryWords bounds the number of words taken from a query, so a pasted document cannot make one
// query scan the whole index once per word.
const maxQueryWords = 32

// maxWordBytes bounds one query word; no natural word is longer.
const maxWordBytes = 100

// stopwords are English function words that never answer a question on their own. They are dropped from a
// query that has other words, and they never count towards presence. The set is built on first use: most
// commands (checkpoint, scan, pending) never rank anything.
var stopwords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about after all also am an and any are as at be been before being but by can
		could did do does doing done for from had has have having he her here hers him his how i if in into is it its
		just me more most my no nor not now of off on once only or other our out over own same she should so some such
		than that the their them then there these they this those through to too under until up very was we were what
		when where which while who whom why will with would you your yours near often many much`) {
		m[w] = true
	}
	// The function words of the other languages notes are often written in: Spanish, French, German. Words
	// that are also English content words (die, son, era) are left out.
	for _, w := range strings.Fields(`de la que el en y los se del las un por con una su para es al lo como más o pero
		sus le ha si sin sobre este ya entre cuando todo esta ser dos también fue había muy hasta desde está mi porque
		qué cuál cuándo dónde cómo quién cuántas cuántos cuánto cuánta
		les des du une et est qui dans pour pas au aux ce sur par il elle on ne nous vous avec sa ses plus ou mais où
		quand comment quel quelle quels quelles qu
		der das und ist im den von zu mit sich auf für nicht ein eine als auch dass wie wir ihr sie um oder aus bei
		nach wer wann wo warum welche welcher welches`) {
		m[w] = true
		m[fold(w)] = true
	}
	return m
})

// term is one search unit of a query: a word, or an identifier such as user_id, FW-233 or camelCase that
// the index holds as several words or as one. A row matches the term when it holds any of alts (each a
// word, or words in sequence written with spaces between them).
type term struct {
	alts    []string // lowercase; alts[0] is how the query wrote it
	joined  []string // the term and its neighbours in the query written together (see [joinAdjacent])
	words   []string // the words of alts[0], for snippets
	stop    bool     // a stopword
	generic bool     // a generic word of questions (see [isGeneric]), which counts little towards coverage
	// unfolded are the spellings of the word (most often a name) with the letters the index does not fold
	// (see [unfolded]), which join alts only when the word as written matches nothing (see
	// [Store.unfoldMissing]).
	unfolded []string
}

// expr is the term's FTS5 expression.
func (t term) expr() string {
	if len(t.alts) == 1 && len(t.joined) == 0 {
		return phrase(t.alts[0])
	}
	var parts []string
	for _, a := range slices.Concat(t.alts, t.joined) {
		parts = append(parts, phrase(a))
	}
	return "(" + strings.Join(parts, " OR ") + ")"
}

// isConnector reports a character that joins the words of an identifier when it stands between two of
// them: user_id, FW-233, eu-west-1, v1.2, internal/sync/retry.go.
func isConnector(r rune) bool {
	switch r {
	case '_', '-', '.', '/', '‐', '‑':
		return true
	}
	return false
}

// queryTerms splits user text into search terms, the same way the index tokenizer cuts stored text
// (unicode61: every run of letters, digits and marks is a word; porter and diacritic folding happen in the
// index). On top of that:
//   - a possessive or contraction ending ("Priya's", "don't") is dropped from its word;
//   - words joined by connectors (see [isConnector]) are one term that matches them in sequence or written
//     together (user_id: "user id" or "userid"); a camelCase word also matches its parts in sequence;
//   - German spellings without umlauts or ß also match the folded forms the index holds (Muenchen matches
//     München, strasse matches Straße);
//   - a word, most often a name, that matches nothing as written matches it written with a letter the
//     index does not fold (see [unfoldedLetters]: Soren or soren matches Søren, Yildiz matches Yıldız).
//
// Terms are deduplicated, stripped of stopwords when anything else remains, and capped at
// [maxQueryWords]. No term holds FTS5 syntax: each alternative is quoted by [phrase].
func queryTerms(q string) []term { return searchTerms(q, false) }

// searchTerms is [queryTerms], with joined set for a query that ranks: adjacent words also match written
// together (see [joinAdjacent]).
func searchTerms(q string, joined bool) []term {
	var all []term
	seen := map[string]bool{}
	for _, tok := range tokens(q) {
		t := makeTerm(tok)
		if t.alts == nil || seen[t.alts[0]] {
			continue
		}
		seen[t.alts[0]] = true
		all = append(all, t)
	}
	if joined {
		joinAdjacent(all)
	}
	terms := all[:0:0]
	for _, t := range all {
		if !t.stop {
			terms = append(terms, t)
		}
	}
	if len(terms) == 0 {
		terms = all
	}
	if len(terms) > maxQueryWords {
		terms = terms[:maxQueryWords]
	}
	return terms
}

// joinAdjacent adds to each run of two or three adjacent one-word terms (no stopword among them) the words
// written together, as a joined form of each: "refresh interval sec" also matches refreshIntervalSec and
// "max conn" maxConn, which the index holds as one word (unicode61 does not cut camelCase), and a row
// that holds the joined word holds each of the terms.
func joinAdjacent(terms []term) {
	notWord := func(t term) bool { return len(t.words) != 1 || t.stop }
	for i := range terms {
		joined := ""
		for k := i; k < min(i+3, len(terms)) && !notWord(terms[k]); k++ {
			joined += terms[k].words[0]
			if k > i {
				for j := i; j <= k; j++ {
					terms[j].joined = append(terms[j].joined, joined)
				}
			}
		}
	}
}

// unjoined is q without the joined forms of its terms (see [joinAdjacent]).
func (q query) unjoined() query {
	q.terms = slices.Clone(q.terms)
	for i := range q.terms {
		q.terms[i].joined = nil
	}
	return q
}

// tokens returns the identifiers of q: each a list of its words as written, with a possessive or
// contraction ending dropped.
func tokens(q string) [][]string {
	var out [][]string
	var cur []string
	start := -1
	rs := []rune(q)
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	for i := 0; i <= len(rs); i++ {
		if i < len(rs) && isWordRune(rs[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			cur = append(cur, string(rs[start:i]))
			start = -1
		}
		if i == len(rs) {
			break
		}
		r := rs[i]
		switch {
		case (r == '\'' || r == '’') && len(cur) > 0 && i > 0 && isWordRune(rs[i-1]):
			// "Priya's", "don't", "we're": the ending is not a word of its own.
			j := i + 1
			for j < len(rs) && isWordRune(rs[j]) && j-i <= 3 {
				j++
			}
			if j < len(rs) && isWordRune(rs[j]) {
				flush() // a longer run after the quote is a word: "rock'n'roll" or a quotation
				continue
			}
			i = j - 1
		case isConnector(r) && len(cur) > 0 && i+1 < len(rs) && isWordRune(rs[i+1]) && isWordRune(rs[i-1]):
			// The identifier goes on.
		default:
			flush()
		}
	}
	flush()
	return out
}

// makeTerm builds the term of one identifier's words.
func makeTerm(parts []string) term {
	var t term
	lower := make([]string, 0, len(parts))
	for _, p := range parts {
		p = strings.ToLower(p)
		if len(p) > maxWordBytes {
			p = truncateRunes(p, maxWordBytes)
		}
		if p != "" {
			lower = append(lower, p)
		}
	}
	if len(lower) == 0 {
		return t
	}
	add := func(a string) {
		for _, x := range t.alts {
			if x == a {
				return
			}
		}
		t.alts = append(t.alts, a)
	}
	add(strings.Join(lower, " "))
	t.words = lower
	// The words of the name, camelCase cut too, in every grouping a note may write them in: the query's
	// parity_check.cron matches a note's parityCheck.cron, nightAudit.start its night_audit.start.
	var fine []string
	for _, p := range parts {
		for _, w := range camelParts(p) {
			if w = strings.ToLower(w); w != "" {
				fine = append(fine, w)
			}
		}
	}
	for _, g := range groupings(fine) { // the words written together among them
		add(g)
	}
	if len(lower) == 1 {
		if split := digitParts(lower[0]); len(split) > 1 {
			add(strings.Join(split, " "))
		}
		t.stop = stopwords()[lower[0]]
		t.generic = isGeneric(lower[0])
		for _, f := range irregularForms()[lower[0]] {
			add(f)
		}
		for _, f := range spellings()[lower[0]] {
			add(f)
		}
		if f := izeSpellings(lower[0]); f != "" {
			add(f)
		}
	}
	for _, a := range slices.Clone(t.alts) {
		for _, g := range germanFolded(a) {
			add(g)
		}
	}
	if len(parts) == 1 && len(lower) == 1 && !t.stop {
		// Any case: agents and hurried people type names in lower case ("soren"), and the spellings are
		// looked up only for a word that matches nothing as written.
		t.unfolded = unfolded(lower[0])
	}
	return t
}

// unfoldedLetters are the ASCII spellings of letters that the index's diacritic folding leaves as they are,
// since Unicode does not write them as a base letter and a mark: ø, æ and œ of Danish, Norwegian and French,
// ı of Turkish, ł of Polish, đ of Croatian and Vietnamese. Names hold them most (Søren, Fløyen, Yıldız,
// Łódź), and a query typed on another keyboard writes the base letter.
var unfoldedLetters = [][2]string{{"o", "ø"}, {"ae", "æ"}, {"oe", "œ"}, {"i", "ı"}, {"l", "ł"}, {"d", "đ"}}

// unfolded returns the spellings of an ASCII word w (lowercase, most often a name) that the index holds for
// it written with one of the unfoldedLetters, other than w itself: each letter replaced wherever it occurs.
func unfolded(w string) []string {
	if !isASCII(w) {
		return nil
	}
	var out []string
	for _, l := range unfoldedLetters {
		if g := strings.ReplaceAll(w, l[0], l[1]); g != w {
			out = append(out, g)
		}
	}
	return out
}

// maxGrouped bounds the words whose groupings [groupings] lists (2^(n-1) of them).
const maxGrouped = 4

// groupings returns words written every way a name may group them, each boundary a space or nothing:
// parity, check, cron gives "parity check cron", "paritycheck cron", "parity checkcron" and
// "paritycheckcron". Past [maxGrouped] words, or with a number among them (3.5.0 is not 35.0, eu-west-1 is
// written so), only the first and the last of those.
func groupings(words []string) []string {
	if len(words) < 2 {
		return nil
	}
	if len(words) > maxGrouped || slices.ContainsFunc(words, isNumber) {
		return []string{strings.Join(words, " "), strings.Join(words, "")}
	}
	var out []string
	for mask := 0; mask < 1<<(len(words)-1); mask++ {
		var b strings.Builder
		for i, w := range words {
			if i > 0 && mask&(1<<(i-1)) != 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
		out = append(out, b.String())
	}
	return out
}

// camelParts splits a camelCase or PascalCase word at each lowercase-to-uppercase step
// (fetchUserProfile: fetch, User, Profile). Other words come back whole.
func camelParts(w string) []string {
	var out []string
	start := 0
	prev := rune(0)
	for i, r := range w {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(prev) {
			out = append(out, w[start:i])
			start = i
		}
		prev = r
	}
	return append(out, w[start:])
}

// digitParts splits a word where letters meet digits (CR41: CR, 41; mm152b: mm, 152, b), as a note that
// wrote CR-41 or MM 152 holds it in the index. Other words come back whole.
func digitParts(w string) []string {
	var out []string
	start := 0
	prev := rune(0)
	for i, r := range w {
		if i > 0 && unicode.IsDigit(r) != unicode.IsDigit(prev) && unicode.IsLetter(r) != unicode.IsLetter(prev) {
			out = append(out, w[start:i])
			start = i
		}
		prev = r
	}
	return append(out, w[start:])
}

// umlauts and sharpS turn German transliterations into what the index holds for the original spelling:
// it folds ä, ö, ü to a, o, u, and keeps ß.
var (
	umlauts = strings.NewReplacer("ae", "a", "oe", "o", "ue", "u")
	sharpS  = strings.NewReplacer("ss", "ß")
)

// germanFolded returns the spellings of an ASCII word w that a German original would have in the index,
// other than w itself.
func germanFolded(w string) []string {
	if !isASCII(w) {
		return nil
	}
	var out []string
	for _, r := range []*strings.Replacer{umlauts, sharpS} {
		if g := r.Replace(w); g != w {
			out = append(out, g)
		}
	}
	return out
}

// queryWords returns the words of q's terms, for placing snippets.
func queryWords(q string) []string {
	var out []string
	for _, t := range queryTerms(q) {
		out = append(out, t.words...)
	}
	return out
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

// matchExpr builds an FTS5 MATCH expression under which a row matches when any of terms does. It returns ""
// for no terms.
func matchExpr(terms []term) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = t.expr()
	}
	return strings.Join(parts, " OR ")
}

// wordSet returns the set of the white-space-separated words of list.
func wordSet(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}

// isNumber reports whether w holds a digit: a number or a version's part, such as 3, 1024 or 0rc1.
func isNumber(w string) bool { return strings.ContainsFunc(w, unicode.IsDigit) }
