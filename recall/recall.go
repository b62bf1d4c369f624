package recall

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Evidence is where a claim was read: a span of a stored artifact, and the artifact's origin.
type Evidence struct {
	Artifact   string // full hash
	Start, End int
	Session    string
	Task       string
	Created    time.Time
}

// ClaimHit is one recalled claim. Created is when it was first stored; callers compute its age from it.
// Context is what its artifact says around it (headings, list intro, speaker label), "" for claims
// compiled without one. Confidence, from 0 to 1, is the share of the query's informative words the claim
// and its context hold, each word weighted by how rare it is among the claims.
type ClaimHit struct {
	ID           int64
	Text         string
	Context      string
	Kind         string
	Score        float64 // higher is better; see [ScoreParts] for what it is made of
	Confidence   float64
	Created      time.Time
	Evidence     []Evidence // oldest first
	SupersededBy int64      // the claim that replaced it (see supersede.go), 0 if it is current; set only with history
	Flagged      bool       // it has evidence in an artifact applied although flagged
	ReplyTo      int64      // the question turn it answers, listed for it (see replies.go); 0 if it matched itself
	Refs         []Ref      // the refs of its evidence's artifacts, sorted, without repeats

	parts [numSignals]float64
}

// ScoreParts returns the value of each ranking signal, 0 to 1, in the order of [SignalNames]; nil for
// claims not ranked for a query. Score is their weighted sum, less a penalty for each better-ranked claim
// from the same artifact.
func (h ClaimHit) ScoreParts() []float64 {
	if h.parts == ([numSignals]float64{}) {
		return nil
	}
	return h.parts[:]
}

// ArtifactHit is one artifact whose text matches a query, with a snippet around the match (matched words in
// [brackets], cuts marked with …).
type ArtifactHit struct {
	Artifact string // full hash
	Kind     string
	Session  string
	Task     string
	Snippet  string
	Score    float64 // higher is better: BM25 from Search; from Recall, the same as Confidence
	// Confidence, from 0 to 1, is the share of the query's informative words the artifact's text holds,
	// weighted as for [ClaimHit]; 0 from Search.
	Confidence float64
	Created    time.Time
	Flagged    bool // applied although the secret scan flagged it
	// Superseded is set when every claim of the artifact is superseded: its text states what newer notes
	// replaced.
	Superseded bool
}

// DefaultLimit is the number of results [Store.Recall] and [Store.Search] return for a limit of zero or less.
const DefaultLimit = 10

// Presence says whether the store already knows the answer to a query.
type Presence string

// Presence values: a stored claim answers the query, only stored artifact text does, or nothing does.
const (
	PresenceClaim    Presence = "claim"
	PresenceArtifact Presence = "artifact"
	PresenceNone     Presence = "none"
)

// RecallResult is the answer to [Store.Recall]. Confidence, from 0 to 1, is how sure Presence is: the
// confidence of the best claim (or, for PresenceArtifact, artifact), or for PresenceNone one minus that of
// the best match.
type RecallResult struct {
	Query      string
	Presence   Presence
	Confidence float64
	Claims     []ClaimHit
	Artifacts  []ArtifactHit // listed only when Presence is PresenceArtifact
	HasMore    bool          // more claims (or, for PresenceArtifact, artifacts) match than were returned
}

// Recall returns up to limit (or [DefaultLimit]) claims ranked for query, best first, with their evidence. The
// query is plain user text (any characters; no search syntax), and a claim matches when its text or context
// contains any query word, after case folding, diacritic folding, English stemming and other spellings (see
// spellings.go); see rank.go for how claims are ranked.
//
// Presence is PresenceClaim when the best claim holds enough of the query's informative words, weighted by
// how rare each is (IDF), that it answers the query; PresenceArtifact when no claim does but an artifact's
// text does; and PresenceNone otherwise: claims that share only incidental words with the query (a project
// name, a person, a number) are still listed, but they do not count as an answer. Words of questions
// (which, does, use, tell, kind...) count little. A question that asks when, how many or how much, or for
// a version, a port, an email address, a phone number or a URL, is answered only by a claim that states
// one (see presence.go). With PresenceArtifact the matching artifacts are listed too, best covered first, newest
// first among equals.
func (s *Store) Recall(ctx context.Context, query string, limit int) (RecallResult, error) {
	return s.RecallWith(ctx, query, RecallOptions{Limit: limit})
}

