package recall

import (
	"regexp"
	"slices"
	"strings"
	"sync"
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
// times and quantities in digits often enough; a question in another language is left as it is. A
// question for a version or a port ("which Go version does the ledger use", "SMTP port"; not one answered
// yes or no, or how) is answered only by a number that is not one of a name (Go 1.22, v2, but not LIB-207).
//
// A question for a contact ("email address", "phone number", an "extension number", a "URL", unless it
// opens with who, whose or why) is answered only by a claim that states one (see [asked.statesContact]):
// "What is Marcus Webb's phone number?" is not answered by "Marcus Webb is our account manager". Such a
// claim's coverage leaves out the words that name the kind ("k.vogel@example.de" answers "email address"
// without the words), it gains the ranking signal "states", and a newer claim that states none does not
// move ahead of it as its update (see [updatesFirst]).
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
	askedNumber // a version or a port
	askedEmail  // an email address
	askedPhone  // a phone or extension number
	askedURL    // a URL or host name
)

// contact reports whether a asks for an email address, a phone number or a URL: what a claim states
// without the words of the question that name it.
func (a asked) contact() bool {
	return a >= askedEmail
}

// contactWords are the English words that name what a question for a contact asks for.
var contactWords = wordSet(`email mail address addresses phone telephone mobile cell fax extension landline
		hotline number numbers url urls`)

// yesNoWords are the English words that open a question answered yes or no.
var yesNoWords = wordSet(`is are was were do does did has have had can could should will would`)

// numberAfter are the words that may follow "version" or "port" in a question that asks for its number
// ("which Go version does the backend use", "Postgres version of ledger", "SMTP port"), where the words
// of a name or another language do not ("port authority", "version en ligne").
var numberAfter = wordSet(`of does do did is are was were in on for runs running run use uses used we our the
		installed now`)

// phoneWords are the English words that, before "number", ask for a phone number.
var phoneWords = wordSet(`phone telephone mobile cell fax extension landline hotline`)

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
	// "Who gave us the URL?" and "why did the phone number change?" ask for a person or a reason.
	contact := words[0] != "who" && words[0] != "whose" && words[0] != "why"
	for i := 0; i+1 < len(words); i++ {
		switch w, next := words[i], words[i+1]; {
		case (w == "what" || w == "which") && (next == "time" || next == "day" || next == "date"):
			return askedTime
		case w == "how" && (next == "many" || next == "much"):
			return askedQuantity
		case contact && (w == "email" || w == "mail") && (next == "address" || next == "addresses"):
			return askedEmail
		case contact && phoneWords[w] && (next == "number" || next == "numbers"):
			return askedPhone
		}
	}
	if contact && askedURLIn(text) {
		return askedURL
	}
	// "Is 8.0.1 still the planned version?" asks yes or no; "how often do we ship a new version?", how.
	number := contact && !yesNoWords[words[0]] && words[0] != "how"
	for i, w := range words {
		if number && (w == "version" || w == "versions" || w == "port") && (i == len(words)-1 || numberAfter[words[i+1]]) {
			return askedNumber
		}
	}
	return askedAnything
}

// askedURLIn reports whether text holds the word "url" on its own, not as part of a name (DATABASE_URL,
// url_for, API-URL).
func askedURLIn(text string) bool {
	found := false
	eachWord(text, func(s, e int) {
		w := strings.ToLower(text[s:e])
		found = found || (w == "url" || w == "urls") && !nameJoint(text, s-1) && !nameJoint(text, e)
	})
	return found
}

// nameJoint reports whether text[i] joins the words of a name: an underscore, a hyphen, a dot or an equals
// sign.
func nameJoint(text string, i int) bool {
	return i >= 0 && i < len(text) && strings.IndexByte("_-=.", text[i]) >= 0
}

