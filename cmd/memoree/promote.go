package main

// Promotion: remember, pending preview and pending apply share one path. The text is scanned, compiled into claims
// by the claim compiler, and either shown (preview: nothing is written, no store is created) or stored as one
// artifact with its claims in one transaction (apply).

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/checkpoint"
	"github.com/memoree/memoree/compiler"
	"github.com/memoree/memoree/internal/app"
	"github.com/memoree/memoree/internal/cmdline"
	"github.com/memoree/memoree/pending"
	"github.com/memoree/memoree/recall"
	"github.com/memoree/memoree/scan"
)

// promotion is one text on its way into the recall store.
type promotion struct {
	id       string // pending ID, or the artifact hash for remember
	artifact recall.Artifact
}

// storeDir returns the recall store's directory in the data directory.
func storeDir(e *app.Env) (string, error) {
	data, err := e.DataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(data, "store"), nil
}

// closeStore closes a writable store and, when nothing failed before, reports Close's error in *err: Close
// writes the log into the database, and only then is a change sure to survive a crash.
func closeStore(st *recall.Store, err *error) {
	if cerr := st.Close(); *err == nil {
		*err = cerr
	}
}

// openStore opens the recall store in the data directory, creating it.
func openStore(e *app.Env) (*recall.Store, error) {
	dir, err := storeDir(e)
	if err != nil {
		return nil, err
	}
	return recall.Open(dir)
}

// refuseFlagged returns a refusal (exit status 3) unless the note is clean or the user allowed it.
func refuseFlagged(c *cli.Context, what string, findings int) error {
	if findings == 0 || c.Bool("allow-flagged") {
		return nil
	}
	return app.Flaggedf("%s is flagged: the secret scan found %d possible secret(s); review it, then rerun with --allow-flagged to promote it anyway",
		what, findings)
}

func compile(p promotion) compiler.Result {
	a := p.artifact
	return compiler.Rules.Compile(string(a.Text), compiler.Source{Kind: a.Kind, Session: a.Session, Task: a.Task})
}

// claimInputs converts compiled claims for the store.
func claimInputs(r compiler.Result) []recall.ClaimInput {
	in := make([]recall.ClaimInput, 0, len(r.Claims))
	for _, c := range r.Claims {
		spans := make([]recall.Span, len(c.Spans))
		for i, s := range c.Spans {
			spans[i] = recall.Span{Start: s.Start, End: s.End}
		}
		in = append(in, recall.ClaimInput{Key: c.Key, Text: c.Text, Kind: c.Kind, Compiler: r.Compiler, Spans: spans})
	}
	return in
}

type previewJSON struct {
	ID       string        `json:"id"`
	Compiler string        `json:"compiler"`
	Claims   []claimJSON   `json:"claims"`
	Skipped  []skippedJSON `json:"skipped"`
}

