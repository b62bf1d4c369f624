package scan

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Finding is one suspected secret, or one suspected instruction to the agent ([CategoryInstruction]), in a text. Start and End are byte offsets [Start, End) of the secret value
// (or the whole match) in the scanned text; Line and Column are 1-based (Column counts bytes, 1-based, from the
// line start). Preview is a redacted excerpt: at most the first 4 runes of the secret followed by "…", and never
// more than a third of the secret's runes.
type Finding struct {
	Rule     string `json:"rule"`     // rule ID, e.g. "aws-access-key-id"
	Category string `json:"category"` // e.g. "aws", "auth-header", "private-key", "credential", "vendor-token", "entropy", "instruction"
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Preview  string `json:"preview"`
}

// Rule describes one detection rule as data a reviewer can read.
type Rule struct {
	ID, Category, Description string
	Positives                 []string // examples the rule must flag
	Negatives                 []string // examples it must not flag
}

// Categories, from most to least specific. When findings of different rules overlap, the one whose category comes
// first here is kept. Every category but [CategoryInstruction] is a suspected secret.
const (
	CategoryVendor     = "vendor-token"
	CategoryAWS        = "aws"
	CategoryPrivateKey = "private-key"
	CategoryAuthHeader = "auth-header"
	CategoryCredential = "credential"
	CategoryEntropy    = "entropy"
	// CategoryInstruction is text addressed to the agent that will read the note: an order to ignore its
	// instructions, run a piped download, send files or credentials away, or change its own rules. A secret
	// overlapping such text is reported as the secret.
	CategoryInstruction = "instruction"
)

func categoryRank(c string) int {
	switch c {
	case CategoryVendor:
		return 7
	case CategoryAWS:
		return 6
	case CategoryPrivateKey:
		return 5
	case CategoryAuthHeader:
		return 4
	case CategoryCredential:
		return 3
	case CategoryEntropy:
		return 2
	case CategoryInstruction:
		return 1
	}
	return 0
}

// Concern names what a finding suspects, in the words a warning uses: "possible instruction to the agent" for
// [CategoryInstruction], "possible secret" for every other category.
func (f Finding) Concern() string {
	if f.Category == CategoryInstruction {
		return "possible instruction to the agent"
	}
	return "possible secret"
}

// ahead bounds, in bytes, how far past a keyword hit a pattern reads. Small windows keep the regexp engine's
// per-call work small and bound what a pathological line can cost.
const ahead = 256

// span is a candidate secret found by a rule: byte offsets into the scanned text.
type span struct{ start, end int }

// rule is one detection rule. Either pattern (an RE2 expression run on a window around each keyword hit) or find
// (a hand-written matcher for shapes a regular expression cannot state, such as a key wrapped across lines) is set.
type rule struct {
	id, category, description string
	// keywords are literals, compared ASCII case-insensitively unless caseSensitive is set; the rule runs only
	// near an occurrence of one of them.
	keywords      []string
	caseSensitive bool
	// exactKeywords are compared case-sensitively whatever caseSensitive says, for a rule whose expression
	// begins with a case-sensitive literal in one branch (SK…) and a case-insensitive one in another.
	exactKeywords []string
	// pattern must match starting at a keyword hit, on the rest of its line and linesAfter more lines. The
	// secret is the first capture group that took part in the match, or the whole match when there is none.
	pattern    string
	linesAfter int
	// token rules match no whitespace, so their window also ends at the first blank.
	token bool
	// valid, if set, accepts or rejects the secret found by pattern.
	valid func(secret string) bool
	// may, if set, is a cheap test of the window pattern is run on that holds wherever pattern can match: a
	// hit whose window fails it is ruled out without running the expression, and no finding changes.
	may func(window string) bool
	// find, if set, replaces pattern: it examines the keyword hit at text[at:at+n] and returns secrets, and a
	// position before which later hits of the rule need not be examined.
	find func(text string, at, n int) (secrets []span, skip int)
	// findAll, if set, replaces pattern and find: it gets all of the rule's hits at once, in order.
	findAll func(text string, hits []int) []span

	// examples returns the examples the rule must and must not flag. It is a function so that a scan, which never
	// reads them, does not build them.
	examples func() (positives, negatives []string)

	// fallback rules lose every tie: a finding of theirs stands only where no other rule finds the same span.
	fallback bool

	// re compiles pattern on the rule's first keyword hit, so a process compiles only the rules its text needs.
	re        func() *regexp.Regexp
	wordStart bool // pattern begins with \b
}