// states reports whether text states what a asks for, in words other than the question's own (a claim
// does not say when by repeating the "10k" or "Q3" of the question).
func (a asked) states(text string, q *query) bool {
	switch a {
	case askedAnything:
		return true
	case askedEmail, askedPhone, askedURL:
		return a.statesContact(text, q)
	}
	// A version or a port is any number not of a name: "PostgreSQL 16", "1.22", "v2", ":8443".
	versions := a == askedNumber
	found := false
	eachWord(text, func(s, e int) {
		if found {
			return
		}
		w := strings.ToLower(text[s:e])
		digit := strings.ContainsFunc(w, unicode.IsDigit) && (!identifierPart(text, s, e) ||
			versions && w[0] == 'v' && strings.Trim(w[1:], "0123456789") == "")
		found = (digit || a == askedTime && timeWords[w] ||
			a == askedQuantity && numberWords[w]) && !q.asks(w)
	})
	return found
}

// statesContact reports whether text holds the email address, phone number or URL that a asks for: a word
// with an @ between letters and a dot after it; a phone number (see [phoneNumber]); or a scheme
// (https://), "www." or a host name of three parts or more (support.example.org.uk).
func (a asked) statesContact(text string, q *query) bool {
	if a == askedPhone {
		return phoneNumber(text, q.asks("extension"))
	}
	for _, f := range strings.Fields(text) {
		f = strings.Trim(f, "`'\"()[]<>,;:!?*_")
		switch a {
		case askedEmail:
			at := strings.IndexByte(f, '@')
			if at > 0 && at < len(f)-1 && strings.Contains(f[at+1:], ".") {
				return true
			}
		case askedURL:
			if strings.Contains(f, "://") || strings.HasPrefix(strings.ToLower(f), "www.") || hostName(f) {
				return true
			}
		}
	}
	return false
}

// phoneNumber reports whether text holds a phone number: seven digits or more in one number, its groups
// joined by spaces, hyphens, dots or parentheses, not a date (2026-03-20); or an extension: a number of two
// to five digits after "ext" or "extension", or any number of three to five digits when extension is set
// (the question asks for an extension number).
func phoneNumber(text string, extension bool) bool {
	p := phonePatterns()
	for _, loc := range p.number.FindAllStringIndex(text, -1) {
		if before, _ := utf8.DecodeLastRuneInString(text[:loc[0]]); strings.ContainsRune("-_/#", before) || isWordRune(before) {
			continue // the number of a name: PO-2026-118, build_20260301
		}
		m := text[loc[0]:loc[1]]
		digits := 0
		for _, r := range m {
			if '0' <= r && r <= '9' {
				digits++
			}
		}
		if digits >= 7 && !p.date.MatchString(m) {
			return true
		}
	}
	return p.ext.MatchString(text) || extension && p.short.MatchString(text)
}

// phonePatterns are the expressions of [phoneNumber], compiled on first use: most commands never ask.
var phonePatterns = sync.OnceValue(func() (p struct{ number, date, ext, short *regexp.Regexp }) {
	p.number = regexp.MustCompile(`\+?\(?\d[\d ().-]{5,}\d`)
	p.date = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	p.ext = regexp.MustCompile(`(?i)\bext(?:ension)?\.?\s*\d{2,5}\b`)
	p.short = regexp.MustCompile(`(?:^|[^\w.-])\d{3,5}(?:$|[^\w.-])`)
	return p
})

// hostName reports whether f is a host name of three labels or more, the last of letters only
// (dac01.corp.local, support.example.org), with an optional port.
func hostName(f string) bool {
	if i := strings.LastIndexByte(f, ':'); i > 0 && strings.Trim(f[i+1:], "0123456789") == "" {
		f = f[:i]
	}
	labels := strings.Split(strings.TrimSuffix(f, "/"), ".")
	if len(labels) < 3 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.ContainsFunc(l, notHostRune) {
			return false
		}
	}
	last := labels[len(labels)-1]
	return len(last) >= 2 && !strings.ContainsFunc(last, func(r rune) bool { return !unicode.IsLetter(r) })
}

// notHostRune reports whether r may not be part of a host name's label.
func notHostRune(r rune) bool {
	return r != '-' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
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
