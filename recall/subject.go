package recall

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Notes about the same subject.
//
// An update rarely repeats the words of the claim it replaces: "the ledger is on PostgreSQL 16 now" shares
// little with "the ledger runs on PostgreSQL 14 on a managed instance", and a later note that changes one
// fact often restates the rest of its note ("same size, 4 vCPUs and 32 GB"). Two notes as a whole say more:
// a note that shares [sameSubjectNote] of its informative words with an older one (two unrelated notes
// share a few hundredths) is about the same subject, and its best claim moves ahead of the older note's
// claims that score up to [noteRecencyMargin] higher and share [noteSameSubject] of the query terms with it,
// where two claims would otherwise need to be within [recencyMargin] and share [sameSubject].
//
// The words of a note are those of the text and context of its claims in its first [subjectBytes]: where a
// note states what it is about. They are loaded only for the notes of candidates that might move (see
// [subjectPairs]): an older candidate in the first [subjectHead] ranks, where the order of an update and
// what it replaces matters most, and a newer one in the first [subjectDepth].
//
// Two notes about the same subject share [noteShared] words or more, whatever their overlap: two turns of a
// chat, a line each, share a speaker's name and a month and make the overlap with a word more. Their claims
// are compared as claims only.
const (
	sameSubjectNote   = 0.15
	noteRecencyMargin = 1.5
	noteSameSubject   = 0.4
	subjectHead       = 3
	subjectDepth      = 10
	subjectBytes      = 512
	noteShared        = 6
)

// noteSubjects holds the informative words of some notes, as sorted sets of word hashes (see
// [noteWords]), by artifact id; ids assigns the word ids of claims for [supersede].
type noteSubjects struct {
	words map[int64][]uint64
	ids   map[string]int32
}

// same reports whether the notes a and b, both loaded and different, are about the same subject.
func (n noteSubjects) same(a, b int64) bool {
	wa, oka := n.words[a]
	wb, okb := n.words[b]
	return a != b && oka && okb && jaccard(wa, wb) >= sameSubjectNote && shared(wa, wb) >= noteShared
}

// subjectPairs returns the notes of the candidates in the first [subjectHead] ranks of top (sorted by
// score) that a newer candidate from another note in the first [subjectDepth] could move ahead of under
// the note rule, and the notes of those newer candidates: the newer scores within [noteRecencyMargin] and
// shares [noteSameSubject] of the query terms. nil when there are none.
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
	for i := range min(n, subjectHead) {
		for j := i + 1; j < n; j++ {
			a, b := top[i], top[j]
			if b.created <= a.created || a.note == b.note || a.note == 0 || b.note == 0 ||
				a.score-b.score > noteRecencyMargin || q.overlap(a.cover, b.cover) < noteSameSubject {
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
	out := noteSubjects{words: map[int64][]uint64{}, ids: map[string]int32{}}
	if len(notes) == 0 {
		return out, nil
	}
	rows, err := s.query(ctx, `SELECT e.artifact, c.text, c.context FROM evidence e JOIN claims c ON c.id = e.claim
		WHERE e.artifact`+inIDs+` AND e.start < `+strconv.Itoa(subjectBytes), idArray(notes))
	if err != nil {
		return out, fmt.Errorf("note subjects: %w", err)
	}
	defer rows.Close()
	var buf []byte
	for rows.Next() {
		var a int64
		var text, context string
		if err := rows.Scan(&a, &text, &context); err != nil {
			return out, fmt.Errorf("note subjects: %w", err)
		}
		w := out.words[a]
		w, buf = noteWords(w, text, buf)
		w, buf = noteWords(w, context, buf)
		out.words[a] = w
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

// noteWords appends to words the FNV-1a hash of each word of text that is not a stopword, lowercased, and
// returns it with buf, its scratch space. Unlike [subjectWords] it neither stems nor folds diacritics: over
// a whole note the inflections even out, and a note's words are many.
func noteWords(words []uint64, text string, buf []byte) ([]uint64, []byte) {
	eachWord(text, func(s, e int) {
		buf = buf[:0]
		for i := s; i < e; {
			// Most words are ASCII: lower them a byte at a time, as unicode.ToLower would.
			if c := text[i]; c < utf8.RuneSelf {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf = append(buf, c)
				i++
				continue
			}
			r, n := utf8.DecodeRuneInString(text[i:e])
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			i += n
		}
		if stopwords()[string(buf)] {
			return
		}
		h := uint64(14695981039346656037)
		for _, c := range buf {
			h = (h ^ uint64(c)) * 1099511628211
		}
		words = append(words, h)
	})
	return words, buf
}
