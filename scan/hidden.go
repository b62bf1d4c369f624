package scan

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Hidden characters.
//
// A byte-order mark before a note's first word, a no-break space or an ideographic space between two words, a
// zero-width space or a soft hyphen inside one: none of them changes what a reader sees, and each used to
// keep a rule from matching ("Ignore\u00a0all previous instructions", "AKIA\u200bQ4ZJ…"). Before the rules
// run, every space character other than U+0020 (Unicode category Zs) reads as a space and every format
// character (Cf: zero-width spaces and joiners, soft hyphens, byte-order marks, bidi controls) is left out,
// except the tag characters that spell ASCII invisibly (U+E0020-U+E007E), which read as the letters they spell;
// and a backslash at a line's end joins the line to the next, as in a shell command continued over lines.
// Letters drawn like others read as those (see [folded]): full-width and mathematical letters as ASCII, and
// Cyrillic or Greek look-alikes inside a Latin word as the Latin letters.
// Findings are given in the text as it was: Start, End, Line and Column count its bytes, and a span that
// holds hidden characters holds them there too, as does its preview.

// unhide returns text with hidden characters read as the rules should, and for each byte of the result the
// offset in text of the byte it came from; it returns text itself and nil when there is none, the usual case.
func unhide(text string) (string, []int32) {
	first := firstHidden(text)
	if k := strings.Index(text, "\\\n"); k >= 0 && (first < 0 || k < first) {
		first = k
	}
	if first < 0 {
		return text, nil
	}
	var b strings.Builder
	b.Grow(len(text))
	at := make([]int32, 0, len(text))
	b.WriteString(text[:first])
	for i := range first {
		at = append(at, int32(i))
	}
	for i := first; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		read := text[i : i+size] // what the rules read for the rune
		switch {
		case r == '\\' && strings.HasPrefix(text[i+1:], "\n"):
			// A line continued with a backslash, as shell commands are: one line to the rules.
			read, size = "  ", 2
		case hidden(r):
			switch {
			case unicode.Is(unicode.Zs, r):
				read = " "
			case r >= 0xE0020 && r <= 0xE007E:
				// A tag character spells its ASCII letter invisibly: text hidden that way is read as that text.
				read = string(rune(r - 0xE0000))
			default:
				read = "" // a format character: left out
			}
		default:
			if f := folded(text, i, r); f != "" {
				read = f
			}
		}
		b.WriteString(read)
		kept := read == text[i:i+size]
		for k := range len(read) {
			// A byte kept as it is maps to itself; one of a replacement to the start of what it replaces.
			if kept {
				at = append(at, int32(i+k))
			} else {
				at = append(at, int32(i))
			}
		}
		i += size
	}
	return b.String(), at
}

// firstHidden returns the offset of the first hidden character in text, or -1. Every one of them is outside
// ASCII, and most notes are ASCII: the scan for them costs a pass over the bytes.
func firstHidden(text string) int {
	for i := 0; i < len(text); {
		if i+8 <= len(text) && (text[i]|text[i+1]|text[i+2]|text[i+3]|text[i+4]|text[i+5]|text[i+6]|text[i+7]) < utf8.RuneSelf {
			i += 8
			continue
		}
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if hidden(r) || folded(text, i, r) != "" {
			return i
		}
		i += size
	}
	return -1
}

// folded returns the plain letters a reader takes the rune r at text[i] for, or "" when it reads as itself:
// a full-width, mathematical or circled letter or digit (or a full-width bar) as its ASCII form (Unicode
// compatibility decomposition, NFKC), and a Cyrillic or Greek letter that looks like a Latin one as that letter when its
// word also holds ASCII letters ("Ignоre" with a Cyrillic о). A word all in one script is left alone, so
// Russian and Greek notes read as written.
func folded(text string, i int, r rune) string {
	switch {
	case r >= 0xFF10 && r <= 0xFF19, r >= 0xFF21 && r <= 0xFF3A, r >= 0xFF41 && r <= 0xFF5A, r == 0xFF5C,
		r >= 0x1D400 && r <= 0x1D7FF, r >= 0x2460 && r <= 0x24FF:
		// Full-width punctuation other than the bar stays: CJK text writes its colons and commas so.
		if f := norm.NFKC.String(string(r)); f != string(r) {
			return f
		}
	case r >= 0x370 && r <= 0x4FF:
		if l, ok := lookalikes[r]; ok && latinInWord(text, i) {
			return l
		}
	}
	return ""
}

