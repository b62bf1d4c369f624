package recall

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memoree/memoree/internal/age"
	"github.com/memoree/memoree/internal/escape"
)

// ErrBudget is what a [BudgetError] matches.
var ErrBudget = errors.New("token budget too small")

// BudgetError is returned by [Store.Context] and [EmptyContext] when the budget cannot hold even an empty
// block; it matches [ErrBudget].
type BudgetError struct{ Need int } // tokens the empty block needs

func (e *BudgetError) Error() string {
	return fmt.Sprintf("%v: an empty block needs %d tokens", ErrBudget, e.Need)
}

func (e *BudgetError) Is(target error) bool { return target == ErrBudget }

// contextDepth bounds how many candidate claims [Store.Context] considers; far more than any sensible
// budget holds.
const contextDepth = 500

// contextHeader opens every context block.
const contextHeader = "## Recalled memory\n"

// Tokens estimates, as an upper bound, how many tokens text costs a language model: ceil(bytes/3).
//
// Byte-pair-encoding tokenizers in common use (OpenAI cl100k and o200k, Anthropic's, Llama 3's) average 4 to
// 4.5 bytes per token on English prose and rarely fall below 3 on English text with code identifiers, file
// paths and numbers, because their vocabularies hold whole common words with their leading space. Dividing by
// 3 therefore overestimates English by roughly a quarter to a third, which is the price of never exceeding
// the budget. The bound does not hold for every text: runs of hex digits (about 2 bytes per token), emoji
// and scripts the vocabulary covers poorly (Cyrillic or Greek at 2 bytes per letter, often one token per
// letter or two) can cost up to about a token per 2 bytes, so a block made mostly of such text may exceed
// its budget by up to half. The short hashes a block cites are 8 hex digits, at most 4 tokens each.
func Tokens(text string) int { return tokensFor(len(text)) }

// tokensFor is [Tokens] for a text of n bytes.
func tokensFor(n int) int { return (n + 2) / 3 }

// ContextOptions selects the claims of a context block.
type ContextOptions struct {
	Query   string // rank by relevance to this text; empty means most recent first
	Session string // when set, only claims with evidence from an artifact of this session
	Task    string // when set, only claims with evidence from an artifact of this task
	Budget  int    // hard limit in [Tokens] for the whole block
	Now     time.Time

	History      bool // include superseded claims
	AllowFlagged bool // include flagged claims (see filter.go)
	Ref          *Ref // when set, only claims with evidence in an artifact that carries it
}

// ContextBlock is a Markdown block of claims for a prompt.
type ContextBlock struct {
	Markdown string
	Included int // claims in the block
	LeftOut  int // relevant claims that did not fit or were beyond the candidates considered
	Tokens   int // Tokens(Markdown), never above the budget
	Flagged  int // relevant flagged claims left out because AllowFlagged was not set; not in LeftOut
}

// ContextCandidate is one claim [Store.Context] considered, as [Store.ExplainContext] lists it. Score,
// Confidence, SupersededBy and Flagged are those of [ClaimHit] (Score and Confidence 0 without a query);
// Tokens is what its line costs in the block. Text is "" for a claim left out as flagged.
type ContextCandidate struct {
	ClaimID      int64
	Text         string
	Kind         string
	Score        float64
	Confidence   float64
	Tokens       int
	Included     bool
	Reason       string // why it was left out: one of the Reason constants; "" when included
	SupersededBy int64
	Flagged      bool
}

// candidate is c as [Store.ExplainContext] lists it, not yet said to be in or out.
func candidate(c ClaimHit, opt ContextOptions) ContextCandidate {
	return ContextCandidate{ClaimID: c.ID, Text: c.Text, Kind: c.Kind, Score: c.Score, Confidence: c.Confidence,
		Tokens: Tokens(claimLine(c, opt)), SupersededBy: c.SupersededBy, Flagged: c.Flagged}
}

// Reasons a candidate claim is left out of a context block.
const (
	ReasonBudget = "budget" // its line did not fit in what the budget had left
	// ReasonSuperseded: a stored supersession replaced it (see supersede.go); [ContextOptions.History]
	// keeps it in.
	ReasonSuperseded = "superseded"
	// ReasonRestated: a newer candidate restates it, so the block holds the newer one only. This is a
	// ranking decision for the block (see rank.go); the claim stays current and recall still returns it.
	ReasonRestated = "restated"
	// ReasonFlagged: it has evidence in an artifact applied although the secret scan flagged it;
	// [ContextOptions.AllowFlagged] keeps it in.
	ReasonFlagged = "flagged"
	ReasonFloor   = "below relevance floor" // it holds too little of the query to be relevant
)