// RecallWith is [Store.Recall] with options (see filter.go): superseded claims are left out unless
// opt.History, and opt.Ref keeps only claims and artifacts that carry a ref.
func (s *Store) RecallWith(ctx context.Context, query string, opt RecallOptions) (RecallResult, error) {
	limit := opt.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	res := RecallResult{Query: query, Presence: PresenceNone, Confidence: 1}
	q := parseQuery(query)
	if len(q.terms) == 0 {
		return res, nil
	}
	hits, more, err := s.rank(ctx, opt.claims(), &q, limit, allRows)
	if err != nil {
		return res, fmt.Errorf("recall: %w", err)
	}
	res.HasMore = more
	if hits, err = s.addReplies(ctx, opt.claims(), hits, limit); err != nil {
		return res, fmt.Errorf("recall: %w", err)
	}
	kind := q.wants
	best := kind.answerCoverage(&q, hits)
	if q.significant == 0 {
		// Stopwords never answer a question on their own.
		return s.noAnswer(ctx, res, hits)
	}
	if best >= claimFloor {
		res.Presence, res.Confidence = PresenceClaim, best
		if res.Claims, err = s.claimHits(ctx, hits); err != nil {
			return res, fmt.Errorf("recall: %w", err)
		}
		return res, nil
	}
	if kind != askedAnything {
		// Artifact text is not checked for the time, quantity, number or contact the question asks for.
		res.Confidence = 1 - best
		return s.noAnswer(ctx, res, hits)
	}
	// No claim answers: the artifact text may. It is searched only now, not alongside the claims on a second
	// connection, which cost more when a claim answered than it saved when none did (docs/performance.md).
	// The claims' evidence is loaded while the artifact files are read for their snippets.
	qa := q.unjoined()
	arts, artsMore, err := s.rank(ctx, opt.artifacts(), &qa, limit, answersOnly)
	if err != nil {
		return res, fmt.Errorf("recall: %w", err)
	}
	wait := func() ([]ArtifactHit, error) { return nil, nil }
	if len(arts) > 0 && arts[0].coverage >= artifactFloor {
		wait = s.startArtifactHits(q, arts)
	}
	// The snippets must not outlive the call, so wait for them whatever claimHits returns.
	res.Claims, err = s.claimHits(ctx, hits)
	var werr error
	res.Artifacts, werr = wait()
	if werr == nil {
		werr = s.flagArtifacts(ctx, res.Artifacts)
	}
	if err = cmp.Or(err, werr); err != nil {
		return res, fmt.Errorf("recall: %w", err)
	}
	if len(res.Artifacts) > 0 {
		res.Presence, res.Confidence = PresenceArtifact, res.Artifacts[0].Confidence
		res.HasMore = artsMore
		return res, nil
	}
	if len(arts) > 0 {
		best = max(best, arts[0].coverage)
	}
	res.Confidence = 1 - best
	return res, nil
}

// noAnswer is res with the claims of hits listed, none of which answers.
func (s *Store) noAnswer(ctx context.Context, res RecallResult, hits []hit) (RecallResult, error) {
	var err error
	if res.Claims, err = s.claimHits(ctx, hits); err != nil {
		return res, fmt.Errorf("recall: %w", err)
	}
	return res, nil
}

// Search returns up to limit (or [DefaultLimit]) artifacts whose text matches query, best first, each with a snippet, and
// whether more match. Matching and ranking follow [Store.Recall].
func (s *Store) Search(ctx context.Context, query string, limit int) ([]ArtifactHit, bool, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	q := parseQuery(query)
	hits, more, err := s.rank(ctx, artifactIndex, &q, limit, allRows)
	if err != nil {
		return nil, false, fmt.Errorf("search: %w", err)
	}
	out, err := s.artifactHits(q, hits)
	if err == nil {
		err = s.flagArtifacts(ctx, out)
	}
	if err != nil {
		return nil, false, fmt.Errorf("search: %w", err)
	}
	return out, more, nil
}

// claimHits loads the claims and evidence of hits, in the order of hits.
func (s *Store) claimHits(ctx context.Context, hits []hit) ([]ClaimHit, error) {
	out := make([]ClaimHit, len(hits))
	if len(hits) == 0 {
		return out, nil
	}
	idx := make(map[int64]int, len(hits))
	for i, h := range hits {
		idx[h.id] = i
		out[i] = ClaimHit{ID: h.id, Score: h.score, Confidence: h.coverage, Text: h.f[0], Context: h.f[2], Kind: h.f[1],
			Created: time.Unix(0, h.created).UTC(), ReplyTo: h.replyTo, parts: h.signals}
	}
	ids := idList(hits)
	rows, err := s.query(ctx, `SELECT e.claim, a.hash, e.start, e."end", a.session, a.task, a.created
		FROM evidence e JOIN artifacts a ON a.id = e.artifact
		WHERE e.claim`+inIDs+` ORDER BY a.created, a.id, e.start`, ids)
	if err != nil {
		return nil, fmt.Errorf("load evidence: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, created int64
		var e Evidence
		if err := rows.Scan(&id, &e.Artifact, &e.Start, &e.End, &e.Session, &e.Task, &created); err != nil {
			return nil, fmt.Errorf("load evidence: %w", err)
		}
		e.Created = time.Unix(0, created).UTC()
		c := &out[idx[id]]
		c.Evidence = append(c.Evidence, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load evidence: %w", err)
	}
	if err := s.annotate(ctx, out, ids); err != nil {
		return nil, fmt.Errorf("load claims: %w", err)
	}
	return out, nil
}

// artifactHits returns the artifacts of hits with a snippet of each around q's words, in the order of hits.
func (s *Store) artifactHits(q query, hits []hit) ([]ArtifactHit, error) {
	return s.startArtifactHits(q, hits)()
}

// startArtifactHits is [Store.artifactHits] in two steps: it reads and cuts the snippets in the background and
// returns the function that waits for them. The background work reads only artifact files, so the caller
// may use the database meanwhile.
func (s *Store) startArtifactHits(q query, hits []hit) func() ([]ArtifactHit, error) {
	out := make([]ArtifactHit, len(hits))
	for i, h := range hits {
		out[i] = ArtifactHit{Artifact: h.f[0], Kind: h.f[1], Session: h.f[2], Task: h.f[3], Score: h.score,
			Confidence: h.coverage, Created: time.Unix(0, h.created).UTC()}
	}
	// Snippets come from the artifact files: the index does not keep artifact text. Reading and cutting
	// them is independent work, done in parallel.
	errs := make([]error, len(out))
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() {
			data, err := s.readArtifact(out[i].Artifact)
			if err != nil {
				errs[i] = err
				return
			}
			out[i].Snippet = snippet(data, q.words)
		})
	}
	return func() ([]ArtifactHit, error) {
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		return out, nil
	}
}
