package compiler

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// rules is the built-in rule-based compiler; see the package comment for its policy.
type rules struct{}

// rulesName is the name and version of [Rules]. Bump the version whenever the same text could compile
// differently.
const rulesName = "rules/5"

// Name returns "rules/5".
func (rules) Name() string { return rulesName }

// Compile segments text into statements and classifies each one. Of src it reads only Task, the note's
// subject, which heads every claim's context.
func (rules) Compile(text string, src Source) Result {
	c := compilation{text: text, task: src.Task}
	c.end, c.marker = truncation(text)
	c.run()
	if c.marker < len(text) {
		s, e := trimSpace(text, c.marker, len(text))
		c.skip(s, e, reasonMarker)
	}
	if c.claims == nil {
		c.claims = []Claim{}
	}
	if c.skipped == nil {
		c.skipped = []Skip{}
	}
	return Result{Compiler: rulesName, Claims: c.claims, Skipped: c.skipped}
}

// compilation is the state of one Compile call.
type compilation struct {
	text    string
	claims  []Claim
	skipped []Skip
	index   map[string]int // claim Key -> index in claims; made on the second claim
	buf     []byte

	section  string // kind named by the last Markdown heading
	listKind string // kind named by a "Label:" line, for the list items under it
	inList   bool   // listKind applies

	end, marker int // the text compiled is text[:end]; text[marker:] is a truncation marker, if any

	// Context of the statements: the task the note was written for, the note's title line, the Markdown
	// headings above (headings[i] at level i+1), the intro line of a list or paragraph ("Decisions:"), and
	// labels on the current line.
	task       string
	title      string
	headings   [6]string
	intro      string
	introFresh bool // no line has followed the intro yet
	lines      int  // non-blank lines seen
}

func (c *compilation) run() {
	text := c.text[:c.end]
	for pos := 0; pos < len(text); {
		le := lineEnd(text, pos)
		next := le + 1
		s, e := trimSpace(text, pos, le)
		if s < e {
			c.lines++
		}
		switch {
		case s == e:
			// Blank lines separate nothing that matters here.
		case fenceAt(text, s, e) != "":
			next = c.fence(fenceAt(text, s, e), s, next)
		case headingLevel(text, s, e) > 0:
			c.skip(s, e, reasonHeading)
			h := headingLevel(text, s, e)
			c.buf, _ = words(c.buf, text[s+h:e])
			c.section = labelKind(string(c.buf))
			if c.section == kindQuestion {
				c.section = ""
			}
			c.inList = false
			hs, he := trimSpace(text, s+h, e)
			c.headings[h-1] = strings.Trim(text[hs:he], "# \t")
			for i := h; i < len(c.headings); i++ {
				c.headings[i] = ""
			}
			c.intro, c.introFresh = "", false
		case isSeparator(text, s, e):
			c.skip(s, e, reasonSeparator)
		default:
			if c.lines == 1 && isTitle(text, s, e, next) {
				c.title = text[s:e]
			}
			// The line that holds the truncation cut ends in a fragment.
			c.line(s, e, le == len(text) && c.marker < len(c.text))
		}
		pos = next
	}
}

// isTitle reports whether text[s:e], the first line of a note, is its title: a short line without
// sentence punctuation at its end, followed by a blank line or nothing.
func isTitle(text string, s, e, next int) bool {
	if e-s > 100 || strings.ContainsAny(text[e-1:e], ".!?;,") {
		return false
	}
	if next >= len(text) {
		return true
	}
	ns, ne := trimSpace(text, next, lineEnd(text, next))
	return ns == ne
}

// truncation finds the marker line that [checkpoint.Cap] appends to a note it cut,
// "\n[memoree: truncated: kept N of M bytes]\n", at the end of text. It returns the end of the text
// before the marker and where the marker line starts, or len(text) twice when there is none. The marker
// counts only when N is the length of the text before it, as Cap writes it.
func truncation(text string) (end, marker int) {
	const head, tail = "\n[memoree: truncated: kept ", " bytes]\n"
	if !strings.HasSuffix(text, tail) {
		return len(text), len(text)
	}
	i := strings.LastIndex(text, head)
	if i < 0 {
		return len(text), len(text)
	}
	var kept, total int
	if n, err := fmt.Sscanf(text[i+len(head):], "%d of %d", &kept, &total); n != 2 || err != nil || kept != i ||
		text[i+len(head):] != fmt.Sprintf("%d of %d%s", kept, total, tail) {
		return len(text), len(text)
	}
	return i, i + 1
}

// lineEnd returns the index of the '\n' that ends the line starting at pos, or len(text).
func lineEnd(text string, pos int) int {
	if i := strings.IndexByte(text[pos:], '\n'); i >= 0 {
		return pos + i
	}
	return len(text)
}

// fence records the code block opened by fence at s and returns where the text after it starts. A block
// that is never closed runs to the end of the text.
func (c *compilation) fence(fence string, s, pos int) int {
	text := c.text
	end := lineEnd(text, s)
	_, end = trimSpace(text, s, end)
	for pos < len(text) {
		le := lineEnd(text, pos)
		ls, lend := trimSpace(text, pos, le)
		pos = le + 1
		if ls < lend {
			end = lend
		}
		if lend-ls >= len(fence) && text[ls:ls+len(fence)] == fence {
			break
		}
	}
	c.skip(s, end, reasonCode)
	return pos
}

