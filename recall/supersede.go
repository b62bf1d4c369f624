package recall

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Supersession rule.
//
// A new claim supersedes a stored one when it states the same thing with another value: a region, a
// version, a threshold, an owner, a schedule, a preference. Apply supersedes what the rule lists unless told
// otherwise (pending apply's default, and what agents and scripts get), and a superseded claim drops out of
// recall, so the rule must be precise: a claim it supersedes wrongly is a fact recall no longer finds, while
// an update it misses still ranks above what it replaced (rank.go). The rule is lexical and deterministic:
//
//  1. A claim's words are its whitespace-separated tokens without surrounding punctuation, lowercased. A
//     token that holds a digit or joins words with / _ . : = or @ is one word, a value ("eu-west-1", "4.3.2",
//     "grace_days", "/etc/app.conf"); any other token is cut into its runs of letters and digits. English
//     stopwords are dropped and a plural -s, -es or -ies is reduced to the singular.
//  2. The two claims' word sequences share a prefix and a suffix; what lies between is what changed. Claims
//     whose sequences are equal say the same thing. A claim that only adds words to the other (either changed
//     part is empty) says the same with more detail. Neither supersedes.
//  3. Otherwise the claims are listed when each changed part has at most [maxChanged] words, the shared words
//     include one that names the subject (not a lead word such as "use", "prefer", "decided", "always", nor a
//     value), and either every changed word is a value ("Timeout is 30s" and "Timeout is 60s"; "VetDesk is on
//     4.3.0" and "VetDesk on 4.3.2"), or the shared words outnumber the changed ones ("Alice owns the billing
//     service" and "Bob owns the billing service"; "I prefer short answers" and "I prefer detailed answers").
//     When what changed holds no value and no name (a word written with a capital that does not open the
//     claim) while what stays holds one, the claims state one value of two subjects ("The staging cluster
//     runs in us-east-1", "The production cluster runs in us-east-1"; "Max upload size for images is 10MB"
//     and "… for videos is 10MB"): not listed.
//
// Values are tokens with digits or joining characters, and English words of time (weekly, nightly, Sunday,
// March...), so "Backups run weekly on Sunday" and "Backups run nightly at 2am" are listed. Not listed: two
// aspects of one subject ("Sessions expire after 30 minutes", "Sessions live in Redis"), a change worded
// differently ("Sessions moved to Memcached"), claims that share only lead words ("Use pnpm for installs",
// "Use tabs in Makefiles"; "Decided to use SQLite", "Decided to use Postgres"), and short claims that share a
// name and change as many words as they share ("clinical director, Harbour Road", "dental cases Harbour
// Road"). A reviewer supersedes those by hand with --supersede.
//
// Candidates are searched among active claims whose text (not their context) shares a word with the new
// claim, the newest [candidateSearch] of them; superseded claims are never candidates, and neither is a claim
// of the note itself.

// candidateSearch bounds the stored claims the rule is tried on for one new claim.
const candidateSearch = 500

// maxChanged bounds the words that may change between a claim and one it supersedes, on each side.
const maxChanged = 2

// leadWords open a statement without naming its subject.
var leadWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`use using used prefer preferred avoid always never must need needs decided decide
		decision switched switch switching moved move going keep ensure make don dont let try plan want run runs
		currently still next todo note remember please add added remove removed set stop start started`) {
		m[w] = true
	}
	return m
}()

// ruleWords returns the words of text that the rule compares, in order, for each whether it is a value,
// and for each whether it is a name: a word written with a capital that does not open the text.
func ruleWords(text string) (words []string, values, names []bool) {
	for i, tok := range strings.Fields(text) {
		tok = strings.TrimFunc(tok, func(r rune) bool { return !isWordRune(r) })
		if tok == "" {
			continue
		}
		name := i > 0 && strings.ContainsFunc(tok, unicode.IsUpper)
		tok = strings.ToLower(tok)
		// The trim left no joining character at either end, so one that remains joins words.
		if strings.ContainsFunc(tok, unicode.IsDigit) || strings.ContainsAny(tok, "/_.:=@") {
			words, values, names = append(words, tok), append(values, true), append(names, name)
			continue
		}
		for _, w := range strings.FieldsFunc(tok, func(r rune) bool { return !isWordRune(r) }) {
			if stopwords()[w] {
				continue
			}
			words, values, names = append(words, singular(w)), append(values, timeWords[w]), append(names, name)
		}
	}
	return words, values, names
}

