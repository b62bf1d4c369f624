package checkpoint

import (
	"slices"

	"github.com/memoree/memoree/pending"
	"github.com/memoree/memoree/scan"
)

// Staged is a note prepared for staging: its text capped at [MaxStored] bytes and scanned for secrets.
type Staged struct {
	Note pending.Note // what the pending directory stores: the capped text and the findings in it
	// Findings are all the findings of the whole input, also those past the cut, which were not stored.
	Findings []scan.Finding
	Kept     int // how many bytes of the input the stored text begins with: len(input) unless it was cut
}

// Stage caps text (see [Cap]) and scans the whole input, so that a secret past the cut is still reported, but
// only the findings inside the stored text make the note flagged; when it was cut, the kept part is scanned
// alone too, as preview and apply will scan it. text must already be valid input ([Read] or
// [Validate]); session and task must have passed [CheckLabel] (task may be empty: keep the earlier one).
func Stage(session, task string, text []byte) Staged {
	stored, kept := Cap(text)
	findings := scan.Text(string(text))
	var inStored []scan.Finding
	for _, f := range findings {
		if Stored(f, kept) {
			inStored = append(inStored, f)
		}
	}
	if kept < len(text) {
		// The cut may change what the kept part says: the words after it that made an order a quoted example
		// are gone. Preview and apply scan the stored text, so what the scan finds there flags the note too.
		more := false
		for _, f := range scan.Text(string(stored[:kept])) {
			if !slices.ContainsFunc(inStored, func(g scan.Finding) bool { return f.Start < g.End && g.Start < f.End }) {
				inStored, findings, more = append(inStored, f), append(findings, f), true
			}
		}
		if more {
			byStart := func(a, b scan.Finding) int { return a.Start - b.Start }
			slices.SortStableFunc(inStored, byStart)
			slices.SortStableFunc(findings, byStart)
		}
	}
	return Staged{
		Note:     pending.Note{Session: session, Task: task, Text: stored, OriginalBytes: len(text), Findings: inStored},
		Findings: findings,
		Kept:     kept,
	}
}

// Stored reports whether finding f lies in the part of the input that was stored, the first kept bytes.
func Stored(f scan.Finding, kept int) bool { return f.Start < kept }
