// Package escape makes untrusted text safe to show: in a terminal, in a prompt, or inside JSON.
package escape

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text makes text safe to show a reader: control characters other than newline and tab, and invisible format
// characters (zero-width spaces and joiners, bidirectional controls, byte order marks, line and paragraph
// separators), are shown as escapes such as \x1b or \u202e, so a note can neither drive the terminal nor hide
// text. Invalid UTF-8 shows as \ufffd. Text that needs no escape is returned as it is.
func Text(s string) string { return escape(s, false) }

// Label is [Text] for one-line values such as session IDs and tasks: tabs and newlines are escaped too, so a
// value can never break a table row.
func Label(s string) string { return escape(s, true) }

// Unsafe reports whether r is a character that [Text] escapes (besides newline and tab): a control
// character, an invisible format character, or a line or paragraph separator.
func Unsafe(r rune) bool {
	return unicode.IsControl(r) && r != '\n' && r != '\t' || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

func escape(s string, oneLine bool) string {
	var b strings.Builder
	done := 0 // s[:done] is in b, escaped
	for i, r := range s {
		var esc string
		switch {
		case r == '\n' && oneLine:
			esc = `\n`
		case r == '\t' && oneLine:
			esc = `\t`
		case r == '\n' || r == '\t':
		case r == utf8.RuneError:
			esc = `\ufffd`
		case r < 0x80 && unicode.IsControl(r):
			esc = fmt.Sprintf(`\x%02x`, r)
		case Unsafe(r):
			esc = fmt.Sprintf(`\u%04x`, r)
		}
		if esc != "" {
			b.WriteString(s[done:i])
			b.WriteString(esc)
			_, size := utf8.DecodeRuneInString(s[i:]) // 1 for an invalid byte, which r shows as RuneError
			done = i + size
		}
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// JSON rewrites a JSON document so that every character [Unsafe] reports inside its strings is a
// \uXXXX escape: the document still decodes to the same values, but shown raw in a terminal it can neither
// drive the terminal nor hide text. doc must be valid JSON, as encoding/json writes it (which already escapes
// the other control characters).
func JSON(doc []byte) []byte {
	var out []byte
	done := 0
	for i := 0; i < len(doc); {
		r, size := utf8.DecodeRune(doc[i:])
		if r != utf8.RuneError && Unsafe(r) {
			if out == nil {
				out = make([]byte, 0, len(doc)+16)
			}
			out = append(out, doc[done:i]...)
			if r > 0xffff {
				r1, r2 := utf16Surrogates(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
			done = i + size
		}
		i += size
	}
	if out == nil {
		return doc
	}
	return append(out, doc[done:]...)
}

func utf16Surrogates(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}