// line compiles one non-blank line text[s:e] that is not a heading, fence or separator. cut says that the
// line ends where the text was truncated, so its last statement is a fragment.
func (c *compilation) line(s, e int, cut bool) {
	cs, item, box := stripMarkers(c.text, s, e)
	if !item {
		c.inList = false
	}
	// An intro applies to the list items after it and to the lines of its paragraph; a new paragraph
	// ends it.
	fresh := c.introFresh
	c.introFresh = false
	if c.intro != "" && !fresh && !item && !c.continuesIntro(s) {
		c.intro = ""
	}
	if cs >= e {
		return
	}
	ctx := statementContext{box: box, section: c.section}
	if c.inList && item {
		ctx.section = c.listKind
	}
	count := 0
	lastHeading := false
	lineLabel := ""
	var lastA, lastB int
	sentences(c.text, cs, e, func(a, b int) {
		count++
		lastA, lastB = a, b
		// Leading labels that name no kind ("Priya (3 March 2026):", "Root cause:") are the statement's
		// context, not its text; a label that names a kind ("TODO:") stays, as before.
		label := ""
		for range 2 {
			l, rest, ok := contextLabel(c.text[a:b])
			if !ok {
				break
			}
			label = joinContext(label, l)
			a = b - len(rest)
		}
		var v verdict
		v, c.buf = classify(c.text[a:b], ctx, c.buf)
		switch {
		case count == 1:
			lineLabel = label
		case isField(lineLabel) && (isField(label) || label == "" && v.named != "" && v.named != kindQuestion):
			// "Goal: ship it. Decision: use X.": a field of its own ends the field before it on the line.
			lineLabel = label
		case label == "":
			label = lineLabel
		default:
			label = joinContext(lineLabel, label)
		}
		if v.named != "" && v.named != kindQuestion {
			ctx.lineKind = v.named
		}
		lastHeading = v.reason == reasonHeading
		if v.reason != "" {
			c.skip(a, b, v.reason)
			return
		}
		if cut && b == e {
			c.skip(a, b, reasonTruncated)
			return
		}
		c.claim(a, b, v.kind, c.context(s, label))
	})
	if count == 1 && lastHeading {
		// "Next steps:" alone on a line names the kind of the list items under it, and is their context.
		c.listKind = ctx.lineKind
		if c.listKind == "" {
			c.listKind = c.section
		}
		c.inList = true
		c.intro = strings.TrimRight(strings.Trim(c.text[lastA:lastB], "*_ \t"), ":：*_ ")
		c.introFresh = true
	}
}

// continuesIntro reports whether the line at s directly follows the previous non-blank line, so that an
// intro ("Ines's handoff:") still applies to it.
func (c *compilation) continuesIntro(s int) bool {
	i := s
	for i > 0 && (c.text[i-1] == ' ' || c.text[i-1] == '\t' || c.text[i-1] == '\r') {
		i--
	}
	if i == 0 || c.text[i-1] != '\n' {
		return true
	}
	j := i - 1
	for j > 0 && (c.text[j-1] == ' ' || c.text[j-1] == '\t' || c.text[j-1] == '\r') {
		j--
	}
	return j == 0 || c.text[j-1] != '\n'
}

// isField reports whether a label is a field name ("Goal", "Root cause", "Nächste Schritte"): at most three
// words of letters, which a speaker, a date, a ticket or a possessive ("Ines's handoff") is not.
func isField(label string) bool {
	if label == "" || strings.Count(label, " ") > 2 {
		return false
	}
	for _, r := range label {
		if !unicode.IsLetter(r) && r != ' ' && r != '-' {
			return false
		}
	}
	return true
}

// maxContext bounds the bytes of a claim's context.
const maxContext = 300

// context returns the context of a statement on the line at s with label: the task, the title (unless the
// statement is on the title line), the headings above, the intro and the label, joined by " > ".
func (c *compilation) context(s int, label string) string {
	ctx := c.task
	if c.title != "" && s != c.titleStart() {
		ctx = joinContext(ctx, c.title)
	}
	for _, h := range c.headings {
		if h != "" {
			ctx = joinContext(ctx, h)
		}
	}
	ctx = joinContext(ctx, c.intro)
	ctx = joinContext(ctx, label)
	if len(ctx) > maxContext {
		cut := maxContext
		for cut > 0 && !utf8.RuneStart(ctx[cut]) {
			cut--
		}
		ctx = ctx[:cut]
	}
	return ctx
}

// titleStart is where the title line starts: the first non-blank byte of the text.
func (c *compilation) titleStart() int {
	s, _ := trimSpace(c.text, 0, len(c.text))
	return s
}

// joinContext appends part to ctx, unless it is empty or repeats the end of ctx.
func joinContext(ctx, part string) string {
	switch {
	case part == "", strings.HasSuffix(ctx, part):
		return ctx
	case ctx == "":
		return part
	}
	return ctx + contextSep + part
}

// contextSep separates the parts of a claim's context.
const contextSep = " > "

func (c *compilation) skip(s, e int, reason string) {
	c.skipped = append(c.skipped, Skip{Text: c.text[s:e], Reason: reason, Span: Span{s, e}})
}

func (c *compilation) claim(s, e int, kind, context string) {
	text := c.text[s:e]
	key := Key(text)
	if c.index == nil && len(c.claims) > 0 {
		c.index = make(map[string]int, 16)
		for i, cl := range c.claims {
			c.index[cl.Key] = i
		}
	}
	if c.index != nil {
		if i, ok := c.index[key]; ok {
			c.claims[i].Spans = append(c.claims[i].Spans, Span{s, e})
			return
		}
		c.index[key] = len(c.claims)
	}
	c.claims = append(c.claims, Claim{Key: key, Text: text, Kind: kind, Context: context, Spans: []Span{{s, e}}})
}
