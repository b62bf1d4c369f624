package main

// Queries of the recall store (recall, search, context build, artifact show) and its upkeep (artifact gc,
// optimize). None of them reads the pending directory or creates a store: the queries open it read-only,
// and the upkeep leaves a missing store missing.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/age"
	"github.com/memoree/memoree/internal/app"
	"github.com/memoree/memoree/recall"
)

// maxOutput caps what recall and search print, in bytes; past it the output says that more results exist.
const maxOutput = 16 << 10

// queryArgs returns the query words joined by spaces and the --limit, checked.
func queryArgs(c *cli.Context) (string, int, error) {
	q := strings.TrimSpace(strings.Join(c.Args().Slice(), " "))
	if q == "" {
		return "", 0, app.Usagef("no query: give the words to look for")
	}
	if err := checkQuery(q); err != nil {
		return "", 0, err
	}
	n := c.Int("limit")
	if n < 1 || n > 1000 {
		return "", 0, app.Usagef("--limit %d is out of range: give 1 to 1000", n)
	}
	return q, n, nil
}

// checkQuery rejects a query that is not UTF-8 or too long to be a question.
func checkQuery(q string) error {
	if !utf8.ValidString(q) {
		return app.Usagef("the query is not valid UTF-8")
	}
	if len(q) > 4096 {
		return app.Usagef("the query is %d bytes; give at most 4096", len(q))
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
	ClaimID  int64          `json:"claim_id"`
	Text     string         `json:"text"`
	Kind     string         `json:"kind"`
	Score    float64        `json:"score"`
	Created  string         `json:"created"`
	Age      string         `json:"age"`
	Evidence []evidenceJSON `json:"evidence"`
}

type artifactHitJSON struct {
	Artifact string  `json:"artifact"`
	Kind     string  `json:"kind"`
	Session  string  `json:"session"`
	Task     string  `json:"task"`
	Score    float64 `json:"score"`
	Created  string  `json:"created"`
	Age      string  `json:"age"`
	Snippet  string  `json:"snippet"`
}

type recallJSON struct {
	Query     string            `json:"query"`
	Presence  string            `json:"presence"`
	Results   []recallClaimJSON `json:"results"`
	Artifacts []artifactHitJSON `json:"artifacts"`
	HasMore   bool              `json:"has_more"`
}

// queryStore opens the store for reading, creating nothing; a store that does not exist yet is reported as nil,
// not an error.
//
// Callers leave the store open: the process exits right after the query, and the exit releases the store's
// lock and files. Closing it first unmaps the database while the runtime's other threads still run, which
// costs a recall about 0.4 ms; a read-only store has nothing to write back.
func queryStore(e *app.Env) (*recall.Store, error) {
	dir, err := storeDir(e)
	if err != nil {
		return nil, err
	}
	st, err := recall.OpenExisting(dir)
	if errors.Is(err, recall.ErrNoStore) {
		return nil, nil
	}
	return st, err
}

func runRecall(c *cli.Context, e *app.Env) error {
	q, limit, err := queryArgs(c)
	if err != nil {
		return err
	}
	now, err := e.Now()
	if err != nil {
		return err
	}
	res := recall.RecallResult{Query: q, Presence: recall.PresenceNone}
	st, err := queryStore(e)
	if err != nil {
		return err
	}
	if st != nil {
		if res, err = st.Recall(c.Context, q, limit); err != nil {
			return err
		}
	}
	out := recallJSON{Query: q, Presence: string(res.Presence), Results: []recallClaimJSON{}, Artifacts: []artifactHitJSON{}, HasMore: res.HasMore}
	for _, h := range res.Claims {
		j := recallClaimJSON{ClaimID: h.ID, Text: h.Text, Kind: h.Kind, Score: round(h.Score), Created: app.RFC3339(h.Created),
			Age: age.Format(now.Sub(h.Created)), Evidence: []evidenceJSON{}}
		for _, ev := range h.Evidence {
			j.Evidence = append(j.Evidence, evidenceJSON{ev.Artifact, ev.Start, ev.End, ev.Session, ev.Task, app.RFC3339(ev.Created)})
		}
		out.Results = append(out.Results, j)
	}
	for _, h := range res.Artifacts {
		out.Artifacts = append(out.Artifacts, toArtifactHitJSON(now, h))
	}
	if c.Bool("json") {
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
		fmt.Fprintf(&b, "%d. [%s] %s  (%s)\n", i+1, r.Kind, app.EscapeLabel(r.Text), r.Age)
		for _, ev := range r.Evidence {
			fmt.Fprintf(&b, "   evidence %s [%d,%d) session %s, task %s, %s\n", ev.Artifact[:12], ev.Start, ev.End,
				app.OrDash(app.EscapeLabel(ev.Session)), app.OrDash(app.EscapeLabel(ev.Task)), ev.Created)
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
	return artifactHitJSON{h.Artifact, h.Kind, h.Session, h.Task, round(h.Score), app.RFC3339(h.Created), age.Format(now.Sub(h.Created)), h.Snippet}
}

// artifactBlock is the human view of one artifact hit: a header line and an indented snippet.
func artifactBlock(a artifactHitJSON) string {
	return fmt.Sprintf("%s  %s  session %s, task %s, %s\n   %s\n", a.Artifact[:12], a.Kind,
		app.OrDash(app.EscapeLabel(a.Session)), app.OrDash(app.EscapeLabel(a.Task)), a.Age, app.EscapeLabel(a.Snippet))
}

type searchJSON struct {
	Query   string            `json:"query"`
	Results []artifactHitJSON `json:"results"`
	HasMore bool              `json:"has_more"`
}

func runSearch(c *cli.Context, e *app.Env) error {
	q, limit, err := queryArgs(c)
	if err != nil {
		return err
	}
	now, err := e.Now()
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
	if c.Bool("json") {
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
func printCapped(e *app.Env, head string, blocks []string, more bool) error {
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
	_, err := fmt.Fprint(e.Stdout, b.String())
	return err
}

// printCappedJSON prints v as JSON of at most maxOutput bytes. v holds n results; keep(k) cuts them to the
// first k and sets has_more when k < n. The JSON grows with k, so the most that fit are found by bisection:
// about log2(n) encodings instead of one per result dropped.
func printCappedJSON(e *app.Env, v any, n int, keep func(k int)) error {
	encode := func(k int) (*bytes.Buffer, error) {
		keep(k)
		var buf bytes.Buffer
		err := app.PrintJSON(&buf, v)
		return &buf, err
	}
	buf, err := encode(n)
	if err != nil || buf.Len() <= maxOutput {
		if err == nil {
			_, err = e.Stdout.Write(buf.Bytes())
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
	_, err = e.Stdout.Write(buf.Bytes())
	return err
}

type contextJSON struct {
	Markdown string `json:"markdown"`
	Included int    `json:"included"`
	LeftOut  int    `json:"left_out"`
	Tokens   int    `json:"tokens"`
	Budget   int    `json:"budget"`
}

func runContextBuild(c *cli.Context, e *app.Env) error {
	if c.NArg() > 0 {
		return app.Usagef("context build takes no arguments; give the query with --query")
	}
	budget := c.Int("budget")
	if budget < 1 {
		return app.Usagef("--budget %d is not a positive number of tokens", budget)
	}
	for _, f := range []string{"session", "task"} {
		if c.IsSet(f) && c.String(f) == "" {
			return app.Usagef("--%s is empty", f)
		}
	}
	if err := checkQuery(c.String("query")); err != nil {
		return err
	}
	now, err := e.Now()
	if err != nil {
		return err
	}
	st, err := queryStore(e)
	if err != nil {
		return err
	}
	var blk recall.ContextBlock
	opt := recall.ContextOptions{Query: c.String("query"), Session: c.String("session"), Task: c.String("task"), Budget: budget, Now: now}
	if st != nil {
		blk, err = st.Context(c.Context, opt)
	} else {
		blk, err = recall.EmptyContext(opt)
	}
	if be := (*recall.BudgetError)(nil); errors.As(err, &be) {
		return app.Usagef("--budget %d is too small: even an empty block needs %d tokens", budget, be.Need)
	}
	if err != nil {
		return err
	}
	if c.Bool("json") {
		return app.PrintJSON(e.Stdout, contextJSON{blk.Markdown, blk.Included, blk.LeftOut, blk.Tokens, budget})
	}
	_, err = fmt.Fprint(e.Stdout, blk.Markdown)
	return err
}

func runArtifactShow(c *cli.Context, e *app.Env) error {
	if c.NArg() != 1 {
		return app.Usagef("artifact show takes one hash (or a prefix of at least %d hex digits)", recall.MinPrefix)
	}
	if err := recall.CheckPrefix(c.Args().First()); err != nil {
		return app.Usagef("%v", err)
	}
	st, err := queryStore(e)
	if err != nil {
		return err
	}
	if st == nil {
		return fmt.Errorf("%w %s: nothing has been stored yet", recall.ErrNotFound, c.Args().First())
	}
	_, data, err := st.ArtifactBytes(c.Args().First())
	if err != nil {
		return err
	}
	_, err = e.Stdout.Write(data)
	return err
}

// runArtifactGC removes the artifact files no stored artifact refers to. With no store it says so and creates
// none.
func runArtifactGC(c *cli.Context, e *app.Env) error {
	if c.NArg() != 0 {
		return app.Usagef("artifact gc takes no arguments")
	}
	grace := c.Duration("grace")
	if grace < 0 {
		return app.Usagef("--grace %s is negative: give a duration such as 1h or 0s", grace)
	}
	// File ages come from the file system's clock, so they are measured against the real time, not
	// MEMOREE_NOW: a clock set ahead would otherwise collect the file of an apply in progress.
	now := time.Now()
	dir, exists, err := upkeepDir(e)
	if err != nil {
		return err
	}
	removed := 0
	if exists {
		err = withStore(dir, func(st *recall.Store) (err error) {
			removed, err = st.CollectGarbage(c.Context, now, grace)
			return err
		})
		if err != nil {
			return err
		}
	}
	if c.Bool("json") {
		return app.PrintJSON(e.Stdout, struct {
			Removed int `json:"removed"`
		}{removed})
	}
	_, err = fmt.Fprintf(e.Stdout, "removed %d unreferenced artifact file(s)\n", removed)
	return err
}

// upkeepDir returns the store directory for a command that maintains the store, and whether a store is
// there: without one there is nothing to maintain, and none is created.
func upkeepDir(e *app.Env) (string, bool, error) {
	dir, err := storeDir(e)
	if err != nil {
		return "", false, err
	}
	exists, err := recall.Exists(dir)
	return dir, exists, err
}

// round keeps scores readable and stable in JSON.
func round(f float64) float64 {
	return math.Round(f*1e4) / 1e4
}

// optimizeJSON is the --json shape of optimize.
type optimizeJSON struct {
	Optimized   bool  `json:"optimized"`
	BytesBefore int64 `json:"bytes_before"`
	BytesAfter  int64 `json:"bytes_after"`
}

func runOptimize(c *cli.Context, e *app.Env) error {
	if c.NArg() != 0 {
		return app.Usagef("optimize takes no arguments")
	}
	dir, exists, err := upkeepDir(e)
	if err != nil {
		return err
	}
	var out optimizeJSON
	if exists {
		err = withStore(dir, func(st *recall.Store) (err error) {
			out.Optimized = true
			if out.BytesBefore, err = st.FileSize(); err != nil {
				return err
			}
			if err := st.Optimize(c.Context); err != nil {
				return err
			}
			out.BytesAfter, err = st.FileSize()
			return err
		})
		if err != nil {
			return err
		}
	}
	if c.Bool("json") {
		return app.PrintJSON(e.Stdout, out)
	}
	if !out.Optimized {
		_, err = fmt.Fprintln(e.Stdout, "nothing to optimize: no recall store yet")
		return err
	}
	_, err = fmt.Fprintf(e.Stdout, "optimized the recall store: %d bytes, %d before\n", out.BytesAfter, out.BytesBefore)
	return err
}

// withStore opens the store in dir for writing, runs f on it and closes it, before the caller prints
// anything: a failed close, which loses the change, must not follow a report of success.
func withStore(dir string, f func(*recall.Store) error) (err error) {
	st, err := recall.Open(dir)
	if err != nil {
		return err
	}
	defer closeStore(st, &err)
	return f(st)
}
