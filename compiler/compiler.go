package compiler

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Kinds of claim.
const (
	Decision   = "decision"
	Fact       = "fact"
	Constraint = "constraint"
	Preference = "preference"
	NextStep   = "next-step"
)

// Span is a byte range [Start, End) of the source text.
type Span struct{ Start, End int }

// Claim is one durable statement. Text is exactly source[Spans[0].Start:Spans[0].End] (the statement without its
// bullet/number marker and surrounding white space). Spans lists every place the same statement (same Key) occurs,
// in source order; a statement stated twice in one text is one Claim with two spans.
//
// Context is what the note says around the statement's first occurrence and the statement does not repeat:
// the note's title, the headings above it, the intro line of its list, a leading label or speaker prefix
// ("Priya (3 March 2026)"), joined by " > ". It is not part of Text or of the evidence.
type Claim struct {
	Key     string // Key(Text)
	Text    string
	Kind    string
	Context string
	Spans   []Span
}

// Skip is a fragment that was not accepted, with the reason preview shows (short, lowercase, e.g.
// "progress chatter", "fragment: fewer than 3 words", "filler", "question", "heading").
type Skip struct {
	Text   string
	Reason string
	Span   Span
}

// Source is metadata about where the text came from; a compiler may use it but must stay deterministic.
type Source struct{ Kind, Session, Task string }

// Result is what a compiler made of one text. Claims are in order of first occurrence.
type Result struct {
	Compiler string // e.g. "rules/5"
	Claims   []Claim
	Skipped  []Skip
}

// Compiler turns text into claims.
//
// Compile must be pure and deterministic: it does no I/O, and the same text and Source give the same Result.
// Every span it reports lies inside text on UTF-8 boundaries, and each Claim's Text is text[Spans[0]].
// Name identifies the compiler and its version (for example "rules/1"); it equals Result.Compiler.
type Compiler interface {
	Name() string
	Compile(text string, src Source) Result
}

// Rules is the built-in rule-based compiler, named "rules/5". Of [Source] it reads only Task, which heads
// every claim's Context. It is safe for concurrent use.
var Rules Compiler = rules{}

// Key returns the normalized identity of a statement: NFC, Unicode case folding (golang.org/x/text/cases.Fold),
// white space folded to single spaces and trimmed, trailing sentence punctuation dropped.
//
// Key is idempotent: Key(Key(s)) == Key(s). Cherokee letters fold to their uppercase forms, as Unicode's
// case folding specifies (cases.Fold alone maps them back and forth). Invalid UTF-8 bytes are kept.
func Key(statement string) string {
	s := statement
	if !isASCII(s) {
		// Fold can leave text that is not in NFC (and NFC can create new foldable runes), so
		// normalize on both sides. A Caser is stateful: make one per call rather than share it.
		s = norm.NFC.String(s)
		s = cases.Fold().String(s)
		s = norm.NFC.String(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	pendingSpace := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if asciiSpace(c) {
				pendingSpace = b.Len() > 0
				continue
			}
			if pendingSpace {
				b.WriteByte(' ')
				pendingSpace = false
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			pendingSpace = b.Len() > 0
			i += n
			continue
		}
		if pendingSpace {
			b.WriteByte(' ')
			pendingSpace = false
		}
		switch {
		case 0xAB70 <= r && r <= 0xABBF:
			// Unicode folds Cherokee to its uppercase letters, but cases.Fold maps them to lowercase and
			// lowercase back to uppercase, so Fold alone is not idempotent: finish the fold here.
			b.WriteRune(r - 0xAB70 + 0x13A0)
		case 0x13F8 <= r && r <= 0x13FD:
			b.WriteRune(r - 0x13F8 + 0x13F0)
		default:
			// Copy the bytes, not r: invalid bytes must stay as they were, or Key would not be idempotent.
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return strings.TrimRightFunc(b.String(), func(r rune) bool { return isKeyTrailer(r) || unicode.IsSpace(r) })
}

// isKeyTrailer reports whether r is sentence punctuation that [Key] drops from the end of a statement.
func isKeyTrailer(r rune) bool {
	switch r {
	case '.', '!', '?', ';', ':', ',', '…', '。', '！', '？', '；', '：', '，':
		return true
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func asciiSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}
