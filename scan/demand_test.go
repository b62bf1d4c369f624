package scan

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

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
			j := i
			for j < len(text) && (isAlnum(text[j]) || text[j] == '\'' || text[j] == '-' || text[j] == '_') {
				j++
			}
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
