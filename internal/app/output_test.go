package app

import "testing"

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, text, label string }{
		{"plain text", "plain text", "plain text"},
		{"", "", ""},
		{"a\tb\nc", "a\tb\nc", `a\tb\nc`},
		{"\x1b[31mred", `\x1b[31mred`, `\x1b[31mred`},
		{"bell\a", `bell\x07`, `bell\x07`},
		{"ok\xffbad\xfe", `ok\ufffdbad\ufffd`, `ok\ufffdbad\ufffd`},
		{"zero\u200bwidth", `zero\u200bwidth`, `zero\u200bwidth`},
		{"\u202eevil", `\u202eevil`, `\u202eevil`},
		{"José\u2028line", `José\u2028line`, `José\u2028line`},
		{"\u0085next", `\u0085next`, `\u0085next`},
		{"日本\n語", "日本\n語", `日本\n語`},
	} {
		if got := EscapeText(c.in); got != c.text {
			t.Errorf("EscapeText(%q) = %q, want %q", c.in, got, c.text)
		}
		if got := EscapeLabel(c.in); got != c.label {
			t.Errorf("EscapeLabel(%q) = %q, want %q", c.in, got, c.label)
		}
	}
}
