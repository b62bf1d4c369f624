package main

// Queries of the recall store: recall and search. Neither reads the pending directory or creates a store:
// they open it read-only, and a missing store answers presence=none.

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/age"
	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/recall"
)

// maxOutput caps what recall and search print, in bytes; past it the output says that more results exist.
const maxOutput = 16 << 10

func recallCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "recall",
		Usage:     "find stored claims that answer a query, with their evidence",
		ArgsUsage: "QUERY...",
		Description: withDoc(`Ranks stored claims against the query (any word may match; plurals and verb forms, case,
diacritics, common abbreviations such as DB and Feb, and British and American spellings fold)
and prints them, best first, each with its age and evidence. The first line says
presence=claim when a stored claim answers the query, presence=artifact when only stored artifact
text does (then those artifacts are listed, those with the most query words first, newest first
among equals), presence=none otherwise. A question that asks when or how many, or for a version,
a port, an email address, a phone number or a URL, is answered only by a claim that states one.
Pending checkpoints are never searched. Output is capped at 16 KiB; when more results exist it
says so.

A chat stored one turn per note ("Name: text" or "Name (date): text") splits a fact between a question
and its reply: a question turn in the results is followed by the next turn, another speaker's within
30 minutes, marked [reply to N] (JSON: reply_to).

Superseded claims are history: left out unless --history, which shows them marked with the claim that
replaced them. Claims from a note applied with --allow-flagged are marked flagged. --ref KEY=VALUE
keeps only claims with evidence from notes that carry that ref.`, `memoree recall "regression corpus"
memoree recall deploy release branch -n 3 --json
memoree recall "session store" --history
memoree recall rollout --ref issue=FW-233`),
		Flags:  []cli.Flag{limitFlag, historyFlag, filterRefFlag, jsonFlag},
		Action: func(c *cli.Context) error { return runRecall(c, e) },
	}
}

func searchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "find stored artifacts whose text matches a query, with snippets",
		ArgsUsage: "QUERY...",
		Description: withDoc(`Ranks whole stored artifacts by BM25 against the query and prints each with a snippet.
Pending checkpoints are never searched. Output is capped at 16 KiB.`, `memoree search regression
memoree search "user_id migration" --json`),
		Flags:  []cli.Flag{limitFlag, jsonFlag},
		Action: func(c *cli.Context) error { return runSearch(c, e) },
	}
}

// queryArgs returns the query words joined by spaces and the --limit, checked.
func queryArgs(c *cli.Context) (string, int, error) {
	q := strings.TrimSpace(strings.Join(c.Args().Slice(), " "))
	if q == "" {
		return "", 0, usagef("no query: give the words to look for")
	}
	if err := checkQuery(q); err != nil {
		return "", 0, err
	}
	n := limitFlag.Get(c)
	if n < 1 || n > 1000 {
		return "", 0, usagef("--limit %d is out of range: give 1 to 1000", n)
	}
	return q, n, nil
}

// checkQuery rejects a query that is not UTF-8 or too long to be a question.
func checkQuery(q string) error {
	if !utf8.ValidString(q) {
		return usagef("the query is not valid UTF-8")
	}
	if len(q) > 4096 {
		return usagef("the query is %d bytes; give at most 4096", len(q))
	}
	return nil
}