// contextFloor is the least IDF-weighted share of a query's informative words a claim must hold to go
// into a context block built for that query: below it, what it shares with the query is incidental.
const contextFloor = 0.3

// Context builds a compact Markdown block of the most relevant claims (by opt.Query, else the most recent),
// one line each with its kind, age relative to opt.Now and the short hash of the artifact that supports it,
// ending with a line that says how many relevant claims were left out. The block never exceeds opt.Budget
// tokens as estimated by [Tokens]; when not even the header and that line fit, it returns [ErrBudget].
func (s *Store) Context(ctx context.Context, opt ContextOptions) (ContextBlock, error) {
	blk, _, err := s.buildContext(ctx, opt, false)
	return blk, err
}

// ExplainContext builds the block [Store.Context] builds for opt and lists every claim it considered,
// best first, with its score and tokens: those that went in, and why each other one was left out. Claims
// that opt's filters keep out (superseded ones without History, flagged ones without AllowFlagged) are
// listed too, among the others by score, with [ReasonSuperseded] or [ReasonFlagged]; a flagged one without
// its text.
func (s *Store) ExplainContext(ctx context.Context, opt ContextOptions) (ContextBlock, []ContextCandidate, error) {
	return s.buildContext(ctx, opt, true)
}

func (s *Store) buildContext(ctx context.Context, opt ContextOptions, explain bool) (ContextBlock, []ContextCandidate, error) {
	var blk ContextBlock
	hits, total, err := s.contextCandidates(ctx, opt)
	if err != nil {
		return blk, nil, fmt.Errorf("context: %w", err)
	}
	claims, err := s.claimHits(ctx, hits)
	if err != nil {
		return blk, nil, fmt.Errorf("context: %w", err)
	}
	reasons := make([]string, len(hits))
	for i, h := range hits {
		switch {
		case h.restatedBy != 0:
			reasons[i] = ReasonRestated
		case opt.Query != "" && h.coverage < contextFloor:
			reasons[i] = ReasonFloor
		}
	}
	// Relevant are the matching claims less the candidates left out as restated or below the floor; when
	// a candidate is below the floor, so are the matches beyond the candidates, which rank lower still. A block
	// whose candidates are all below the floor says that nothing relevant is stored, not that claims did not
	// fit.
	relevant, left, below := total, 0, false
	for _, r := range reasons {
		if r != "" {
			left++
		}
		below = below || r == ReasonFloor
	}
	if below {
		relevant = len(hits)
	}
	relevant -= left
	blk, cands, err := renderContext(claims, reasons, relevant, opt, explain)
	if err != nil {
		return blk, nil, err
	}
	if !opt.AllowFlagged {
		if blk.Flagged, err = s.flaggedLeftOut(ctx, opt); err != nil {
			return blk, nil, err
		}
	}
	if explain {
		kept, err := s.filteredOut(ctx, opt)
		if err != nil {
			return blk, nil, fmt.Errorf("context: %w", err)
		}
		cands = mergeByScore(cands, kept)
	}
	return blk, cands, nil
}

// filteredOut lists the claims that opt's filters keep out of its block and that would otherwise be among its
// candidates: superseded claims unless opt.History, flagged ones unless opt.AllowFlagged. They are ranked as
// they would be without those filters. A flagged claim is listed without its text, which may be the secret
// the scan found.
func (s *Store) filteredOut(ctx context.Context, opt ContextOptions) ([]ContextCandidate, error) {
	if opt.History && opt.AllowFlagged {
		return nil, nil
	}
	all := opt
	all.History, all.AllowFlagged = true, true
	hits, _, err := s.contextCandidates(ctx, all)
	if err != nil {
		return nil, err
	}
	claims, err := s.claimHits(ctx, hits)
	if err != nil {
		return nil, err
	}
	var out []ContextCandidate
	for _, c := range claims {
		cd := candidate(c, opt)
		switch {
		case c.Flagged && !opt.AllowFlagged:
			cd.Reason, cd.Text = ReasonFlagged, ""
		case c.SupersededBy != 0 && !opt.History:
			cd.Reason = ReasonSuperseded
		default:
			continue
		}
		out = append(out, cd)
	}
	return out, nil
}

// mergeByScore inserts the candidates of extra, best first, among those of cands, best first, each after
// every candidate of cands that scores as high.
func mergeByScore(cands, extra []ContextCandidate) []ContextCandidate {
	if len(extra) == 0 {
		return cands
	}
	out := make([]ContextCandidate, 0, len(cands)+len(extra))
	i := 0
	for _, e := range extra {
		for i < len(cands) && cands[i].Score >= e.Score {
			out = append(out, cands[i])
			i++
		}
		out = append(out, e)
	}
	return append(out, cands[i:]...)
}