// singular undoes the common English plurals, enough for a subject to match itself.
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "ses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// Supersedes reports whether a new claim with text newText would supersede a stored claim with text oldText
// under the rule documented in this file. It is deterministic and symmetric.
func Supersedes(newText, oldText string) bool {
	return newRuleText(newText).supersedes(oldText)
}

// ruleText is a claim's text as the rule compares it, computed once for many comparisons.
type ruleText struct {
	words  []string
	values []bool
	names  []bool
}

func newRuleText(text string) ruleText {
	w, v, nm := ruleWords(text)
	return ruleText{words: w, values: v, names: nm}
}

// stated reports whether a word of t in [from, to) is a value or a name: what a statement states.
func (t ruleText) stated(from, to int) bool {
	for i := from; i < to; i++ {
		if t.values[i] || t.names[i] {
			return true
		}
	}
	return false
}

func (n ruleText) supersedes(oldText string) bool { return n.supersedesText(newRuleText(oldText)) }

func (n ruleText) supersedesText(o ruleText) bool {
	a, b := n.words, o.words
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	changedA, changedB := len(a)-p-q, len(b)-p-q
	if changedA == 0 || changedB == 0 || max(changedA, changedB) > maxChanged {
		return false
	}
	subject := false
	for i := range a {
		if (i < p || i >= len(a)-q) && !leadWords[a[i]] && !n.values[i] {
			subject = true
		}
	}
	if !subject {
		return false
	}
	// What changed is neither a value nor a name, and a value or a name stays: the same value stated of
	// another subject ("The staging cluster runs in us-east-1", "The production cluster runs in us-east-1").
	if !n.stated(p, len(a)-q) && !o.stated(p, len(b)-q) &&
		(n.stated(0, p) || n.stated(len(a)-q, len(a)) || o.stated(0, p) || o.stated(len(b)-q, len(b))) {
		return false
	}
	if p+q > max(changedA, changedB) {
		return true
	}
	return !slices.Contains(n.values[p:len(a)-q], false) && !slices.Contains(o.values[p:len(b)-q], false)
}

// Candidate is a stored claim that a new claim would supersede.
type Candidate struct {
	ClaimID  int64
	Text     string
	Kind     string
	Created  time.Time
	Artifact string // full hash of the newest artifact that holds evidence for it
	Flagged  bool   // it has evidence in a flagged artifact
}

// querier is what a read of many rows needs of a *sql.DB or a *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Candidates lists, for each of claims (in order), the active stored claims it would supersede by
// [Supersedes], newest first. Claims of the list itself are never candidates. It writes nothing and works on
// a read-only Store, for previews; [Store.ApplyWith] with [SupersedeListed] supersedes the same claims when
// the store has not changed in between.
func (s *Store) Candidates(ctx context.Context, claims []ClaimInput) ([][]Candidate, error) {
	out, err := candidates(ctx, s.db, claims)
	if err != nil {
		return nil, fmt.Errorf("supersession candidates: %w", err)
	}
	return out, nil
}

