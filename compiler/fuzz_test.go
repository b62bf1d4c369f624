package compiler

import (
	"strings"
	"testing"
)

// FuzzCompile checks the invariants of every Result: spans inside the text on UTF-8 boundaries,
// text[span] equal to the claim text, one claim per key, and the same result when compiled twice.
func FuzzCompile(f *testing.F) {
	for _, text := range notes(f) {
		f.Add(text)
	}
	for _, s := range []string{
		"",
		"Storage recall is implemented; next verify the regression corpus.",
		"- a\n- b\n```\nx",
		"e.g. i.e. etc. vs. Dr. v1.2 main.go https://x.y/z. 10.0.0.1",
		"José\u0301 Straße STRASSE. \xff\xfe; (unclosed `tick [bracket",
		"1) a) (b) • > - [ ] [x]\r\n\r\n## \n---",
		"Dagny (24 May 2026): !!!! Congratulations!\n?!\n...",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := Rules.Compile(text, Source{})
		checkResult(t, text, Source{}, r)
		for _, c := range r.Claims {
			if k := Key(c.Key); k != c.Key {
				t.Errorf("Key not idempotent: Key(%q) = %q", c.Key, k)
			}
			if strings.TrimSpace(c.Key) != c.Key {
				t.Errorf("key %q has surrounding white space", c.Key)
			}
			if c.Key == "" || c.Text == "" {
				// The store refuses a claim without a key or text, so the whole note would fail to apply.
				t.Errorf("claim %q has key %q: a claim needs both", c.Text, c.Key)
			}
		}
	})
}
