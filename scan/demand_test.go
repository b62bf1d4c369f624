package scan

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestDemandFormLeads checks that each demand form lists exactly the words its expression may begin with,
// read from the expression itself, so that no form goes untried at a word it can match.
func TestDemandFormLeads(t *testing.T) {
	for _, f := range demandForms {
		got, err := firstWords(`(?i)` + f.expr)
		if err != nil {
			t.Errorf("form %q: %v", f.leads, err)
			continue
		}
		want := strings.Fields(f.leads)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("form listing %q may begin with %q", f.leads, strings.Join(got, " "))
		}
	}
}

// TestDemandForms checks that trying at a word only the demand forms that list it finds what the expression
// of every form finds there, at each word of every corpus text, rule example and evaluation note.
func TestDemandForms(t *testing.T) {
	var all []string
	leads := map[string]bool{}
	for _, f := range demandForms {
		all = append(all, f.expr)
		for _, w := range strings.Fields(f.leads) {
			leads[w] = true
		}
	}
	whole := regexp.MustCompile(`(?i)^(?:` + strings.Join(all, "|") + `)`)
	texts := demandTexts(t)
	words, found := 0, 0
	for _, text := range texts {
		for i := 0; i < len(text); {
			j := demandWordEnd(text, i)
			if j == i {
				i++
				continue
			}
			w := strings.ToLower(strings.TrimRight(text[i:j], "'"))
			line := text[i:lineEnd(text, i, ahead)]
			var want []int
			if leads[w] || strings.HasPrefix(w, "--") {
				want = whole.FindStringIndex(line)
			}
			var got []int
			if re := demandExpr(w); re != nil {
				got = re.FindStringIndex(line)
			}
			if !slices.Equal(got, want) {
				t.Errorf("at %q: the forms of %q find %v, all forms %v", line, w, got, want)
			}
			words++
			if want != nil {
				found++
			}
			i = j
		}
	}
	if found < 100 {
		t.Fatalf("demands found at %d of %d words: the texts do not exercise the forms", found, words)
	}
	t.Logf("%d texts, %d words, %d demands", len(texts), words, found)
}

// demandTexts returns the texts of every corpus case (marks removed), rule example and evaluation note.
func demandTexts(t *testing.T) []string {
	t.Helper()
	var texts []string
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("corpora: %v", err)
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			n, _ := parseNote(strings.Split(f.Name, "/")[0], string(f.Data))
			texts = append(texts, n.text)
		}
	}
	for _, r := range Rules() {
		texts = append(texts, r.Positives...)
		texts = append(texts, r.Negatives...)
	}
	notes, _ := filepath.Glob("../testdata/*/notes/*.md")
	for _, p := range notes {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
	}
	return texts
}

// demandWordRune reports a rune findDemand counts as part of a word.
func demandWordRune(r rune) bool {
	return r < 0x80 && (isAlnum(byte(r)) || r == '\'' || r == '-' || r == '_')
}

// wordPart is a string a regexp may match from its start, and whether the word findDemand reads ended
// within it (a rune outside words, or a boundary that must be followed by one).
type wordPart struct {
	s     string
	ended bool
}

// firstWords returns the words, lower-cased as findDemand reads them, that a match of the regexp src can
// begin with, or an error where it cannot tell (a word of unbounded letters, a wide class).
func firstWords(src string) ([]string, error) {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil, err
	}
	parts, err := wordParts(re.Simplify())
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range parts {
		w := strings.TrimRight(p.s, "'")
		if strings.HasPrefix(w, "--") {
			w = "--"
		}
		if w == "" {
			return nil, fmt.Errorf("a match may begin with no word")
		}
		out = append(out, w)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

const maxParts = 400

func wordParts(re *syntax.Regexp) ([]wordPart, error) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpBeginText, syntax.OpBeginLine:
		return []wordPart{{}}, nil
	case syntax.OpEndText, syntax.OpEndLine:
		return []wordPart{{ended: true}}, nil
	case syntax.OpLiteral:
		var b strings.Builder
		for _, r := range re.Rune {
			if !demandWordRune(unicode.ToLower(r)) {
				return []wordPart{{b.String(), true}}, nil
			}
			b.WriteRune(unicode.ToLower(r))
		}
		return []wordPart{{b.String(), false}}, nil
	case syntax.OpCharClass:
		var word, other int
		var runes []rune
		for i := 0; i < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if demandWordRune(unicode.ToLower(r)) {
					word++
					runes = append(runes, unicode.ToLower(r))
				} else {
					other++
				}
				if word+other > 64 && word > 0 {
					return nil, fmt.Errorf("class %s is too wide to list", re)
				}
				if r == unicode.MaxRune {
					break
				}
			}
		}
		var out []wordPart
		slices.Sort(runes)
		for _, r := range slices.Compact(runes) {
			out = append(out, wordPart{string(r), false})
		}
		if other > 0 {
			out = append(out, wordPart{ended: true})
		}
		return out, nil
	case syntax.OpCapture:
		return wordParts(re.Sub[0])
	case syntax.OpAlternate:
		var out []wordPart
		for _, s := range re.Sub {
			p, err := wordParts(s)
			if err != nil {
				return nil, err
			}
			out = append(out, p...)
		}
		return out, nil
	case syntax.OpQuest:
		p, err := wordParts(re.Sub[0])
		if err != nil {
			return nil, err
		}
		return append(p, wordPart{}), nil
	case syntax.OpPlus, syntax.OpStar:
		p, err := wordParts(re.Sub[0])
		if err != nil {
			return nil, err
		}
		for _, x := range p {
			if !x.ended || x.s != "" {
				return nil, fmt.Errorf("repetition %s inside a word", re)
			}
		}
		if re.Op == syntax.OpStar {
			return []wordPart{{}, {ended: true}}, nil
		}
		return []wordPart{{ended: true}}, nil
	case syntax.OpConcat:
		out := []wordPart{{}}
		for _, s := range re.Sub {
			var next []wordPart
			var sp []wordPart
			needed := false
			for i, o := range out {
				if strings.HasPrefix(o.s, "--") {
					// findDemand tries every word that begins with two dashes.
					out[i].ended = true
					o.ended = true
				}
				if o.ended {
					next = append(next, o)
					continue
				}
				needed = true
			}
			if needed {
				var err error
				if sp, err = wordParts(s); err != nil {
					return nil, err
				}
			}
			for _, o := range out {
				if o.ended {
					continue
				}
				if s.Op == syntax.OpWordBoundary && o.s != "" {
					// After the letters of a word, a boundary ends it.
					next = append(next, wordPart{o.s, true})
					continue
				}
				for _, x := range sp {
					next = append(next, wordPart{o.s + x.s, x.ended})
				}
			}
			if len(next) > maxParts {
				return nil, fmt.Errorf("too many words in %s", re)
			}
			out = next
			done := true
			for _, o := range out {
				done = done && o.ended
			}
			if done {
				break
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot read the first word of %s (op %v)", re, re.Op)
}