func candidates(ctx context.Context, q querier, claims []ClaimInput) ([][]Candidate, error) {
	own := make(map[string]bool, len(claims))
	for _, c := range claims {
		own[c.Key] = true
	}
	// One statement searches for all the note's claims, each claim's terms once: a statement per claim cost
	// more to run than its search. Claims with the same terms share a search.
	var exprs []string
	index := map[string]int{}
	searchOf := make([]int, len(claims))
	for i, c := range claims {
		searchOf[i] = -1
		terms := queryTerms(c.Text)
		if len(terms) == 0 {
			continue
		}
		e := matchExpr(terms)
		k, ok := index[e]
		if !ok {
			k = len(exprs)
			index[e] = k
			exprs = append(exprs, e)
		}
		searchOf[i] = k
	}
	matches, err := searchActive(ctx, q, exprs)
	if err != nil {
		return nil, err
	}
	found := make([][]int64, len(claims))
	for i, k := range searchOf {
		if k >= 0 {
			found[i] = matches[k]
		}
	}
	stored, err := storedClaims(ctx, q, found)
	if err != nil {
		return nil, err
	}
	out := make([][]Candidate, len(claims))
	for i, c := range claims {
		list := []Candidate{}
		rule := newRuleText(c.Text)
		for _, id := range found[i] {
			o := stored[id]
			if own[o.key] || !rule.supersedesText(o.rule) {
				continue
			}
			list = append(list, Candidate{ClaimID: id, Text: o.text, Kind: o.kind, Created: o.created})
		}
		out[i] = list
	}
	if err := provenance(ctx, q, out); err != nil {
		return nil, err
	}
	return out, nil
}

// searchActive returns, for each of exprs (FTS5 expressions over the text column), the ids of the newest
// [candidateSearch] active claims that match it, newest first. claims_active holds active claims only, so
// the search never walks the superseded history.
func searchActive(ctx context.Context, q querier, exprs []string) ([][]int64, error) {
	out := make([][]int64, len(exprs))
	if len(exprs) == 0 {
		return out, nil
	}
	list, err := json.Marshal(exprs)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT j.key, (SELECT group_concat(id, ' ') FROM (SELECT c.id AS id
			FROM claims_active f JOIN claims c ON c.id = f.rowid
			WHERE claims_active MATCH 'text : (' || j.value || ')' AND c.status = 'active'
			ORDER BY f.rowid DESC LIMIT `+strconv.Itoa(candidateSearch)+`))
		FROM json_each(?) j`, string(list))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k int
		var ids sql.NullString
		if err := rows.Scan(&k, &ids); err != nil {
			return nil, err
		}
		if k < 0 || k >= len(out) {
			return nil, fmt.Errorf("search: row for search %d of %d", k, len(out))
		}
		for _, f := range strings.Fields(ids.String) {
			id, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("search: %w", err)
			}
			out[k] = append(out[k], id)
		}
	}
	return out, rows.Err()
}

// storedClaim is what candidate search reads of a stored claim, with its words for the rule.
type storedClaim struct {
	key, text, kind string
	created         time.Time
	rule            ruleText
}

// storedClaims reads the claims that ids name, each once, by id.
func storedClaims(ctx context.Context, q querier, ids [][]int64) (map[int64]storedClaim, error) {
	out := map[int64]storedClaim{}
	var list []int64
	for _, found := range ids {
		for _, id := range found {
			if _, ok := out[id]; !ok {
				out[id] = storedClaim{}
				list = append(list, id)
			}
		}
	}
	if len(list) == 0 {
		return out, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT id, key, text, kind, created FROM claims WHERE id`+inIDs, idArray(list))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, created int64
		var c storedClaim
		if err := rows.Scan(&id, &c.key, &c.text, &c.kind, &created); err != nil {
			return nil, err
		}
		c.created = time.Unix(0, created).UTC()
		c.rule = newRuleText(c.text)
		out[id] = c
	}
	return out, rows.Err()
}