// engine is the compiled rule set: rules plus the keyword automaton that routes hits to them.
type engine struct {
	rules []*rule
	ac    *automaton
	// kwRules[k] lists the indexes of rules that own keyword k; kwExact[k] is the keyword as written when
	// it must match case-sensitively, or "".
	kwRules [][]int
	kwExact []string
}

var (
	compileOnce sync.Once
	compiled    *engine
)

// load compiles the rule table on first use; commands that never scan never pay for it.
func load() *engine {
	compileOnce.Do(func() { compiled = compile(ruleTable()) })
	return compiled
}

func compile(rules []*rule) *engine {
	e := &engine{rules: rules}
	for _, r := range rules {
		if r.pattern != "" {
			r.re = lazyRegexp(`^(?:` + r.pattern + `)`)
			r.wordStart = strings.HasPrefix(strings.TrimPrefix(r.pattern, "(?i)"), `\b`)
		}
	}
	if tableMatches(rules) {
		e.ac, e.kwRules, e.kwExact = &keywordTable, tableKwRules, tableKwExact
		return e
	}
	// The rules changed since automaton_table.go was generated (a test reports it): build the matcher now.
	var words []string
	words, e.kwRules, e.kwExact = routeKeywords(rules)
	e.ac = buildAutomaton(words, true)
	return e
}

// tableMatches reports whether the generated keyword table was built from these rules' keywords.
func tableMatches(rules []*rule) bool {
	if len(rules) != len(tableRuleKeywords) {
		return false
	}
	for ri, r := range rules {
		if r.caseSensitive != tableCaseSensitive[ri] || !slices.Equal(r.keywords, tableRuleKeywords[ri]) ||
			!slices.Equal(r.exactKeywords, tableRuleExact[ri]) {
			return false
		}
	}
	return true
}

// routeKeywords lists the distinct keywords of rules, lower-cased, as the automaton matches them, with the
// rules that own each (kwRules) and, for case-sensitive keywords, the keyword as written (kwExact).
func routeKeywords(rules []*rule) (words []string, kwRules [][]int, kwExact []string) {
	index := map[string]int{}
	for ri, r := range rules {
		for i, kw := range slices.Concat(r.keywords, r.exactKeywords) {
			exact := r.caseSensitive || i >= len(r.keywords)
			low := asciiLower(kw)
			key := foldSeparators(low)
			if exact {
				key = "=" + kw
			}
			k, ok := index[key]
			if !ok {
				k = len(kwRules)
				index[key] = k
				kwRules = append(kwRules, nil)
				if exact {
					kwExact = append(kwExact, kw)
				} else {
					kwExact = append(kwExact, "")
				}
				words = append(words, low)
			}
			kwRules[k] = append(kwRules[k], ri)
		}
	}
	return words, kwRules, kwExact
}

// Text scans text and returns its findings ordered by Start (then Rule), with overlapping duplicates of the
// same secret merged to one finding. Hidden characters are read as hidden.go says. It is safe for concurrent use; rules compile once per process, lazily, on
// the first call.
func Text(text string) []Finding {
	norm, at := unhide(text)
	if at == nil {
		return load().text(text)
	}
	return placeFindings(text, at, load().text(norm))
}

// scratch is what one call builds and drops: the keyword hits, every hit in order of its end and each rule's
// share of them, and the candidates the rules find. It is pooled because on a long note it is most of what a
// scan allocates, and memory that was just freed is faster to fill again than fresh memory. Nothing of it
// outlives the call: no rule keeps its hits, and findings are copied out of the candidates.
type scratch struct {
	all, later []kwHit
	counts     []int
	backing    []int
	hits, lens [][]int // per rule: start and length of each keyword hit, in order of its end
	spans      []span
	found      []candidate
}

// kwHit is an occurrence of keyword k at text[pos:].
type kwHit struct{ k, pos int }

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// pooledText bounds the texts whose scratch goes back to the pool: a note is at most 64 KiB, and the lists of
// one larger scan should not stay alive after it.
const pooledText = 64 << 10