// EmptyContext is the block [Store.Context] returns when no claim is stored, for callers that have no store
// yet: the header and a line saying that no claims were left out, or [ErrBudget].
func EmptyContext(opt ContextOptions) (ContextBlock, error) {
	blk, _, err := renderContext(nil, nil, 0, opt, false)
	return blk, err
}

// renderContext lays out claims, best first, within opt.Budget, leaving out those with a reason in
// reasons; total is how many claims are relevant.
func renderContext(claims []ClaimHit, reasons []string, total int, opt ContextOptions, explain bool) (ContextBlock, []ContextCandidate, error) {
	var blk ContextBlock
	var cands []ContextCandidate
	if explain {
		cands = []ContextCandidate{}
	}
	// Reserve room for the widest footer this block can end with.
	footerMax := footer(total, total)
	// Tokens depends on the length only, so the check needs no concatenation.
	fits := func(n int) bool { return tokensFor(n) <= opt.Budget }
	var b strings.Builder
	b.WriteString(contextHeader)
	if !fits(b.Len() + len(footerMax)) {
		return blk, nil, &BudgetError{Need: Tokens(contextHeader + footerMax)}
	}
	for i, c := range claims {
		line := claimLine(c, opt)
		reason := reasons[i]
		if reason == "" && !fits(b.Len()+len(line)+len(footerMax)) {
			// A shorter claim further down may still fit; keep relevance order otherwise.
			reason = ReasonBudget
		}
		if explain {
			cd := candidate(c, opt)
			cd.Included, cd.Reason = reason == "", reason
			cands = append(cands, cd)
		}
		if reason != "" {
			continue
		}
		b.WriteString(line)
		blk.Included++
	}
	blk.LeftOut = total - blk.Included
	b.WriteString(footer(total, blk.LeftOut))
	blk.Markdown = b.String()
	blk.Tokens = Tokens(blk.Markdown)
	return blk, cands, nil
}

// nothingRelevant is the block's one line when no stored claim is relevant, so that a prompt does not read
// an empty block as one that lost its lines.
const nothingRelevant = "_no relevant claims stored_\n"

// footer is the last line of a block of total relevant claims that left leftOut of them out:
// [nothingRelevant] when none is relevant, else [leftOutLine].
func footer(total, leftOut int) string {
	if total == 0 {
		return nothingRelevant
	}
	return leftOutLine(leftOut)
}

// leftOutLine is the last line of a block that left n relevant claims out: none when n is 0, since a block
// that holds every relevant claim needs no footer.
func leftOutLine(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "_1 more relevant claim left out_\n"
	}
	return fmt.Sprintf("_%d more relevant claims left out_\n", n)
}

// claimLine renders one claim: text on one line, its context in brackets, kind, age and the short hash of
// the newest artifact that supports it among those the options select. Control and invisible format
// characters are escaped: the block goes into prompts and terminals, and a stored note must not drive
// either or hide text in it.
func claimLine(c ClaimHit, opt ContextOptions) string {
	text := escape.Label(strings.Join(strings.Fields(c.Text), " "))
	cite := ""
	for _, e := range c.Evidence {
		if (opt.Session == "" || e.Session == opt.Session) && (opt.Task == "" || e.Task == opt.Task) {
			cite = e.Artifact[:8] // evidence is oldest first: the last match wins
		}
	}
	if c.SupersededBy != 0 {
		// Only with History: a prompt must not take it for a current fact.
		cite += ", superseded"
	}
	if c.Context != "" {
		// What the claim sits under in its note: "eval corpus." says little without "retrieval > Done".
		text += " [" + escape.Label(c.Context) + "]"
	}
	return fmt.Sprintf("- %s (%s, %s, %s)\n", text, c.Kind, age.Format(opt.Now.Sub(c.Created)), cite)
}

// filterSQL restricts claim ids (the expression col) to those with evidence in an artifact of the session
// and task, when set. Its two arguments follow it in args order.
const filterSQL = ` IN (SELECT e.claim FROM evidence e JOIN artifacts a ON a.id = e.artifact
	WHERE (?1 = '' OR a.session = ?1) AND (?2 = '' OR a.task = ?2))`