type claimJSON struct {
	Text  string `json:"text"`
	Kind  string `json:"kind"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Known bool   `json:"known"`
}

type skippedJSON struct {
	Text   string `json:"text"`
	Reason string `json:"reason"`
}

// preview compiles the text and prints what apply would store. It writes nothing: the store is opened read-only
// and only if it exists.
func preview(c *cli.Context, e *app.Env, p promotion) error {
	res := compile(p)
	known := map[string]bool{}
	st, err := queryStore(e)
	if err != nil {
		return err
	}
	if st != nil {
		keys := make([]string, len(res.Claims))
		for i, cl := range res.Claims {
			keys[i] = cl.Key
		}
		if known, err = st.Known(c.Context, keys); err != nil {
			return err
		}
	}
	out := previewJSON{ID: p.id, Compiler: res.Compiler, Claims: []claimJSON{}, Skipped: []skippedJSON{}}
	for _, cl := range res.Claims {
		out.Claims = append(out.Claims, claimJSON{cl.Text, cl.Kind, cl.Spans[0].Start, cl.Spans[0].End, known[cl.Key]})
	}
	for _, s := range res.Skipped {
		out.Skipped = append(out.Skipped, skippedJSON{s.Text, s.Reason})
	}
	if c.Bool("json") {
		return app.PrintJSON(e.Stdout, out)
	}
	nKnown := 0
	for _, cl := range out.Claims {
		if cl.Known {
			nKnown++
		}
	}
	w := e.Stdout
	id := p.id
	if len(id) == 64 {
		id = "note " + id[:12]
	}
	fmt.Fprintf(w, "preview %s (compiler %s): %d claim(s), %d new, %d known; %d skipped; nothing written\n",
		id, res.Compiler, len(out.Claims), len(out.Claims)-nKnown, nKnown, len(out.Skipped))
	for _, cl := range out.Claims {
		state := "new"
		if cl.Known {
			state = "known"
		}
		fmt.Fprintf(w, "claim\t%s\t%s\t%d-%d\t%s\n", cl.Kind, state, cl.Start, cl.End, app.EscapeLabel(cl.Text))
	}
	for _, s := range out.Skipped {
		fmt.Fprintf(w, "skip\t%s\t%s\n", s.Reason, app.EscapeLabel(s.Text))
	}
	return nil
}

type applyJSON struct {
	ID          string `json:"id"`
	Artifact    string `json:"artifact"`
	Compiler    string `json:"compiler"`
	NewClaims   int    `json:"new_claims"`
	KnownClaims int    `json:"known_claims"`
	NewEvidence int    `json:"new_evidence"`
	NoOp        bool   `json:"no_op"`
}

// apply compiles the text and stores it with its claims in one transaction, and returns the time it recorded
// as their creation. Applying the same text again changes nothing and says so.
func apply(ctx context.Context, e *app.Env, p promotion) (_ applyJSON, now time.Time, err error) {
	if now, err = e.Now(); err != nil {
		return applyJSON{}, now, err
	}
	res := compile(p)
	st, err := openStore(e)
	if err != nil {
		return applyJSON{}, now, err
	}
	defer closeStore(st, &err)
	r, err := st.Apply(ctx, p.artifact, claimInputs(res), now)
	if err != nil {
		return applyJSON{}, now, fmt.Errorf("apply %s: %w", p.id, err)
	}
	return applyJSON{
		ID: p.id, Artifact: r.Artifact, Compiler: res.Compiler, NewClaims: r.NewClaims,
		KnownClaims: r.KnownClaims, NewEvidence: r.NewEvidence, NoOp: r.NoOp(),
	}, now, nil
}

// printApply reports an apply; name is what the human view calls the text ("note" or the checkpoint ID).
func printApply(c *cli.Context, e *app.Env, name string, out applyJSON) error {
	if c.Bool("json") {
		return app.PrintJSON(e.Stdout, out)
	}
	if out.NoOp {
		_, err := fmt.Fprintf(e.Stdout, "already applied %s as artifact %s: nothing new\n", name, out.Artifact[:12])
		return err
	}
	_, err := fmt.Fprintf(e.Stdout, "applied %s as artifact %s: %d new claim(s), %d known\n",
		name, out.Artifact[:12], out.NewClaims, out.KnownClaims)
	return err
}

// pendingPromotion loads a pending checkpoint as a promotion.
func pendingPromotion(c *cli.Context, e *app.Env) (*pending.Dir, promotion, error) {
	dir, id, err := cmdline.PendingID(c, e)
	if err != nil {
		return nil, promotion{}, err
	}
	it, err := dir.Get(id)
	if err != nil {
		return nil, promotion{}, err
	}
	p := promotion{
		id: it.ID,
		artifact: recall.Artifact{
			Kind: "checkpoint", Source: "pending:" + it.ID, Session: it.Session, Task: it.Task, Text: []byte(it.Text),
		},
	}
	// Scan again: the rules may have grown since the checkpoint was staged, and nothing they now catch may
	// reach the store unreviewed.
	flagged := len(scan.Text(it.Text))
	if it.Flagged && flagged == 0 {
		flagged = len(it.Findings)
	}
	return dir, p, refuseFlagged(c, "checkpoint "+it.ID, flagged)
}

func runPendingPreview(c *cli.Context, e *app.Env) error {
	_, p, err := pendingPromotion(c, e)
	if err != nil {
		return err
	}
	return preview(c, e, p)
}

func runPendingApply(c *cli.Context, e *app.Env) error {
	dir, p, err := pendingPromotion(c, e)
	if err != nil {
		return err
	}
	// One clock for the artifact's creation and the pending item's record of it.
	out, now, err := apply(c.Context, e, p)
	if err != nil {
		return err
	}
	if _, err := dir.MarkApplied(p.id, out.Artifact, now); err != nil {
		return fmt.Errorf("applied %s, but could not record it in the pending item: %w", p.id, err)
	}
	return printApply(c, e, p.id, out)
}

func runRemember(c *cli.Context, e *app.Env) error {
	if c.IsSet("task") {
		if err := checkpoint.CheckLabel("task", c.String("task")); err != nil {
			return err
		}
	}
	text, err := app.ReadText(e, c.Args().Slice(), c.String("file"))
	if err != nil {
		return err
	}
	findings := scan.Text(string(text))
	p := promotion{
		id:       pending.TextHash(string(text)),
		artifact: recall.Artifact{Kind: "note", Source: "remember", Task: c.String("task"), Text: text},
	}
	if err := refuseFlagged(c, "the note", len(findings)); err != nil {
		app.WarnFindings(e, "", findings, len(text))
		return err
	}
	if !c.Bool("apply") {
		return preview(c, e, p)
	}
	out, _, err := apply(c.Context, e, p)
	if err != nil {
		return err
	}
	return printApply(c, e, "note", out)
}
