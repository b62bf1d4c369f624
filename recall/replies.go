package recall

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Replies. A conversation stored one turn per note splits a fact between a question and its answer:
// "And the mortgage?" holds the words a later question asks with, its reply "3.1%, fixed for 25 years"
// holds the fact. When a claim of the page is a turn (its context is a speaker label, see [speakerOf]) that
// asks a question, the turn applied next, if it is a reply (see [Store.reply]: another speaker's turn,
// applied within [replyWindow]), follows it on the page with its first claim, unless the page already shows
// it. The reply is read through the caller's filter, so a superseded or flagged turn stays out as the page's
// other claims do.
const (
	replyWindow = 30 * time.Minute
	// maxReplies bounds the replies a page gains, so that a page of questions is not half replies.
	maxReplies = 3
)

// addReplies returns hits, at most want of them, with the replies of its question turns placed after them.
func (s *Store) addReplies(ctx context.Context, t ftsTable, hits []hit, want int) ([]hit, error) {
	shown := map[int64]bool{}
	var asks []int
	for i, h := range hits {
		shown[h.id] = true
		if len(asks) < maxReplies && strings.HasSuffix(strings.TrimSpace(h.f[0]), "?") && speakerOf(h.f[2]) != "" {
			asks = append(asks, i)
		}
	}
	if len(asks) == 0 {
		return hits, nil
	}
	out := make([]hit, 0, len(hits)+len(asks))
	next := 0
	for _, i := range asks {
		r, ok, err := s.reply(ctx, t, hits[i])
		if err != nil {
			return nil, err
		}
		out = append(out, hits[next:i+1]...)
		next = i + 1
		if ok && !shown[r.id] {
			shown[r.id] = true
			// The question and its reply answer together: the reply counts as covering what its question
			// covers, and may be the claim that states the time or quantity asked for (see presence.go).
			r.score, r.coverage, r.cover, r.replyTo = hits[i].score, hits[i].coverage, hits[i].cover, hits[i].id
			out = append(out, r)
		}
	}
	out = append(out, hits[next:]...)
	return out[:min(len(out), want)], nil
}

// reply returns the first claim of the turn applied after the note of h, if that turn replies to it: both
// notes open with a speaker label (the note is a turn, not a document with a speaker label somewhere in
// it), and the speakers differ.
func (s *Store) reply(ctx context.Context, t ftsTable, h hit) (hit, bool, error) {
	st, err := s.prepare(ctx, `SELECT r.id, `+t.cols+`, r.created, a.id, e.start,
			(SELECT min(start) FROM evidence WHERE artifact = q.id)
		FROM artifacts q JOIN artifacts a ON a.id = (SELECT min(id) FROM artifacts WHERE id > q.id)
		JOIN evidence e ON e.artifact = a.id JOIN claims r ON r.id = e.claim
		WHERE q.id = ? AND a.created >= q.created AND a.created <= q.created + ?`+andWhere(t.where)+`
		ORDER BY e.start LIMIT 1`)
	if err != nil {
		return hit{}, false, err
	}
	var r hit
	var replyStart, askStart int
	err = st.QueryRowContext(ctx, h.note, int64(replyWindow)).Scan(&r.id, &r.f[0], &r.f[1], &r.f[2], &r.f[3],
		&r.created, &r.note, &replyStart, &askStart)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return hit{}, false, nil
	case err != nil:
		return hit{}, false, err
	}
	asker, replier := speakerOf(h.f[2]), speakerOf(r.f[2])
	ok := replier != "" && replier != asker && opensWithLabel(askStart, h.f[2]) && opensWithLabel(replyStart, r.f[2])
	return r, ok, nil
}

// opensWithLabel reports whether a note whose first claim starts at byte start opens with the leading
// label of context, that claim's context, as a turn does: "Rafa (9 March 2025): ", the label, a colon and a
// space, then the claim. A heading is followed by a line break and a list marker or more.
func opensWithLabel(start int, context string) bool {
	label, _, _ := strings.Cut(context, " > ")
	return start == len(label)+len(": ")
}

// speakerOf returns the speaker of a turn's claim from its context: the name of a leading speaker label,
// "Priya (12 March 2026)", "[10:14] Jonas" or "Mary Ann", at most three words of letters. It returns ""
// for any other context.
func speakerOf(context string) string {
	name, _ := speakerLabel(context)
	return name
}

// saidOn reports whether the context of a claim is a speaker label that dates the turn, "Priya (12 March
// 2026)": the time the claim was said.
func saidOn(context string) bool {
	name, dated := speakerLabel(context)
	return name != "" && dated
}

// speakerLabel returns the speaker of a context's leading speaker label (see [speakerOf]) and whether the
// label's bracket or parenthesis holds a digit (a date or a time).
func speakerLabel(context string) (name string, dated bool) {
	label, _, _ := strings.Cut(context, " > ")
	label = strings.TrimSpace(label)
	var stamp string
	bare := false
	switch {
	case strings.HasPrefix(label, "["):
		before, after, ok := strings.Cut(label[1:], "]")
		if !ok {
			return "", false
		}
		name, stamp = strings.TrimSpace(after), before
	case strings.HasSuffix(label, ")"):
		before, after, ok := strings.Cut(label, "(")
		if !ok {
			return "", false
		}
		name, stamp = strings.TrimSpace(before), after
	default:
		name, bare = label, true
	}
	words := strings.Fields(name)
	if len(words) == 0 || len(words) > 3 {
		return "", false
	}
	for i, w := range words {
		// A bracket or a parenthesis marks a speaker label well enough that only the first word must be
		// capitalized ("Marie de Vries (3 March)"); a bare label is a name only if every word is ("Mary
		// Ann", not "Open questions").
		if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) && (i == 0 || bare) {
			return "", false
		}
		for _, r := range w {
			if !unicode.IsLetter(r) && r != '-' && r != '\'' && r != '.' {
				return "", false
			}
		}
	}
	return name, strings.ContainsFunc(stamp, unicode.IsDigit)
}
