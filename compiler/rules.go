package compiler

import "strings"

// rules is the built-in rule-based compiler; see the package comment for its policy.
type rules struct{}

// rulesName is the name and version of [Rules]. Bump the version whenever the same text could compile
// differently.
const rulesName = "rules/1"

// Name returns "rules/1".
func (rules) Name() string { return rulesName }

// Compile segments text into statements and classifies each one. It ignores src.
func (rules) Compile(text string, _ Source) Result {
	c := compilation{text: text}
	c.run()
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
}

func (c *compilation) run() {
	text := c.text
	for pos := 0; pos < len(text); {
		le := lineEnd(text, pos)
		next := le + 1
		s, e := trimSpace(text, pos, le)
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
		case isSeparator(text, s, e):
			c.skip(s, e, reasonSeparator)
		default:
			c.line(s, e)
		}
		pos = next
	}
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

// line compiles one non-blank line text[s:e] that is not a heading, fence or separator.
func (c *compilation) line(s, e int) {
	cs, item, box := stripMarkers(c.text, s, e)
	if !item {
		c.inList = false
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
	sentences(c.text, cs, e, func(a, b int) {
		count++
		var v verdict
		v, c.buf = classify(c.text[a:b], ctx, c.buf)
		if v.named != "" && v.named != kindQuestion {
			ctx.lineKind = v.named
		}
		lastHeading = v.reason == reasonHeading
		if v.reason != "" {
			c.skip(a, b, v.reason)
			return
		}
		c.claim(a, b, v.kind)
	})
	if count == 1 && lastHeading {
		// "Next steps:" alone on a line names the kind of the list items under it.
		c.listKind = ctx.lineKind
		if c.listKind == "" {
			c.listKind = c.section
		}
		c.inList = true
	}
}

func (c *compilation) skip(s, e int, reason string) {
	c.skipped = append(c.skipped, Skip{Text: c.text[s:e], Reason: reason, Span: Span{s, e}})
}

func (c *compilation) claim(s, e int, kind string) {
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
	c.claims = append(c.claims, Claim{Key: key, Text: text, Kind: kind, Spans: []Span{{s, e}}})
}
