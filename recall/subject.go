package recall

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Notes about the same subject.
//
// An update rarely repeats the words of the claim it replaces: "the ledger is on PostgreSQL 16 now" shares
// little with "the ledger runs on PostgreSQL 14 on a managed instance", and a later note that changes one
// fact often restates the rest of its note ("same size, 4 vCPUs and 32 GB"). Two notes as a whole say more:
// a note that shares [sameSubjectNote] of its informative words with an older one (two unrelated notes
// share a few hundredths) is about the same subject, and its claims move ahead of the older note's claims
// that score up to [noteRecencyMargin] higher, where two claims would otherwise need to be within
// [recencyMargin].
//
// The words of a note are those of its claims' text and context. They are loaded only for the notes of
// candidates that might move (see [subjectPairs]), in the first [subjectDepth] ranks: the ranks a reader
// sees first, where the order of an update and what it replaces matters.
const (
	sameSubjectNote   = 0.15
	noteRecencyMargin = 1.0
	subjectDepth      = 10
)

// noteSubjects holds the informative words of some notes, as sorted sets of ids that ids assigns, by
// artifact id.
type noteSubjects struct {
	words map[int64][]int32
	ids   map[string]int32
}

// same reports whether the notes a and b, both loaded and different, are about the same subject.
func (n noteSubjects) same(a, b int64) bool {
	wa, oka := n.words[a]
	wb, okb := n.words[b]
	return a != b && oka && okb && jaccard(wa, wb) >= sameSubjectNote
}

// subjectPairs returns the notes of the candidates in the first [subjectDepth] ranks of top (sorted by
// score) that a newer candidate from another note could move ahead of under the note rule: it scores
// within [noteRecencyMargin] and shares [sameSubject] of the query terms. nil when there are none.
func subjectPairs(q *query, top []hit) []int64 {
	var notes []int64
	seen := map[int64]bool{}
	add := func(id int64) {
		if !seen[id] {
			seen[id] = true
			notes = append(notes, id)
		}
	}
	n := min(len(top), subjectDepth)
	for i := range n {
		for j := i + 1; j < n; j++ {
			a, b := top[i], top[j]
			if b.created <= a.created || a.note == b.note || a.note == 0 || b.note == 0 ||
				a.score-b.score > noteRecencyMargin || q.overlap(a.cover, b.cover) < sameSubject {
				continue
			}
			add(a.note)
			add(b.note)
		}
	}
	return notes
}

// noteSubjects loads the words of the notes (artifact ids).
func (s *Store) noteSubjects(ctx context.Context, notes []int64) (noteSubjects, error) {
	out := noteSubjects{words: map[int64][]int32{}, ids: map[string]int32{}}
	if len(notes) == 0 {
		return out, nil
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, id := range notes {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteByte(']')
	rows, err := s.query(ctx, `SELECT e.artifact, c.text, c.context FROM evidence e JOIN claims c ON c.id = e.claim
		WHERE e.artifact`+inIDs, b.String())
	if err != nil {
		return out, fmt.Errorf("note subjects: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a int64
		var text, context string
		if err := rows.Scan(&a, &text, &context); err != nil {
			return out, fmt.Errorf("note subjects: %w", err)
		}
		out.words[a] = append(out.words[a], subjectWords(text, context, out.ids)...)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("note subjects: %w", err)
	}
	for a, w := range out.words {
		slices.Sort(w)
		out.words[a] = slices.Compact(w)
	}
	return out, nil
}
