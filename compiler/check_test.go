package compiler

import (
	"reflect"
	"strings"
	"testing"
)

// checkResult asserts the invariants every Result of [Rules] keeps for text.
func checkResult(t *testing.T, text string, src Source, r Result) {
	t.Helper()
	if r.Compiler != Rules.Name() {
		t.Errorf("Compiler = %q, want %q", r.Compiler, Rules.Name())
	}
	// Rune starts as a range over the text decodes them (invalid bytes count as one-byte runes).
	boundary := make(map[int]bool, len(text)+1)
	for i := range text {
		boundary[i] = true
	}
	boundary[len(text)] = true
	checkSpan := func(what string, sp Span) string {
		t.Helper()
		if sp.Start < 0 || sp.End > len(text) || sp.Start >= sp.End {
			t.Fatalf("%s span %v outside text of %d bytes or empty", what, sp, len(text))
		}
		if !boundary[sp.Start] || !boundary[sp.End] {
			t.Errorf("%s span %v not on UTF-8 boundaries of %q", what, sp, text)
		}
		s := text[sp.Start:sp.End]
		if strings.TrimSpace(s) != s {
			t.Errorf("%s span %v = %q has surrounding white space", what, sp, s)
		}
		return s
	}
	used := map[int]bool{}
	seen := map[string]bool{}
	for _, c := range r.Claims {
		if len(c.Spans) == 0 {
			t.Fatalf("claim %q has no spans", c.Text)
		}
		if got := checkSpan("claim", c.Spans[0]); got != c.Text {
			t.Errorf("text[%v] = %q, want claim text %q", c.Spans[0], got, c.Text)
		}
		if c.Key != Key(c.Text) {
			t.Errorf("claim key %q, want Key(%q) = %q", c.Key, c.Text, Key(c.Text))
		}
		if seen[c.Key] {
			t.Errorf("key %q appears in two claims", c.Key)
		}
		seen[c.Key] = true
		switch c.Kind {
		case Decision, Fact, Constraint, Preference, NextStep:
		default:
			t.Errorf("claim %q has unknown kind %q", c.Text, c.Kind)
		}
		for i, sp := range c.Spans {
			st := checkSpan("claim", sp)
			if k := Key(st); k != c.Key {
				t.Errorf("span %v has key %q, want %q", sp, k, c.Key)
			}
			if strings.Contains(st, "\n") {
				t.Errorf("claim span %v = %q spans two lines", sp, st)
			}
			if i > 0 && sp.Start < c.Spans[i-1].End {
				t.Errorf("spans of %q not in source order: %v", c.Text, c.Spans)
			}
			if used[sp.Start] {
				t.Errorf("two results start at %d", sp.Start)
			}
			used[sp.Start] = true
		}
	}
	for _, s := range r.Skipped {
		if got := checkSpan("skip", s.Span); got != s.Text {
			t.Errorf("text[%v] = %q, want skip text %q", s.Span, got, s.Text)
		}
		if s.Reason == "" || strings.ToLower(s.Reason) != s.Reason {
			t.Errorf("skip %q has reason %q, want short and lowercase", s.Text, s.Reason)
		}
		if used[s.Span.Start] {
			t.Errorf("two results start at %d", s.Span.Start)
		}
		used[s.Span.Start] = true
	}
	for i := 1; i < len(r.Skipped); i++ {
		if r.Skipped[i].Span.Start < r.Skipped[i-1].Span.End {
			t.Errorf("skips overlap or out of order: %v then %v", r.Skipped[i-1].Span, r.Skipped[i].Span)
		}
	}
	for i := 1; i < len(r.Claims); i++ {
		if r.Claims[i].Spans[0].Start < r.Claims[i-1].Spans[0].Start {
			t.Errorf("claims not in order of first occurrence")
		}
	}
	if again := Rules.Compile(text, src); !reflect.DeepEqual(again, r) {
		t.Errorf("compiling twice differs:\n%+v\n%+v", r, again)
	}
}
