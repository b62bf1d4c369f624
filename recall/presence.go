package recall

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a question asks for.
//
// A question that asks when something happens, or how many or how much, is answered only by a statement of
// a time or a quantity. "When is Noor's birthday?" shares its informative words with "Happy birthday to
// her!", but that claim does not say when. So for such a question a claim that states no time (or no
// quantity) does not answer, however much of the query it holds: it counts [unstatedShare] of its coverage,
// less than [claimFloor], which makes the confidence of PresenceNone lower the more it holds. The best of
// the first [answerDepth] claims decides. Artifact text is not checked, so it cannot answer such a question
// alone.
//
// The question is recognized by its English words only (when, what time, what day, what date, how many,
// how much); a statement of time is a digit, a weekday, a month or a word of time (tomorrow, nightly,
// every...), in English; a quantity is a digit or an English number word. Notes in other languages state
// times and quantities in digits often enough; a question in another language is left as it is.
const (
	unstatedShare = 0.4
	answerDepth   = 3
)

// asked is what a question asks for.
type asked int

const (
	askedAnything asked = iota
	askedTime
	askedQuantity
)

var timeWords = wordSet(`today tomorrow yesterday tonight morning afternoon evening night nightly
		daily weekly monthly yearly annually week weeks weekend weekends month months year years quarter spring
		summer autumn winter noon midnight ago soon later now next last before after until since during every
		once twice hour hours minute minutes
		monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays
		saturdays sundays january february march april june july august september october november
		december`)

var numberWords = wordSet(`one two three four five six seven eight nine ten eleven twelve thirteen
		fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty
		ninety hundred hundreds thousand thousands million millions billion dozen dozens half double twice
		several few none all single`)

// askedFor returns what the question text asks for.
func askedFor(text string) asked {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	if len(words) == 0 {
		return askedAnything
	}
	if words[0] == "when" {
		return askedTime
	}
	for i := 0; i+1 < len(words); i++ {
		switch w, next := words[i], words[i+1]; {
		case (w == "what" || w == "which") && (next == "time" || next == "day" || next == "date"):
			return askedTime
		case w == "how" && (next == "many" || next == "much"):
			return askedQuantity
		}
	}
	return askedAnything
}

// states reports whether text states what a asks for, in words other than the question's own (a claim
// does not say when by repeating the "10k" or "Q3" of the question).
func (a asked) states(text string, q *query) bool {
	if a == askedAnything {
		return true
	}
	found := false
	eachWord(text, func(s, e int) {
		if found {
			return
		}
		w := strings.ToLower(text[s:e])
		digit := strings.ContainsFunc(w, unicode.IsDigit) && !identifierPart(text, s, e)
		found = (digit || a == askedTime && timeWords[w] ||
			a == askedQuantity && numberWords[w]) && !q.asks(w)
	})
	return found
}

// asks reports whether the lowercase word w is one of q's words.
func (q *query) asks(w string) bool {
	return slices.Contains(q.words, w)
}

// answerCoverage is how much the claims of hits (best first) answer a question that asks for a: the
// coverage of the first, or for a time or a quantity the best of the first [answerDepth], each counting
// [unstatedShare] of its coverage when its text does not state what is asked.
func (a asked) answerCoverage(q *query, hits []hit) float64 {
	if len(hits) == 0 {
		return 0
	}
	if a == askedAnything {
		return hits[0].coverage
	}
	best := 0.0
	for _, h := range hits[:min(len(hits), answerDepth)] {
		v := h.coverage
		if !a.states(h.f[0], q) && !(a == askedTime && q.past && saidOn(h.f[2])) {
			v *= unstatedShare
		}
		best = max(best, v)
	}
	return best
}

// identifierPart reports whether the word text[s:e] is the number of an identifier, joined by a hyphen or
// an underscore to letters before it (LIB-207, SK-400, cr_41) or starting with letters (v2, wg0), but not
// a quarter, half, week or fiscal year written short (Q3, H1, W23, KW12, FY26), which says when.
func identifierPart(text string, s, e int) bool {
	w := strings.ToLower(text[s:e])
	if r, _ := utf8.DecodeRuneInString(w); unicode.IsLetter(r) && strings.ContainsFunc(w, unicode.IsDigit) {
		letters := strings.TrimRightFunc(w, unicode.IsDigit)
		switch letters {
		case "q", "h", "w", "kw", "wk", "fy", "cw":
			return false
		}
		return true
	}
	if s >= 2 && (text[s-1] == '-' || text[s-1] == '_') {
		r, _ := utf8.DecodeLastRuneInString(text[:s-1])
		return unicode.IsLetter(r)
	}
	return false
}
