package scan

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Finding is one suspected secret in a text. Start and End are byte offsets [Start, End) of the secret value
// (or the whole match) in the scanned text; Line and Column are 1-based (Column counts bytes, 1-based, from the
// line start). Preview is a redacted excerpt: at most the first 4 runes of the secret followed by "…", and never
// more than a third of the secret's runes.
type Finding struct {
	Rule     string `json:"rule"`     // rule ID, e.g. "aws-access-key-id"
	Category string `json:"category"` // e.g. "aws", "auth-header", "private-key", "credential", "vendor-token", "entropy"
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
// first here is kept.
const (
	CategoryVendor     = "vendor-token"
	CategoryAWS        = "aws"
	CategoryPrivateKey = "private-key"
	CategoryAuthHeader = "auth-header"
	CategoryCredential = "credential"
	CategoryEntropy    = "entropy"
)

var categoryRank = map[string]int{
	CategoryVendor:     6,
	CategoryAWS:        5,
	CategoryPrivateKey: 4,
	CategoryAuthHeader: 3,
	CategoryCredential: 2,
	CategoryEntropy:    1,
}

// Window limits around a keyword hit, in bytes, for rules that do not set their own. They bound the work a
// pathological line (64 KiB without a newline) can cause.
const (
	defaultBack  = 256
	defaultAhead = 2048
)

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
	// pattern is run on the lines around each hit (linesBefore and linesAfter extra lines). The secret is the
	// first capture group that took part in the match, or the whole match when there is none.
	pattern                 string
	linesBefore, linesAfter int
	// valid, if set, accepts or rejects the secret found by pattern.
	valid func(secret string) bool
	// find, if set, replaces pattern: it examines the keyword hit at text[at:at+n] and returns secrets.
	find func(text string, at, n int) []span

	positives, negatives []string

	re *regexp.Regexp
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
	index := map[string]int{}
	var words []string
	for ri, r := range rules {
		if r.pattern != "" {
			r.re = regexp.MustCompile(r.pattern)
		}
		for _, kw := range r.keywords {
			low := asciiLower(kw)
			key := low
			if r.caseSensitive {
				key = "=" + kw
			}
			k, ok := index[key]
			if !ok {
				k = len(e.kwRules)
				index[key] = k
				e.kwRules = append(e.kwRules, nil)
				exact := ""
				if r.caseSensitive {
					exact = kw
				}
				e.kwExact = append(e.kwExact, exact)
				words = append(words, low)
			}
			e.kwRules[k] = append(e.kwRules[k], ri)
		}
	}
	e.ac = newAutomaton(words)
	return e
}

// Text scans text and returns its findings ordered by Start (then Rule), with overlapping duplicates of the
// same secret merged to one finding. It is safe for concurrent use; rules compile once per process, lazily, on
// the first call.
func Text(text string) []Finding {
	e := load()
	hits := make([][]int, len(e.rules)) // per rule: keyword hit positions, packed as pos<<8|len is avoided for clarity
	lens := make([][]int, len(e.rules))
	e.ac.scan(text, func(k, pos int) {
		if ex := e.kwExact[k]; ex != "" && text[pos:pos+len(ex)] != ex {
			return
		}
		n := e.ac.lens[k]
		for _, ri := range e.kwRules[k] {
			hits[ri] = append(hits[ri], pos)
			lens[ri] = append(lens[ri], n)
		}
	})
	var found []Finding
	for ri, hs := range hits {
		if len(hs) == 0 {
			continue
		}
		r := e.rules[ri]
		var spans []span
		if r.find != nil {
			for i, at := range hs {
				spans = append(spans, r.find(text, at, lens[ri][i])...)
			}
		} else {
			spans = r.run(text, hs)
		}
		for _, s := range spans {
			if s.start < 0 || s.end > len(text) || s.start >= s.end {
				continue
			}
			found = append(found, Finding{Rule: r.id, Category: r.category, Start: s.start, End: s.end})
		}
	}
	return finish(text, found)
}

