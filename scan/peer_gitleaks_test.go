package scan

import (
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestPeerAgainstGitleaks scores memoree and gitleaks on the same peer-shaped corpora, per group: recall over
// the labelled secrets and the share of negatives with any finding. It only reports: gitleaks is the tool a
// user would use instead, and the figures belong in docs/performance.md, not in a gate. Instructions aimed at
// the agent are left out, since gitleaks has no such category. It skips when gitleaks is not on PATH.
func TestPeerAgainstGitleaks(t *testing.T) {
	bin, err := exec.LookPath("gitleaks")
	if err != nil {
		t.Skip("gitleaks is not on PATH")
	}
	for _, file := range []string{peerTuneFile, peerHeldFile, peerFreshFile, peerFresh2File, peerFresh3File, peerFresh4File, peerFresh5File, peerFresh6File, peerFresh7File, peerFresh8File, peerFresh9File, peerFresh10File, peerFresh11File, peerFresh12File, peerFresh13File, peerFresh14File, peerFresh15File, peerFresh16File, peerFresh17File, peerFresh18File, peerFresh19File} {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) { compareGitleaks(t, bin, file) })
	}
}

func compareGitleaks(t *testing.T, bin, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	type item struct {
		group, kind string
		n           note
	}
	var items []item
	var texts []string
	for _, f := range ar.Files {
		parts := strings.Split(f.Name, "/")
		if len(parts) != 3 || parts[0] == CategoryInstruction {
			continue
		}
		n, err := parseNote(f.Name, strings.TrimSuffix(string(f.Data), "\n"))
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, item{parts[0], parts[1], n})
		texts = append(texts, n.text)
	}
	theirs := gitleaksSpans(t, bin, texts)
	type tally struct{ secrets, caught, negs, alarms int }
	score := func(spans func(i int) [][2]int) map[string]*tally {
		by := map[string]*tally{"all": {}}
		for i, it := range items {
			found := spans(i)
			for _, g := range []string{it.group, "all"} {
				if by[g] == nil {
					by[g] = &tally{}
				}
				if it.kind == peerNeg {
					by[g].negs++
					if len(found) > 0 {
						by[g].alarms++
					}
					continue
				}
				for _, s := range it.n.secrets {
					by[g].secrets++
					for _, f := range found {
						if f[0] < s.end && s.start < f[1] {
							by[g].caught++
							break
						}
					}
				}
			}
		}
		return by
	}
	gl := score(func(i int) [][2]int { return theirs[i] })
	mine := score(func(i int) [][2]int {
		var out [][2]int
		for _, f := range Text(items[i].n.text) {
			out = append(out, [2]int{f.Start, f.End})
		}
		return out
	})
	groups := make([]string, 0, len(mine))
	for g := range mine {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	t.Logf("%s: %-17s %7s %8s %8s %6s %8s %8s", file, "group", "secrets", "memoree", "gitleaks", "negs", "memoree", "gitleaks")
	for _, g := range groups {
		m, o := mine[g], gl[g]
		t.Logf("%s: %-17s %7d %8.3f %8.3f %6d %8.3f %8.3f", file, g, m.secrets, ratio(m.caught, m.secrets), ratio(o.caught, o.secrets),
			m.negs, ratio(m.alarms, m.negs), ratio(o.alarms, o.negs))
	}
}
