package app

// Human views (tables, escaped text) are printed only when stdout is a terminal; otherwise commands print stable
// tab-separated lines that scripts can cut. --json prints one document with snake_case keys and RFC 3339 times.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// PrintJSON writes v as one indented JSON document.
func PrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// EscapeText makes text safe to show a reviewer: control characters other than newline and tab, and invisible
// format characters (zero-width spaces and joiners, bidirectional controls, byte order marks), are shown as
// escapes such as \x1b or \u202e, so a note can neither drive the terminal nor hide text.
func EscapeText(s string) string { return escape(s, false) }

// EscapeLabel is [EscapeText] for one-line values such as session IDs and tasks: tabs and newlines are escaped
// too, so a value can never break a table row.
func EscapeLabel(s string) string { return escape(s, true) }

// escape implements EscapeText and, with oneLine, EscapeLabel. Text that needs no escape is returned as it is.
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
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
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

// RFC3339 formats t for output.
func RFC3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// OrDash shows an empty value as "-", so a table column never looks shifted.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