// countRelevant counts the claims that match the MATCH expression expr and that t and opt's session and
// task admit.
//
// Joining every match to its claim row to test t's condition costs a broad query most of its time: a row
// lookup per match, tens of thousands of them. Without a session, task or ref filter the claims t keeps out
// are few and known in advance: superseded ones (each named in supersessions) and ones with evidence in a
// flagged artifact. So the count is taken over the index alone, leaving out those of the few that t does
// not admit; when there are none, it is the index's own count. Every row of the index is a claim's (it is
// kept in step with the claims, see apply.go and forget.go), so the two counts agree.
func (s *Store) countRelevant(ctx context.Context, opt ContextOptions, t ftsTable, expr string) (int, error) {
	var total int
	if opt.Session != "" || opt.Task != "" || opt.Ref != nil {
		countSQL := `SELECT count(*) FROM claims_fts JOIN claims r ON r.id = claims_fts.rowid WHERE claims_fts MATCH ?3` + andWhere(t.where)
		if opt.Session != "" || opt.Task != "" {
			countSQL += ` AND claims_fts.rowid` + filterSQL
		}
		err := s.db.QueryRowContext(ctx, countSQL, opt.Session, opt.Task, expr).Scan(&total)
		return total, err
	}
	countSQL := `SELECT count(*) FROM claims_fts WHERE claims_fts MATCH ` + sqlString(expr)
	var maybe []string // the claims that t may keep out
	if !opt.History {
		maybe = append(maybe, `SELECT old AS id FROM supersessions`)
	}
	if !opt.AllowFlagged {
		maybe = append(maybe, `SELECT fe.claim AS id FROM artifacts fa JOIN evidence fe ON fe.artifact = fa.id WHERE fa.flagged = 1`)
	}
	if len(maybe) > 0 {
		// CROSS JOIN keeps the few candidates the outer loop, so that no claim row is read but theirs.
		out := `SELECT x.id FROM (` + strings.Join(maybe, ` UNION ALL `) + `) x CROSS JOIN claims r ON r.id = x.id
			WHERE NOT (` + t.where + `)`
		var some bool
		if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (`+out+`)`).Scan(&some); err != nil {
			return 0, err
		}
		if some {
			countSQL += ` AND rowid NOT IN (` + out + `)`
		}
	}
	err := s.db.QueryRowContext(ctx, countSQL).Scan(&total)
	return total, err
}

// contextCandidates returns up to contextDepth relevant claims, best first, and how many relevant claims there
// are in all.
func (s *Store) contextCandidates(ctx context.Context, opt ContextOptions) ([]hit, int, error) {
	filtered := opt.Session != "" || opt.Task != ""
	q := parseQuery(opt.Query)
	t := opt.claims()
	var total int
	if len(q.terms) > 0 {
		type count struct {
			n   int
			err error
		}
		// The count reads every match and the ranking only the newest rows of each term: they overlap, on
		// two connections where the store has them (a read-only one), one after the other otherwise.
		counted := make(chan count, 1)
		go func() {
			n, err := s.countRelevant(ctx, opt, t, matchExpr(q.terms))
			counted <- count{n, err}
		}()
		ranked := t
		ranked.serial = true // the count keeps a second connection busy
		hits, _, err := s.rank(ctx, ranked, &q, contextDepth, allRows)
		c := <-counted
		if err == nil {
			hits, err = s.addReplies(ctx, t, hits, contextDepth)
		}
		if err != nil {
			return nil, 0, err
		}
		keep := map[int64]bool{}
		if filtered && len(hits) > 0 {
			kept, err := column[int64](ctx, s.db, `SELECT id FROM claims WHERE id IN (SELECT value FROM json_each(?3)) AND id`+filterSQL,
				opt.Session, opt.Task, idList(hits))
			if err != nil {
				return nil, 0, err
			}
			for _, id := range kept {
				keep[id] = true
			}
		}
		var out []hit
		for _, h := range hits {
			if !filtered || keep[h.id] {
				out = append(out, h)
			}
		}
		if c.err != nil {
			return nil, 0, c.err
		}
		return out, max(c.n, len(out)), nil
	}
	where := ` WHERE ` + cmpOr(t.where, `1`)
	if filtered {
		where += ` AND id` + filterSQL
	}
	rows, err := s.db.QueryContext(ctx, `SELECT r.id, r.created, `+claimIndex.cols+` FROM claims r`+where+
		` ORDER BY r.created DESC, r.id DESC LIMIT ?3`, opt.Session, opt.Task, contextDepth)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var hits []hit
	for rows.Next() {
		var h hit
		if err := rows.Scan(&h.id, &h.created, &h.f[0], &h.f[1], &h.f[2], &h.f[3]); err != nil {
			return nil, 0, err
		}
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM claims r`+where, opt.Session, opt.Task).Scan(&total); err != nil {
		return nil, 0, err
	}
	return hits, total, nil
}