// run executes a pattern rule on merged windows around its keyword hits.
func (r *rule) run(text string, hits []int) []span {
	type window struct{ lo, hi int }
	ws := make([]window, 0, len(hits))
	for _, at := range hits {
		lo := lineStart(text, at)
		for i := 0; i < r.linesBefore && lo > 0; i++ {
			lo = lineStart(text, lo-1)
		}
		hi := lineEnd(text, at)
		for i := 0; i < r.linesAfter && hi < len(text); i++ {
			hi = lineEnd(text, hi+1)
		}
		back := defaultBack + r.linesBefore*defaultBack
		ahead := defaultAhead + r.linesAfter*defaultBack
		if at-lo > back {
			lo = at - back
			for lo < at && !utf8.RuneStart(text[lo]) {
				lo++
			}
		}
		if hi-at > ahead {
			hi = at + ahead
			for hi > at && hi < len(text) && !utf8.RuneStart(text[hi]) {
				hi--
			}
		}
		ws = append(ws, window{lo, hi})
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].lo < ws[j].lo })
	merged := ws[:1]
	for _, w := range ws[1:] {
		last := &merged[len(merged)-1]
		if w.lo <= last.hi {
			last.hi = max(last.hi, w.hi)
			continue
		}
		merged = append(merged, w)
	}
	var out []span
	for _, w := range merged {
		for _, m := range r.re.FindAllStringSubmatchIndex(text[w.lo:w.hi], -1) {
			s, e := m[0], m[1]
			for g := 2; g+1 < len(m); g += 2 {
				if m[g] >= 0 {
					s, e = m[g], m[g+1]
					break
				}
			}
			if s >= e {
				continue
			}
			if r.valid != nil && !r.valid(text[w.lo+s:w.lo+e]) {
				continue
			}
			out = append(out, span{w.lo + s, w.lo + e})
		}
	}
	return out
}

// finish merges overlapping findings, keeping the most specific, then fills in positions and previews.
func finish(text string, fs []Finding) []Finding {
	if len(fs) == 0 {
		return nil
	}
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].Start != fs[j].Start {
			return fs[i].Start < fs[j].Start
		}
		if better(fs[i], fs[j]) != better(fs[j], fs[i]) {
			return better(fs[i], fs[j])
		}
		return fs[i].Rule < fs[j].Rule
	})
	kept := fs[:1]
	for _, f := range fs[1:] {
		last := &kept[len(kept)-1]
		if f.Start < last.End {
			if better(f, *last) {
				*last = f
			}
			continue
		}
		kept = append(kept, f)
	}
	line, lineAt, pos := 1, 0, 0
	for i := range kept {
		f := &kept[i]
		for pos < f.Start {
			if j := strings.IndexByte(text[pos:f.Start], '\n'); j >= 0 {
				pos += j + 1
				line++
				lineAt = pos
				continue
			}
			pos = f.Start
		}
		f.Line = line
		f.Column = f.Start - lineAt + 1
		f.Preview = preview(text[f.Start:f.End])
	}
	return kept
}

// better reports whether a should be kept over b when both cover the same secret.
func better(a, b Finding) bool {
	if ra, rb := categoryRank[a.Category], categoryRank[b.Category]; ra != rb {
		return ra > rb
	}
	return a.End-a.Start > b.End-b.Start
}

// preview returns at most the first 4 runes of secret, and never more than a third of them, followed by "…".
func preview(secret string) string {
	n := min(4, utf8.RuneCountInString(secret)/3)
	i := 0
	for ; n > 0 && i < len(secret); n-- {
		_, size := utf8.DecodeRuneInString(secret[i:])
		i += size
	}
	return strings.ToValidUTF8(secret[:i], "") + "…"
}

// Rules lists every rule, sorted by ID.
func Rules() []Rule {
	rs := ruleTable()
	out := make([]Rule, 0, len(rs))
	for _, r := range rs {
		out = append(out, Rule{
			ID: r.id, Category: r.category, Description: r.description,
			Positives: append([]string(nil), r.positives...),
			Negatives: append([]string(nil), r.negatives...),
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func lineStart(text string, at int) int {
	return strings.LastIndexByte(text[:at], '\n') + 1
}

func lineEnd(text string, at int) int {
	if i := strings.IndexByte(text[at:], '\n'); i >= 0 {
		return at + i
	}
	return len(text)
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
