package escape

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTextAndLabel(t *testing.T) {
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
		{"\u009b31m", `\u009b31m`, `\u009b31m`},
		{"日本\n語", "日本\n語", `日本\n語`},
	} {
		if got := Text(c.in); got != c.text {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.text)
		}
		if got := Label(c.in); got != c.label {
			t.Errorf("Label(%q) = %q, want %q", c.in, got, c.label)
		}
	}
}

func TestJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", `"plain"`},
		{"csi\u009b2J", `"csi\u009b2J"`},
		{"rtl\u202egnp.exe", `"rtl\u202egnp.exe"`},
		{"zw\u200bj\u200d", `"zw\u200bj\u200d"`},
		{"del\x7f", `"del\u007f"`},
		{"tag\U000E0041", `"tag\udb40\udc41"`},
		{"José ✓", `"José ✓"`},
	} {
		doc, err := json.Marshal(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got := string(JSON(doc))
		if got != c.want {
			t.Errorf("JSON(%s) = %s, want %s", doc, got, c.want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != c.in {
			t.Errorf("JSON(%s) = %s decodes to %q, %v; want %q", doc, got, back, err, c.in)
		}
	}
}

// FuzzJSON checks that JSON keeps a document's value and leaves no character Unsafe reports in it.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{"", "a\u009bb", "\u202e\u200b\x7f", "x\U000E0001y", "{\"k\": [1, \"\\u0000\"]}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := json.Marshal(map[string]any{"k": s, "a": []string{s, "x"}})
		if err != nil {
			t.Skip()
		}
		out := JSON(doc)
		if !json.Valid(out) {
			t.Fatalf("JSON(%s) = %s is not valid JSON", doc, out)
		}
		var a, b any
		if err := json.Unmarshal(doc, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatal(err)
		}
		if ja, _ := json.Marshal(a); string(ja) != mustMarshal(t, b) {
			t.Fatalf("value changed: %s -> %s", doc, out)
		}
		for _, r := range string(out) {
			if r != utf8.RuneError && Unsafe(r) {
				t.Fatalf("JSON(%s) = %s still holds %U", doc, out, r)
			}
		}
		if strings.Contains(string(out), "\x1b") {
			t.Fatal("ESC left raw")
		}
	})
}

func mustMarshal(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
