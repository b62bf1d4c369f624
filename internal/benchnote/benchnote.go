// Package benchnote makes the checkpoint notes the benchmarks apply and stage: what a coding agent writes when
// it checkpoints a session (status, files touched, decisions, next steps), of any size, none of it looking
// like a secret.
package benchnote

import (
	"fmt"
	"strings"
)

var lines = []string{
	"Status: ranking by BM25 over note text is in place; recall returns the top 5 notes with their task labels.",
	"Files touched:",
	"- recall/rank.go: score is bm25(text) times a recency decay (half-life 14 days); ties broken by ID.",
	"- recall/query.go: parse quoted phrases and -exclusions; reject empty queries with a usage error.",
	"- cmd/memoree/recall.go: --json prints an array, [] when nothing matches.",
	"- recall/testdata/corpus/*.md: 40 regression notes, 3 added today for phrase queries.",
	"Decisions:",
	"- Keep the store schema at version 3; the migration from 2 runs inside one transaction.",
	"- Do not index the truncation marker line: it would match every note that was cut.",
	"Tests: go test ./recall/... passes (212 of 214 before the fix, all 214 now); go vet is clean.",
	"Open questions:",
	"- Should recall skip flagged notes by default, or list them with a warning line?",
	"- The half-life is a guess; compare 7 and 30 days on the corpus before changing it.",
	"Next steps:",
	"1. Wire --since into the query and cover it in cmd/memoree/testdata/script/recall_since.txtar.",
	"2. Rerun make bench and compare recall with sqlite3 on the same database.",
	"3. Regenerate man/memoree.1 with make man once the flags settle.",
	"Blocked on: nothing; the scan rewrite lands separately and does not touch recall.",
}

// Text returns a checkpoint note of exactly size bytes (ASCII, ending in a newline). Notes of different
// passes differ in every line, as a later checkpoint's statements differ from an earlier one's: applied one
// after the other, each pass's claims are new.
func Text(size, pass int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "## Checkpoint, pass %d: recall ranking and pending review\n\n", pass)
	for step := 1; sb.Len() < size; step++ {
		fmt.Fprintf(&sb, "### Step %d, %02d:%02d\n", step, 9+step/60%9, step%60)
		// Rotate the lines so that no two steps read the same.
		for j := range lines {
			line := lines[(j+step)%len(lines)]
			if mark := fmt.Sprintf(" (pass %d)", pass); pass > 1 && !strings.HasSuffix(line, ":") {
				line = strings.ReplaceAll(strings.TrimSuffix(line, "."), "; ", mark+"; ") + mark + "."
			}
			sb.WriteString(line)
			sb.WriteByte('\n')
		}
		sb.WriteByte('\n')
	}
	return sb.String()[:size-1] + "\n"
}