// collect fills l with the keyword hits in text: the automaton lists them, a pass drops the case-sensitive
// ones written in another case and counts the rest per rule, and a last one deals them out to the rules from
// one array.
func (e *engine) collect(l *scratch, text string) {
	counts := slices.Grow(l.counts[:0], len(e.rules))[:len(e.rules)]
	clear(counts)
	found, later := e.ac.scan(text, l.all[:0], l.later[:0])
	l.later = later
	all := found[:0]
	for _, h := range found {
		if ex := e.kwExact[h.k]; ex != "" && text[h.pos:h.pos+len(ex)] != ex {
			continue
		}
		all = append(all, h)
		for _, ri := range e.kwRules[h.k] {
			counts[ri]++
		}
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	hits := slices.Grow(l.hits[:0], len(e.rules))[:len(e.rules)]
	lens := slices.Grow(l.lens[:0], len(e.rules))[:len(e.rules)]
	backing := slices.Grow(l.backing[:0], 2*total)[:2*total]
	l.all, l.counts, l.hits, l.lens, l.backing = all, counts, hits, lens, backing
	for ri, c := range counts {
		hits[ri], lens[ri] = backing[:0:c], backing[c:c:2*c]
		backing = backing[2*c:]
	}
	for _, h := range all {
		n := e.ac.lens[h.k]
		for _, ri := range e.kwRules[h.k] {
			hits[ri] = append(hits[ri], h.pos)
			lens[ri] = append(lens[ri], n)
		}
	}
}

func (e *engine) text(text string) []Finding {
	l := scratchPool.Get().(*scratch)
	if len(text) <= pooledText {
		defer scratchPool.Put(l)
	}
	e.collect(l, text)
	hits, lens := l.hits, l.lens
	found := l.found[:0]
	for ri, hs := range hits {
		if len(hs) == 0 {
			continue
		}
		r := e.rules[ri]
		var spans []span
		if r.findAll != nil {
			spans = r.findAll(text, hs)
		} else if r.find != nil {
			// Hits inside a secret already found (a key's BEGIN and END lines, "secret" and "secret_key" in one
			// name) would find it again.
			// Hits arrive in order of their end, so a longer keyword that starts earlier can follow; only hits
			// from the last examined one on are skipped.
			spans = l.spans[:0]
			from, done := 0, -1
			for i, at := range hs {
				if at >= from && at < done {
					continue
				}
				found, skip := r.find(text, at, lens[ri][i])
				from, done = at, max(at, skip)
				for _, s := range found {
					spans = append(spans, s)
					done = max(done, s.end)
				}
			}
			l.spans = spans
		} else {
			spans = r.run(text, hs)
		}
		for _, s := range spans {
			if s.start < 0 || s.end > len(text) || s.start >= s.end {
				continue
			}
			found = append(found, candidate{s.start, s.end, categoryRank(r.category), r})
		}
	}
	l.found = found
	return finish(text, found)
}

// run executes a pattern rule at each keyword hit. Every pattern starts with its keyword, so the expression is
// anchored at the hit and tried once there, on the rest of the line (plus linesAfter lines, at most [ahead]
// bytes). A leading \b is judged against the byte before the hit in the full text.
func (r *rule) run(text string, hits []int) []span {
	var out []span
	var re *regexp.Regexp // compiled at the first hit that passes the word-start check, if any does
	last := -1
	for _, at := range hits {
		if at == last {
			continue
		}
		last = at
		if r.wordStart && at > 0 && isWordByte(text[at-1]) {
			continue
		}
		hi := lineEnd(text, at, ahead)
		for i := 0; i < r.linesAfter && hi < len(text) && hi-at < ahead; i++ {
			hi = lineEnd(text, hi+1, ahead-(hi-at))
		}
		if r.token {
			if k := strings.IndexAny(text[at:hi], " \t\r\n"); k >= 0 {
				hi = at + k
			}
		}
		for hi > at && hi < len(text) && !utf8.RuneStart(text[hi]) {
			hi--
		}
		if r.may != nil && !r.may(text[at:hi]) {
			continue
		}
		if re == nil {
			re = r.re()
		}
		m := re.FindStringSubmatchIndex(text[at:hi])
		if m == nil {
			continue
		}
		s, e := m[0], m[1]
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] >= 0 {
				s, e = m[g], m[g+1]
				break
			}
		}
		if s >= e || (r.valid != nil && !r.valid(text[at+s:at+e])) {
			continue
		}
		out = append(out, span{at + s, at + e})
	}
	return out
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

// candidate is a secret found by a rule, before overlapping candidates are merged.
type candidate struct {
	start, end, rank int
	rule             *rule
}