type evidenceJSON struct {
	Artifact string `json:"artifact"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Session  string `json:"session"`
	Task     string `json:"task"`
	Created  string `json:"created"`
}

type recallClaimJSON struct {
	ClaimID      int64          `json:"claim_id"`
	Text         string         `json:"text"`
	Context      string         `json:"context"`
	Kind         string         `json:"kind"`
	Score        float64        `json:"score"`
	Confidence   float64        `json:"confidence"`
	Flagged      bool           `json:"flagged"`                 // from a note applied with --allow-flagged
	SupersededBy int64          `json:"superseded_by,omitempty"` // with --history: the claim that replaced it
	ReplyTo      int64          `json:"reply_to,omitempty"`      // the question turn this turn answers, listed for it
	Refs         []refJSON      `json:"refs"`
	Created      string         `json:"created"`
	AgeSecs      int64          `json:"age_seconds"`
	Evidence     []evidenceJSON `json:"evidence"`
}

type artifactHitJSON struct {
	Artifact   string  `json:"artifact"`
	Kind       string  `json:"kind"`
	Session    string  `json:"session"`
	Task       string  `json:"task"`
	Score      float64 `json:"score"`
	Confidence float64 `json:"confidence"`
	Created    string  `json:"created"`
	AgeSecs    int64   `json:"age_seconds"`
	Snippet    string  `json:"snippet"`
	Superseded bool    `json:"superseded"` // every claim of the note is superseded: it states what newer notes replaced
}

type recallJSON struct {
	Query      string            `json:"query"`
	Presence   string            `json:"presence"`
	Confidence float64           `json:"confidence"` // 0 to 1: how much of the query's informative words the top result covers
	Results    []recallClaimJSON `json:"results"`
	Artifacts  []artifactHitJSON `json:"artifacts"`
	HasMore    bool              `json:"has_more"`
}

func runRecall(c *cli.Context, e *env) error {
	q, limit, err := queryArgs(c)
	if err != nil {
		return err
	}
	ref, err := refFilter(c)
	if err != nil {
		return err
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	res := recall.RecallResult{Query: q, Presence: recall.PresenceNone, Confidence: 1} // as the store answers when nothing matches
	st, err := queryStore(e)
	if err != nil {
		return err
	}
	if st != nil {
		opt := recall.RecallOptions{Limit: limit, History: historyFlag.Get(c), Ref: ref}
		if res, err = st.RecallWith(c.Context, q, opt); err != nil {
			return err
		}
	}
	out := recallJSON{Query: q, Presence: string(res.Presence), Confidence: round(res.Confidence), Results: []recallClaimJSON{}, Artifacts: []artifactHitJSON{}, HasMore: res.HasMore}
	for _, h := range res.Claims {
		j := recallClaimJSON{ClaimID: h.ID, Text: h.Text, Context: h.Context, Kind: h.Kind, Score: round(h.Score),
			Confidence: round(h.Confidence), Flagged: h.Flagged, SupersededBy: h.SupersededBy, ReplyTo: h.ReplyTo, Refs: []refJSON{},
			Created: rfc3339(h.Created),
			AgeSecs: ageSeconds(now, h.Created), Evidence: []evidenceJSON{}}
		for _, ev := range h.Evidence {
			j.Evidence = append(j.Evidence, evidenceJSON{ev.Artifact, ev.Start, ev.End, ev.Session, ev.Task, rfc3339(ev.Created)})
		}
		for _, r := range h.Refs {
			j.Refs = append(j.Refs, refJSON{r.Key, r.Value})
		}
		out.Results = append(out.Results, j)
	}
	for _, h := range res.Artifacts {
		out.Artifacts = append(out.Artifacts, toArtifactHitJSON(now, h))
	}
	if jsonFlag.Get(c) {
		// The claims come first, then the artifacts; the cap cuts from the end.
		results, arts, more := out.Results, out.Artifacts, out.HasMore
		return printCappedJSON(e, &out, len(results)+len(arts), func(k int) {
			out.Results, out.Artifacts = results[:min(k, len(results))], arts[:max(0, k-len(results))]
			out.HasMore = more || k < len(results)+len(arts)
		})
	}
	var blocks []string
	for i, r := range out.Results {
		var b strings.Builder
		marks := ""
		if r.Flagged {
			marks += " [flagged]"
		}
		if r.SupersededBy != 0 {
			marks += fmt.Sprintf(" [superseded by %d]", r.SupersededBy)
		}
		if r.ReplyTo != 0 {
			marks += fmt.Sprintf(" [reply to %d]", r.ReplyTo)
		}
		fmt.Fprintf(&b, "%d. [%s] %s%s  (%s)%s\n", i+1, r.Kind, escape.Label(r.Text), contextSuffix(r.Context), ageText(r.AgeSecs), marks)
		for _, ev := range r.Evidence {
			fmt.Fprintf(&b, "   evidence %s [%d,%d) session %s, task %s, %s\n", ev.Artifact[:12], ev.Start, ev.End,
				orDash(escape.Label(ev.Session)), orDash(escape.Label(ev.Task)), ev.Created)
		}
		blocks = append(blocks, b.String())
	}
	for _, a := range out.Artifacts {
		blocks = append(blocks, artifactBlock(a))
	}
	head := fmt.Sprintf("presence=%s query=%q results=%d\n", out.Presence, q, len(out.Results)+len(out.Artifacts))
	return printCapped(e, head, blocks, out.HasMore)
}

func toArtifactHitJSON(now time.Time, h recall.ArtifactHit) artifactHitJSON {
	return artifactHitJSON{h.Artifact, h.Kind, h.Session, h.Task, round(h.Score), round(h.Confidence), rfc3339(h.Created),
		ageSeconds(now, h.Created), h.Snippet, h.Superseded}
}

// artifactBlock is the human view of one artifact hit: a header line and an indented snippet.
func artifactBlock(a artifactHitJSON) string {
	mark := ""
	if a.Superseded {
		mark = "  [superseded: newer notes replace what it states]"
	}
	return fmt.Sprintf("%s  %s  session %s, task %s, %s%s\n   %s\n", a.Artifact[:12], a.Kind,
		orDash(escape.Label(a.Session)), orDash(escape.Label(a.Task)), ageText(a.AgeSecs), mark, escape.Label(a.Snippet))
}

type searchJSON struct {
	Query   string            `json:"query"`
	Results []artifactHitJSON `json:"results"`
	HasMore bool              `json:"has_more"`
}

func runSearch(c *cli.Context, e *env) error {
	q, limit, err := queryArgs(c)
	if err != nil {
		return err
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	out := searchJSON{Query: q, Results: []artifactHitJSON{}}
	st, err := queryStore(e)
	if err != nil {
		return err
	}
	if st != nil {
		hits, more, err := st.Search(c.Context, q, limit)
		if err != nil {
			return err
		}
		out.HasMore = more
		for _, h := range hits {
			out.Results = append(out.Results, toArtifactHitJSON(now, h))
		}
	}
	if jsonFlag.Get(c) {
		results, more := out.Results, out.HasMore
		return printCappedJSON(e, &out, len(results), func(k int) {
			out.Results, out.HasMore = results[:k], more || k < len(results)
		})
	}
	blocks := make([]string, len(out.Results))
	for i, a := range out.Results {
		blocks[i] = artifactBlock(a)
	}
	return printCapped(e, "", blocks, out.HasMore)
}

// printCapped prints head and as many blocks as fit in maxOutput bytes, then a line saying that more results
// exist when the cap cut some blocks off, or when more matched than the query's limit.
func printCapped(e *env, head string, blocks []string, more bool) error {
	const (
		capped  = "… more results than fit in 16 KiB: narrow the query\n"
		limited = "… more results exist: raise --limit or narrow the query\n"
	)
	var b strings.Builder
	b.WriteString(head)
	tail := ""
	if more {
		tail = limited
	}
	for _, blk := range blocks {
		if b.Len()+len(blk)+len(capped) > maxOutput {
			tail = capped
			break
		}
		b.WriteString(blk)
	}
	b.WriteString(tail)
	_, err := fmt.Fprint(e.stdout, b.String())
	return err
}

// printCappedJSON prints v as JSON of at most maxOutput bytes. v holds n results; keep(k) cuts them to the
// first k and sets has_more when k < n. The JSON grows with k, so the most that fit are found by bisection:
// about log2(n) encodings instead of one per result dropped.
func printCappedJSON(e *env, v any, n int, keep func(k int)) error {
	encode := func(k int) (*bytes.Buffer, error) {
		keep(k)
		var buf bytes.Buffer
		err := writeJSON(&buf, v)
		return &buf, err
	}
	buf, err := encode(n)
	if err != nil || buf.Len() <= maxOutput {
		if err == nil {
			_, err = e.stdout.Write(buf.Bytes())
		}
		return err
	}
	// Invariant: lo results fit (or lo is 0, printed even if it does not), hi results do not.
	lo, hi := 0, n
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if buf, err = encode(mid); err != nil {
			return err
		}
		if buf.Len() <= maxOutput {
			lo = mid
		} else {
			hi = mid
		}
	}
	if buf, err = encode(lo); err != nil {
		return err
	}
	_, err = e.stdout.Write(buf.Bytes())
	return err
}

var (
	historyFlag   = &cli.BoolFlag{Name: "history", Usage: "include superseded claims, marked with the claim that replaced them", DisableDefaultText: true}
	filterRefFlag = &cli.StringFlag{Name: "ref", Aliases: []string{"r"}, Usage: "only claims from notes that carry the ref `KEY=VALUE`"}
)

// refFilter returns the ref that --ref names, checked, or nil.
func refFilter(c *cli.Context) (*recall.Ref, error) {
	if !c.IsSet(filterRefFlag.Name) {
		return nil, nil
	}
	r, err := recall.ParseRef(filterRefFlag.Get(c))
	if err != nil {
		return nil, usagef("--ref: %v", err)
	}
	return &r, nil
}

// ageSeconds is how long before now t was, in whole seconds, for JSON.
func ageSeconds(now, t time.Time) int64 { return int64(now.Sub(t) / time.Second) }

// ageText renders an age in seconds for the human views ("5m ago").
func ageText(secs int64) string { return age.Format(time.Duration(secs) * time.Second) }

// round keeps scores readable and stable in JSON.
func round(f float64) float64 {
	return math.Round(f*1e4) / 1e4
}
