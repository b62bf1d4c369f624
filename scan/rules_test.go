package scan

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// TestRuleExamples runs every rule's own examples: each positive must be flagged by that rule, each negative
// must not be reported by that rule.
func TestRuleExamples(t *testing.T) {
	for _, r := range Rules() {
		t.Run(r.ID, func(t *testing.T) {
			if len(r.Positives) == 0 || len(r.Negatives) == 0 {
				t.Fatalf("rule %s needs at least one positive and one negative example", r.ID)
			}
			if r.Description == "" || r.Category == "" {
				t.Fatalf("rule %s lacks a description or category", r.ID)
			}
			for _, p := range r.Positives {
				fs := Text(p)
				if !hasRule(fs, r.ID) {
					t.Errorf("positive not flagged by %s: %q (got %v)", r.ID, p, fs)
				}
			}
			for _, n := range r.Negatives {
				if fs := Text(n); hasRule(fs, r.ID) {
					t.Errorf("negative flagged: %q: %v", n, fs)
				}
			}
		})
	}
}

func TestRulesSortedAndUnique(t *testing.T) {
	rs := Rules()
	if !sort.SliceIsSorted(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID }) {
		t.Fatal("Rules() is not sorted by ID")
	}
	for i := 1; i < len(rs); i++ {
		if rs[i].ID == rs[i-1].ID {
			t.Fatalf("duplicate rule ID %s", rs[i].ID)
		}
	}
	for _, r := range rs {
		if categoryRank(r.Category) == 0 {
			t.Errorf("rule %s has unknown category %q", r.ID, r.Category)
		}
		if strings.ToLower(r.ID) != r.ID || strings.ContainsAny(r.ID, " _") {
			t.Errorf("rule ID %q is not kebab-case", r.ID)
		}
	}
}

func hasRule(fs []Finding, id string) bool {
	for _, f := range fs {
		if f.Rule == id {
			return true
		}
	}
	return false
}

// TestClassesASCIIFastPath holds classes to the rune-by-rune definition it had before ASCII skipped the
// Unicode tables: lower, upper, digit, other, by unicode.IsLower, IsUpper and IsDigit.
func TestClassesASCIIFastPath(t *testing.T) {
	for _, s := range []string{"", "abc", "ABC", "123", "a=B9", "éÉ٣", "\xff\xfe", "ab\xffC", "ẞ", "Ⅻ", "½", "\t \n", "~", "{", "`", "@", "[", "/", ":", "0", "9", "a", "z", "A", "Z"} {
		var want [4]bool
		for _, r := range s {
			i := 3
			if unicode.IsLower(r) {
				i = 0
			} else if unicode.IsUpper(r) {
				i = 1
			} else if unicode.IsDigit(r) {
				i = 2
			}
			want[i] = true
		}
		n, lower, upper, digit, other := classes(s)
		if got := [4]bool{lower, upper, digit, other}; got != want || n != strings.Count(fmt.Sprint(want), "true") {
			t.Errorf("classes(%q) = %d %v, want %v", s, n, got, want)
		}
	}
}