// lookalikes are the Cyrillic and Greek letters drawn like Latin ones.
var lookalikes = map[rune]string{
	'а': "a", 'е': "e", 'о': "o", 'р': "p", 'с': "c", 'у': "y", 'х': "x", 'і': "i", 'ј': "j", 'ѕ': "s", 'ԁ': "d",
	'ӏ': "l", 'һ': "h", 'ԛ': "q", 'ԝ': "w", 'А': "A", 'В': "B", 'Е': "E", 'К': "K", 'М': "M", 'Н': "H", 'О': "O",
	'Р': "P", 'С': "C", 'Т': "T", 'У': "Y", 'Х': "X", 'І': "I", 'Ј': "J", 'Ѕ': "S",
	'ο': "o", 'α': "a", 'ν': "v", 'ι': "i", 'κ': "k", 'ρ': "p", 'τ': "t", 'υ': "u", 'Α': "A", 'Β': "B", 'Ε': "E",
	'Ζ': "Z", 'Η': "H", 'Ι': "I", 'Κ': "K", 'Μ': "M", 'Ν': "N", 'Ο': "O", 'Ρ': "P", 'Τ': "T", 'Υ': "Y", 'Χ': "X",
}

// latinInWord reports whether the word around text[i] (its run of letters) holds an ASCII letter.
func latinInWord(text string, i int) bool {
	isASCIILetter := func(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
	for j := i; j > 0; {
		r, size := utf8.DecodeLastRuneInString(text[:j])
		if !unicode.IsLetter(r) {
			break
		}
		if size == 1 && isASCIILetter(byte(r)) {
			return true
		}
		j -= size
	}
	for j := i; j < len(text); {
		r, size := utf8.DecodeRuneInString(text[j:])
		if !unicode.IsLetter(r) {
			break
		}
		if size == 1 && isASCIILetter(byte(r)) {
			return true
		}
		j += size
	}
	return false
}

// hidden reports whether r is a space other than U+0020 or a format character. The letters of most scripts
// lie where there is none, and are told apart without a table search (TestHidden checks every rune).
func hidden(r rune) bool {
	switch {
	case r < 0xA0:
		return false
	case r < 0x600:
		return r == 0xA0 || r == 0xAD
	case r > 0x8E2 && r < 0x2000:
		return r == 0x1680 || r == 0x180E
	case r > 0x206F && r < 0xFEFF:
		return r == 0x3000
	}
	return unicode.Is(unicode.Zs, r) || unicode.Is(unicode.Cf, r)
}

// placeFindings gives findings made in the text unhide returned (norm, with offsets at) their place in text.
// Findings come ordered by Start, so lines are counted once over the text, as in finish.
func placeFindings(text string, at []int32, fs []Finding) []Finding {
	line, lineAt, pos := 1, 0, 0
	for i := range fs {
		f := &fs[i]
		start, end := int(at[f.Start]), int(at[f.End-1])+1
		for end < len(text) && !utf8.RuneStart(text[end]) {
			end++
		}
		if n := strings.Count(text[pos:start], "\n"); n > 0 {
			line += n
			lineAt = pos + strings.LastIndexByte(text[pos:start], '\n') + 1
		}
		pos = start
		f.Start, f.End, f.Preview = start, end, preview(text[start:end])
		f.Line, f.Column = line, start-lineAt+1
	}
	return fs
}

// tagged spells s in tag characters, which no terminal shows: an example of text hidden that way.
func tagged(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(0xE0000 + r)
	}
	return b.String()
}
