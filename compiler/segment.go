package compiler

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Segmentation works on byte offsets into the source and cuts only next to ASCII bytes or between runes
// decoded from a line start, so every span lies on a UTF-8 boundary. Lines are the outer unit; a line
// loses its block-quote, bullet, number and task-box markers, and what remains is cut into sentences.

// isSpaceRune reports white space for trimming; U+FEFF (a byte order mark) counts as white space.
func isSpaceRune(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// trimSpace returns the bounds of text[s:e] without leading and trailing white space.
func trimSpace(text string, s, e int) (int, int) {
	for s < e {
		c := text[s]
		if c < utf8.RuneSelf {
			if !asciiSpace(c) {
				break
			}
			s++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[s:e])
		if !isSpaceRune(r) {
			break
		}
		s += n
	}
	for e > s {
		c := text[e-1]
		if c < utf8.RuneSelf {
			if !asciiSpace(c) {
				break
			}
			e--
			continue
		}
		r, n := utf8.DecodeLastRuneInString(text[s:e])
		if !isSpaceRune(r) {
			break
		}
		e -= n
	}
	return s, e
}

// spaceAt reports whether text[i] starts a white space rune (false at the end of text).
func spaceAt(text string, i, e int) bool {
	if i >= e {
		return false
	}
	if c := text[i]; c < utf8.RuneSelf {
		return asciiSpace(c)
	}
	r, _ := utf8.DecodeRuneInString(text[i:e])
	return isSpaceRune(r)
}

// fenceAt reports whether text[s:e] opens or closes a code fence and returns the fence string.
func fenceAt(text string, s, e int) string {
	if e-s >= 3 {
		switch text[s : s+3] {
		case "```":
			return "```"
		case "~~~":
			return "~~~"
		}
	}
	return ""
}

// isSeparator reports whether text[s:e] is a thematic break such as "---", "***" or "===".
func isSeparator(text string, s, e int) bool {
	n := 0
	for i := s; i < e; i++ {
		switch text[i] {
		case '-', '*', '_', '=':
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// headingLevel returns the number of leading '#' of a Markdown ATX heading in text[s:e], or 0.
func headingLevel(text string, s, e int) int {
	n := 0
	for s+n < e && text[s+n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return 0
	}
	if s+n < e && !spaceAt(text, s+n, e) {
		return 0
	}
	return n
}

// Task-box states found after a list marker.
const (
	noBox = iota
	openBox
	doneBox
)

// stripMarkers skips block-quote, bullet, number and task-box markers at text[s:e]. It returns the start
// of the content, whether a list marker was found, and the task-box state.
func stripMarkers(text string, s, e int) (int, bool, int) {
	item := false
	box := noBox
	for s < e {
		n := markerLen(text, s, e)
		if n == 0 {
			break
		}
		if text[s] != '>' {
			item = true
		}
		s, _ = trimSpace(text, s+n, e)
	}
	if item && e-s >= 3 && text[s] == '[' && text[s+2] == ']' && (s+3 == e || spaceAt(text, s+3, e)) {
		switch text[s+1] {
		case ' ':
			box = openBox
		case 'x', 'X':
			box = doneBox
		}
		if box != noBox {
			s, _ = trimSpace(text, s+3, e)
		}
	}
	return s, item, box
}

// markerLen returns the length of a list or block-quote marker at text[s:e] that is followed by white
// space (or ends the line), or 0.
func markerLen(text string, s, e int) int {
	n := 0
	switch c := text[s]; {
	case c == '>':
		return 1
	case c == '-' || c == '*' || c == '+':
		n = 1
	case strings.HasPrefix(text[s:e], "•"):
		n = len("•")
	case c == '(':
		// "(1)" or "(a)"
		i := s + 1
		for i < e && i-s <= 3 && '0' <= text[i] && text[i] <= '9' {
			i++
		}
		if i == s+1 && i < e && isASCIILetter(text[i]) {
			i++
		}
		if i == s+1 || i >= e || text[i] != ')' {
			return 0
		}
		n = i + 1 - s
	case '0' <= c && c <= '9':
		i := s
		for i < e && i-s < 3 && '0' <= text[i] && text[i] <= '9' {
			i++
		}
		if i >= e || (text[i] != '.' && text[i] != ')') {
			return 0
		}
		n = i + 1 - s
	case isASCIILetter(c):
		if s+1 >= e || text[s+1] != ')' {
			return 0
		}
		n = 2
	default:
		return 0
	}
	if s+n < e && !spaceAt(text, s+n, e) {
		return 0
	}
	return n
}

func isASCIILetter(c byte) bool { return 'A' <= c&^0x20 && c&^0x20 <= 'Z' }

// sentences calls fn with the bounds of each statement in text[s:e], trimmed of white space. A statement
// ends at '.', '!' or '?' (kept in the span, with closing quotes and brackets) followed by white space and
// what [startsSentence] accepts, or by the end of the line; or at ';' (left out of the
// span) followed by white space or the end. Abbreviations ("e.g.", "etc.", "Dr."), initials, and text
// inside backticks or brackets never end a statement; dots not followed by white space (versions, file
// names, URLs, decimals, addresses) never do either.
func sentences(text string, s, e int, fn func(s, e int)) {
	start := s
	noClose := [3]bool{} // no closing ` ) ] left on the line: stop looking for one
	emit := func(a, b int) {
		a, b = trimSpace(text, a, b)
		if a < b {
			fn(a, b)
		}
	}
	for i := s; i < e; {
		c := text[i]
		switch c {
		case '`', '(', '[':
			slot, closer := 0, byte('`')
			if c == '(' {
				slot, closer = 1, ')'
			} else if c == '[' {
				slot, closer = 2, ']'
			}
			if !noClose[slot] {
				if j := strings.IndexByte(text[i+1:e], closer); j >= 0 {
					i += j + 2
					continue
				}
				noClose[slot] = true
			}
			i++
		case ';':
			if i+1 == e || spaceAt(text, i+1, e) {
				emit(start, i)
				start = i + 1
			}
			i++
		case '.', '!', '?':
			j := i
			for j < e && (text[j] == '.' || text[j] == '!' || text[j] == '?') {
				j++
			}
			j = skipClosers(text, j, e)
			k, _ := trimSpace(text, j, e)
			// The abbreviation check scans back over a word, so make it only where a cut would go:
			// that keeps the scan linear in a line full of dots.
			if (k == e || (k > j && startsSentence(text, k, e))) && !(c == '.' && j-i == 1 && isAbbreviation(text, start, i)) {
				emit(start, j)
				start = j
			}
			i = j
		default:
			i++
		}
	}
	emit(start, e)
}

// skipClosers skips closing quotes and brackets after sentence punctuation.
func skipClosers(text string, j, e int) int {
	for j < e {
		switch {
		case text[j] == '"' || text[j] == '\'' || text[j] == ')' || text[j] == ']' || text[j] == '*' || text[j] == '_':
			j++
		case strings.HasPrefix(text[j:e], "”"):
			j += len("”")
		case strings.HasPrefix(text[j:e], "’"):
			j += len("’")
		case strings.HasPrefix(text[j:e], "»"):
			j += len("»")
		default:
			return j
		}
	}
	return j
}

// startsSentence reports whether text[k:e] looks like the start of a new sentence.
func startsSentence(text string, k, e int) bool {
	c := text[k]
	if c < utf8.RuneSelf {
		switch {
		case 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			return true
		case c == '"' || c == '`' || c == '(' || c == '[' || c == '*' || c == '_' || c == '\'':
			return true
		}
		return false
	}
	r, _ := utf8.DecodeRuneInString(text[k:e])
	return unicode.IsUpper(r) || unicode.IsTitle(r) || r == '“' || r == '‘' || r == '«' ||
		unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// isAbbreviation reports whether the word that ends at the '.' at text[dot] is an abbreviation or an
// initial, so the dot does not end a sentence.
func isAbbreviation(text string, start, dot int) bool {
	w := dot
	for w > start && !asciiSpace(text[w-1]) && text[w-1] != '(' && text[w-1] != '"' {
		w--
	}
	word := text[w:dot]
	if word == "" {
		return false
	}
	// Initials and dotted abbreviations: "J.", "e.g", "i.e", "a.m", "U.S".
	short := len(word)%2 == 1
	for i := 0; i < len(word) && short; i++ {
		if i%2 == 0 {
			short = isASCIILetter(word[i])
		} else {
			short = word[i] == '.'
		}
	}
	if short {
		return true
	}
	if len(word) > 6 {
		return false
	}
	var lower [6]byte
	for i := 0; i < len(word); i++ {
		c := word[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	switch string(lower[:len(word)]) {
	case "etc", "vs", "dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "cf", "approx", "fig", "vol",
		"inc", "ltd", "corp", "dept", "resp", "incl", "excl", "al", "eg", "ie", "viz", "esp":
		return true
	}
	return false
}