// finish merges overlapping candidates, keeping the most specific, then fills in positions and previews.
func finish(text string, cs []candidate) []Finding {
	if len(cs) == 0 {
		return nil
	}
	slices.SortFunc(cs, func(a, b candidate) int {
		if a.start != b.start {
			return a.start - b.start
		}
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return strings.Compare(a.rule.id, b.rule.id)
	})
	kept := cs[:1]
	for _, c := range cs[1:] {
		last := &kept[len(kept)-1]
		if c.start < last.end {
			if better(c, *last) {
				*last = c
			}
			continue
		}
		kept = append(kept, c)
	}
	out := make([]Finding, len(kept))
	line, lineAt, pos := 1, 0, 0
	for i, c := range kept {
		if n := strings.Count(text[pos:c.start], "\n"); n > 0 {
			line += n
			lineAt = pos + strings.LastIndexByte(text[pos:c.start], '\n') + 1
		}
		pos = c.start
		out[i] = Finding{
			Rule: c.rule.id, Category: c.rule.category,
			Line: line, Column: c.start - lineAt + 1,
			Start: c.start, End: c.end,
			Preview: preview(text[c.start:c.end]),
		}
	}
	return out
}

// better reports whether a should be kept over b when both cover the same secret: the more specific category,
// then the longer span.
func better(a, b candidate) bool {
	if a.rank != b.rank {
		return a.rank > b.rank
	}
	if a.end-a.start != b.end-b.start {
		return a.end-a.start > b.end-b.start
	}
	return !a.rule.fallback && b.rule.fallback
}

// preview returns at most the first 4 runes of secret, and never more than a third of them, followed by "…".
// It stops before the first rune that is not printable (a control or format character, or invalid UTF-8),
// since previews reach a reviewer's terminal unescaped.
func preview(secret string) string {
	n := min(4, utf8.RuneCountInString(secret)/3)
	i := 0
	for ; n > 0 && i < len(secret); n-- {
		r, size := utf8.DecodeRuneInString(secret[i:])
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			break
		}
		i += size
	}
	return secret[:i] + "…"
}

// Rules lists every rule, sorted by ID.
func Rules() []Rule {
	rs := ruleTable()
	out := make([]Rule, 0, len(rs))
	for _, r := range rs {
		pos, neg := r.examples()
		out = append(out, Rule{ID: r.id, Category: r.category, Description: r.description, Positives: pos, Negatives: neg})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// lineStart returns the start of the line holding text[at], looking back at most limit bytes: hand-written
// matchers call it per keyword hit, and a 64 KiB line must not make that quadratic.
func lineStart(text string, at, limit int) int {
	lo := max(0, at-limit)
	return lo + strings.LastIndexByte(text[lo:at], '\n') + 1
}

// lineEnd returns the end (the newline or the end of text) of the line holding text[at], looking ahead at most
// limit bytes.
func lineEnd(text string, at, limit int) int {
	hi := min(len(text), at+limit)
	if i := strings.IndexByte(text[at:hi], '\n'); i >= 0 {
		return at + i
	}
	return hi
}

// foldSeparators writes every keyword separator as "_", the way the automaton sees it.
func foldSeparators(s string) string {
	b := []byte(s)
	for i, c := range b {
		if strings.IndexByte(separators, c) >= 0 {
			b[i] = '_'
		}
	}
	return string(b)
}

// appendLower appends s to b with ASCII letters lower-cased. A word is looked up in a map of lower-case words as
// m[string(appendLower(buf[:0], w))], with buf an array on the stack, without the allocation that
// m[lowerKey(w)] costs for every word with a capital.
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		b = append(b, lowerByte(s[i]))
	}
	return b
}

// appendKey is [appendLower] that also writes every keyword separator as "_": a keyword as the automaton
// matched it, in the form [foldSeparators] gives.
func appendKey(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := lowerByte(s[i])
		if isSeparator(c) {
			c = '_'
		}
		b = append(b, c)
	}
	return b
}

// asciiLower lowercases ASCII letters only, so byte offsets are preserved.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// lazyRegexp returns a function that compiles src on its first call and returns that expression on every
// call. The scanner's expressions are compiled this way, each when a note first calls for it: a process
// scans one note, and most notes call for few of them.
func lazyRegexp(src string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })
}

// lazyRegexps returns [lazyRegexp] of each source, by name.
func lazyRegexps(srcs map[string]string) map[string]func() *regexp.Regexp {
	out := make(map[string]func() *regexp.Regexp, len(srcs))
	for k, v := range srcs {
		out[k] = lazyRegexp(v)
	}
	return out
}
