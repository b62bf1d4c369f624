package scan

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestAgainstGitleaks scores gitleaks, the reference scanner, on the labelled corpus next to this package, when a
// gitleaks binary is on PATH (go install github.com/zricethezav/gitleaks/v8@latest); otherwise it skips. Both
// are scored the same way, whatever the category: a labelled secret is caught when some finding overlaps it,
// and a finding that overlaps no labelled secret is a false alarm. It fails when memoree catches fewer secrets
// than gitleaks or raises more false alarms.
func TestAgainstGitleaks(t *testing.T) {
	bin, err := exec.LookPath("gitleaks")
	if err != nil {
		t.Skip("gitleaks is not on PATH")
	}
	notes := loadCorpus(t)
	texts := make([]string, len(notes))
	for i, n := range notes {
		texts[i] = n.text
	}
	theirs := gitleaksSpans(t, bin, texts)
	type tally struct{ secrets, caught, alarms int }
	score := func(spans func(i int) [][2]int) map[string]*tally {
		byCat := map[string]*tally{"all": {}}
		for i, n := range notes {
			found := spans(i)
			for _, s := range n.secrets {
				for _, c := range []string{s.category, "all"} {
					if byCat[c] == nil {
						byCat[c] = &tally{}
					}
					byCat[c].secrets++
				}
				for _, f := range found {
					if f[0] < s.end && s.start < f[1] {
						byCat[s.category].caught++
						byCat["all"].caught++
						break
					}
				}
			}
			for _, f := range found {
				labelled := false
				for _, s := range n.secrets {
					labelled = labelled || (f[0] < s.end && s.start < f[1])
				}
				if !labelled {
					byCat["all"].alarms++
				}
			}
		}
		return byCat
	}
	gl := score(func(i int) [][2]int { return theirs[i] })
	mine := score(func(i int) [][2]int {
		var out [][2]int
		for _, f := range Text(notes[i].text) {
			out = append(out, [2]int{f.Start, f.End})
		}
		return out
	})
	cats := make([]string, 0, len(mine))
	for c := range mine {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	t.Logf("%-14s %7s %15s %15s", "category", "secrets", "memoree recall", "gitleaks recall")
	for _, c := range cats {
		m, g := mine[c], gl[c]
		t.Logf("%-14s %7d %15.3f %15.3f", c, m.secrets, float64(m.caught)/float64(m.secrets), float64(g.caught)/float64(g.secrets))
	}
	t.Logf("false alarms: memoree %d, gitleaks %d", mine["all"].alarms, gl["all"].alarms)
	if mine["all"].caught < gl["all"].caught || mine["all"].alarms > gl["all"].alarms {
		t.Errorf("memoree caught %d and raised %d false alarms; gitleaks caught %d and raised %d",
			mine["all"].caught, mine["all"].alarms, gl["all"].caught, gl["all"].alarms)
	}
}

// gitleaksSpans runs gitleaks once over texts, each written to a file of its own, and returns for each text
// the byte spans of the secrets gitleaks reports in it.
func gitleaksSpans(t *testing.T, bin string, texts []string) [][][2]int {
	t.Helper()
	dir := t.TempDir()
	for i, text := range texts {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d.txt", i)), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	report := filepath.Join(t.TempDir(), "report.json")
	cmd := exec.Command(bin, "dir", "--no-banner", "--exit-code", "0", "--report-format", "json", "--report-path", report, dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gitleaks: %v\n%s", err, out)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var leaks []struct {
		File      string
		StartLine int
		Secret    string
	}
	if err := json.Unmarshal(data, &leaks); err != nil {
		t.Fatal(err)
	}
	// gitleaks reports a line and the secret; turn each into a byte span of its text.
	spans := make([][][2]int, len(texts))
	for _, l := range leaks {
		var i int
		if _, err := fmt.Sscanf(filepath.Base(l.File), "%04d.txt", &i); err != nil || i >= len(texts) || l.Secret == "" {
			t.Fatalf("unexpected gitleaks finding in %s", l.File)
		}
		text := texts[i]
		start := lineOffset(text, l.StartLine)
		at := strings.Index(text[start:], l.Secret)
		if at < 0 {
			at = max(0, strings.Index(text, l.Secret)-start)
		}
		spans[i] = append(spans[i], [2]int{start + at, start + at + len(l.Secret)})
	}
	return spans
}

// lineOffset returns the byte offset where 1-based line n of text starts.
func lineOffset(text string, n int) int {
	off := 0
	for ; n > 1; n-- {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	return off
}