// provenance fills in the newest artifact of every candidate in lists, and whether any of its artifacts is
// flagged, with one query for all of them: a claim stated in every note has hundreds of evidence rows, and
// most of a note's claims list a candidate.
func provenance(ctx context.Context, q querier, lists [][]Candidate) error {
	type origin struct {
		artifact string
		flagged  bool
	}
	byID := map[int64]*origin{}
	var ids []int64
	for _, list := range lists {
		for _, cd := range list {
			if byID[cd.ClaimID] == nil {
				byID[cd.ClaimID] = &origin{}
				ids = append(ids, cd.ClaimID)
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	rows, err := q.QueryContext(ctx, `SELECT j.value,
			(SELECT a.hash FROM evidence e JOIN artifacts a ON a.id = e.artifact WHERE e.claim = j.value
				ORDER BY a.created DESC, a.id DESC LIMIT 1),
			EXISTS (SELECT 1 FROM evidence fe JOIN artifacts fa ON fa.id = fe.artifact WHERE fe.claim = j.value AND fa.flagged = 1)
		FROM json_each(?) j`, idArray(ids))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var hash sql.NullString
		var flagged bool
		if err := rows.Scan(&id, &hash, &flagged); err != nil {
			return err
		}
		if o := byID[id]; o != nil {
			o.artifact, o.flagged = hash.String, flagged
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, list := range lists {
		for k := range list {
			o := byID[list[k].ClaimID]
			list[k].Artifact, list[k].Flagged = o.artifact, o.flagged
		}
	}
	return nil
}

// supersedeClaims stores the supersessions opt asks for (not [SupersedeNone]) for b, whose claims are stored
// with the ids ids (by key); cands are their candidates, found before they went in. It first makes current
// again every superseded claim the note states again, then supersedes: with [SupersedeListed] every
// candidate, by the claim that listed it first; with [SupersedeIDs] each of opt.IDs, by the first claim
// that lists it or else by the claim closest to it ([closestClaim]). The supersessions are written together, a few
// statements for the whole note: each statement that changes the active claims' index writes its pending
// changes out as a segment of their own.
func (st *applyStmts) supersedeClaims(ctx context.Context, b Batch, opt ApplyOptions, r *ApplyResult, created int64, cands [][]Candidate, ids map[string]int64) error {
	// A note that states a superseded claim again makes it current again.
	stated := make([]int64, 0, len(b.Claims))
	seen := make(map[int64]bool, len(b.Claims))
	for _, c := range b.Claims {
		if id := ids[c.Key]; !seen[id] {
			seen[id] = true
			stated = append(stated, id)
		}
	}
	lifted := map[int64]supersessionRow{}
	err := inChunks(len(stated), func(i, j int) error {
		args := make([]any, j-i)
		for k, id := range stated[i:j] {
			args[k] = id
		}
		rows, err := st.tx.QueryContext(ctx, `SELECT old, new, created FROM supersessions WHERE old IN `+valueRows(1, j-i), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var sr supersessionRow
			if err := rows.Scan(&sr.Old, &sr.New, &sr.Created); err != nil {
				return err
			}
			lifted[sr.Old] = sr
		}
		return rows.Err()
	})
	if err != nil {
		return fmt.Errorf("revive: %w", err)
	}
	var revive []supersessionRow
	for _, id := range stated {
		if sr, ok := lifted[id]; ok {
			revive = append(revive, sr)
			r.Revived = append(r.Revived, sr.Old)
		}
	}
	if _, err := removeRows(ctx, st.tx, delta{Supersessions: revive}); err != nil {
		return err
	}
	st.removed.Supersessions = append(st.removed.Supersessions, revive...)
	var add []supersessionRow
	done := map[int64]bool{}
	supersede := func(old, new int64) {
		if !done[old] {
			done[old] = true
			add = append(add, supersessionRow{Old: old, New: new, Created: created})
		}
	}
	if opt.Supersede == SupersedeListed {
		for i, list := range cands {
			for _, cd := range list {
				supersede(cd.ClaimID, ids[b.Claims[i].Key])
			}
		}
	} else {
		own := map[int64]bool{}
		for _, id := range ids {
			own[id] = true
		}
		for _, old := range opt.IDs {
			status, _, err := claimStatus(ctx, st.tx, old)
			if err != nil {
				return err
			}
			if status == "superseded" && !done[old] {
				return fmt.Errorf("supersede claim %d: %w", old, ErrSuperseded)
			}
			if own[old] {
				return fmt.Errorf("supersede claim %d: %w", old, ErrStated)
			}
			if len(b.Claims) == 0 {
				return fmt.Errorf("supersede claim %d: the note has no claim to replace it", old)
			}
			by := int64(0)
			for i, list := range cands {
				if slices.ContainsFunc(list, func(c Candidate) bool { return c.ClaimID == old }) {
					by = ids[b.Claims[i].Key]
					break
				}
			}
			if by == 0 {
				var text string
				if err := st.tx.QueryRowContext(ctx, `SELECT text FROM claims WHERE id = ?`, old).Scan(&text); err != nil {
					return fmt.Errorf("supersede claim %d: %w", old, err)
				}
				by = ids[closestClaim(b.Claims, text).Key]
			}
			supersede(old, by)
		}
	}
	err = inChunks(len(add), func(i, j int) error {
		args := make([]any, 0, 3*(j-i))
		for _, sr := range add[i:j] {
			args = append(args, sr.Old, sr.New, sr.Created)
		}
		if _, err := st.tx.ExecContext(ctx, `INSERT INTO supersessions (old, new, created) VALUES `+valueRows(j-i, 3), args...); err != nil {
			return err
		}
		args = args[:0]
		for _, sr := range add[i:j] {
			args = append(args, sr.Old)
		}
		_, err := st.tx.ExecContext(ctx, `UPDATE claims SET status = 'superseded' WHERE id IN `+valueRows(1, j-i), args...)
		return err
	})
	if err != nil {
		return fmt.Errorf("supersede: %w", err)
	}
	st.added.Supersessions = append(st.added.Supersessions, add...)
	for _, sr := range add {
		r.Superseded = append(r.Superseded, Supersession{Old: sr.Old, New: sr.New})
	}
	return nil
}

// checkSupersede returns the error the transaction would for a claim that opts name to supersede and that is
// not stored, superseded already, or stated by its own batch, before any artifact file is written that no row
// would then refer to. The transaction checks again, under the lock.
func (s *Store) checkSupersede(ctx context.Context, batches []Batch, opts []ApplyOptions) error {
	for i, o := range opts {
		if o.Supersede != SupersedeIDs {
			continue
		}
		for _, id := range o.IDs {
			status, key, err := claimStatus(ctx, s.db, id)
			if err != nil {
				return err
			}
			if status == "superseded" {
				return fmt.Errorf("supersede claim %d: %w", id, ErrSuperseded)
			}
			if slices.ContainsFunc(batches[i].Claims, func(c ClaimInput) bool { return c.Key == key }) {
				return fmt.Errorf("supersede claim %d: %w", id, ErrStated)
			}
		}
	}
	return nil
}

// claimStatus returns the status and key of the stored claim id, to be superseded, or an error that wraps
// [ErrNoClaim] when no claim has that id.
func claimStatus(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id int64) (status, key string, err error) {
	err = q.QueryRowContext(ctx, `SELECT status, key FROM claims WHERE id = ?`, id).Scan(&status, &key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", fmt.Errorf("supersede claim %d: %w", id, ErrNoClaim)
	}
	if err != nil {
		return "", "", fmt.Errorf("supersede claim %d: %w", id, err)
	}
	return status, key, nil
}

// closestClaim returns the claim of claims (not empty) that shares the most of the rule's words with text,
// the first of those that share as many: "--supersede 1" on "Backups run nightly. Staging lives in eu-west-2
// now." gives claim 1 ("The staging cluster runs in us-east-1") to the claim about staging.
func closestClaim(claims []ClaimInput, text string) ClaimInput {
	words, _, _ := ruleWords(text)
	has := make(map[string]bool, len(words))
	for _, w := range words {
		has[w] = true
	}
	best, most := claims[0], -1
	for _, c := range claims {
		n := 0
		cw, _, _ := ruleWords(c.Text)
		seen := map[string]bool{}
		for _, w := range cw {
			if has[w] && !seen[w] {
				seen[w] = true
				n++
			}
		}
		if n > most {
			best, most = c, n
		}
	}
	return best
}
