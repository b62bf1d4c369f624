package main

// Promotion: remember, pending preview and pending apply share one path. The text is scanned, compiled into
// claims by the claim compiler, and either shown (preview: nothing is written, no store is created) or stored
// as one artifact with its claims in one transaction (apply).

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/compiler"
	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/pending"
	"github.com/memoree/memoree/recall"
	"github.com/memoree/memoree/scan"
)

var applyFlag = &cli.BoolFlag{Name: "apply", Usage: "store the note and its claims", DisableDefaultText: true}

func rememberCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "remember",
		Usage:     "compile a note into claims; with --apply, store it in long-term memory",
		ArgsUsage: "(- | --file PATH | TEXT...)",
		Description: withDoc(`Without --apply, prints the claims the note would give and writes nothing. With --apply, stores
the note as an artifact and its claims in one transaction, and says how many claims are new and how
many were already known (known claims gain evidence, not duplicates). The same input rules as
checkpoint apply; a note the scan flags is refused (exit 3) unless --allow-flagged.`,
			`echo 'We deploy from the release branch only.' | memoree remember -
echo 'We deploy from the release branch only.' | memoree remember --apply -`),
		Flags:  []cli.Flag{fileFlag, taskFlag, applyFlag, allowFlaggedFlag, jsonFlag},
		Action: func(c *cli.Context) error { return runRemember(c, e) },
	}
}

// promotion is one text on its way into the recall store.
type promotion struct {
	id       string // pending ID, or the artifact hash for remember
	artifact recall.Artifact
}

// storeDir returns the recall store's directory in the data directory.
func storeDir(e *env) (string, error) {
	data, err := e.dataDir()
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

// refuseFlagged returns a refusal (exit status 3) unless the note is clean or the user allowed it.
func refuseFlagged(c *cli.Context, what string, findings []scan.Finding) error {
	if len(findings) == 0 || allowFlaggedFlag.Get(c) {
		return nil
	}
	secrets, instructions := 0, 0
	for _, f := range findings {
		if f.Category == scan.CategoryInstruction {
			instructions++
		} else {
			secrets++
		}
	}
	found := fmt.Sprintf("%d possible secret(s)", secrets)
	switch {
	case secrets == 0:
		found = fmt.Sprintf("%d possible instruction(s) to the agent", instructions)
	case instructions > 0:
		found += fmt.Sprintf(" and %d possible instruction(s) to the agent", instructions)
	}
	return flaggedf("%s is flagged: the scan found %s; review it, then rerun with --allow-flagged to promote it anyway", what, found)
}

func compile(p promotion) compiler.Result {
	a := p.artifact
	return compiler.Rules.Compile(string(a.Text), compiler.Source{Kind: a.Kind, Session: a.Session, Task: a.Task})
}

// previewJSON is the --json shape of pending preview and of remember without --apply.
type previewJSON struct {
	ID       string        `json:"id"`
	Compiler string        `json:"compiler"`
	Claims   []claimJSON   `json:"claims"`
	Skipped  []skippedJSON `json:"skipped"`
}

type claimJSON struct {
	Text    string `json:"text"`
	Context string `json:"context"` // headings, label or list intro the claim sits under, " > "-joined; "" when none
	Kind    string `json:"kind"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Known   bool   `json:"known"`
}

type skippedJSON struct {
	Text   string `json:"text"`
	Reason string `json:"reason"`
}

// preview compiles the text and prints what apply would store. It writes nothing: the store is opened read-only
// and only if it exists.
func preview(c *cli.Context, e *env, p promotion) error {
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
		out.Claims = append(out.Claims, claimJSON{cl.Text, cl.Context, cl.Kind, cl.Spans[0].Start, cl.Spans[0].End, known[cl.Key]})
	}
	for _, s := range res.Skipped {
		out.Skipped = append(out.Skipped, skippedJSON{s.Text, s.Reason})
	}
	if jsonFlag.Get(c) {
		return e.printJSON(out)
	}
	nKnown := 0
	for _, cl := range out.Claims {
		if cl.Known {
			nKnown++
		}
	}
	w := e.stdout
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
		fmt.Fprintf(w, "claim\t%s\t%s\t%d-%d\t%s%s\n", cl.Kind, state, cl.Start, cl.End, escape.Label(cl.Text), contextSuffix(cl.Context))
	}
	for _, s := range out.Skipped {
		if _, err := fmt.Fprintf(w, "skip\t%s\t%s\n", s.Reason, escape.Label(s.Text)); err != nil {
			return err
		}
	}
	return nil
}

// applyJSON is the --json shape of pending apply and remember --apply.
type applyJSON struct {
	ID          string `json:"id"`
	Artifact    string `json:"artifact"`
	Compiler    string `json:"compiler"`
	NewClaims   int    `json:"new_claims"`
	KnownClaims int    `json:"known_claims"`
	NewEvidence int    `json:"new_evidence"`
	NoOp        bool   `json:"no_op"`
}

// apply compiles the text and stores it with its claims in one transaction, at time now. Applying the same text
// again changes nothing and says so.
func apply(ctx context.Context, e *env, p promotion, now time.Time) (_ applyJSON, err error) {
	res := compile(p)
	dir, err := storeDir(e)
	if err != nil {
		return applyJSON{}, err
	}
	st, err := recall.Open(dir)
	if err != nil {
		return applyJSON{}, err
	}
	defer closeStore(st, &err)
	r, err := st.Apply(ctx, p.artifact, recall.ClaimsOf(res), now)
	if err != nil {
		return applyJSON{}, fmt.Errorf("apply %s: %w", p.id, err)
	}
	return applyJSON{
		ID: p.id, Artifact: r.Artifact, Compiler: res.Compiler, NewClaims: r.NewClaims,
		KnownClaims: r.KnownClaims, NewEvidence: r.NewEvidence, NoOp: r.NoOp(),
	}, nil
}

// printApply reports an apply; name is what the human view calls the text ("note" or the checkpoint ID).
func printApply(c *cli.Context, e *env, name string, out applyJSON) error {
	var err error
	if jsonFlag.Get(c) {
		err = e.printJSON(out)
	} else if out.NoOp {
		_, err = fmt.Fprintf(e.stdout, "already applied %s as artifact %s: nothing new\n", name, out.Artifact[:12])
	} else {
		_, err = fmt.Fprintf(e.stdout, "applied %s as artifact %s: %d new claim(s), %d known\n",
			name, out.Artifact[:12], out.NewClaims, out.KnownClaims)
	}
	return printedError("applied "+name+" as artifact "+out.Artifact[:12], err)
}

// itemPromotion returns a pending checkpoint as a promotion, or a refusal when it is flagged.
func itemPromotion(c *cli.Context, it pending.Item) (promotion, error) {
	p := promotion{
		id: it.ID,
		artifact: recall.Artifact{
			Kind: "checkpoint", Source: "pending:" + it.ID, Session: it.Session, Task: it.Task, Text: []byte(it.Text),
		},
	}
	// Scan again: the rules may have grown since the checkpoint was staged, and nothing they now catch may
	// reach the store unreviewed.
	findings := scan.Text(it.Text)
	if it.Flagged && len(findings) == 0 {
		findings = it.Findings
	}
	return p, refuseFlagged(c, "checkpoint "+it.ID, findings)
}

func runPendingPreview(c *cli.Context, e *env) error {
	dir, id, err := pendingID(c, e, nil)
	if err != nil {
		return err
	}
	defer dir.Close()
	it, err := dir.Get(id)
	if err != nil {
		return err
	}
	p, err := itemPromotion(c, it)
	if err != nil {
		return err
	}
	return preview(c, e, p)
}

// runPendingApply stores the checkpoint and records the apply as one decision: the checkpoint's lock is held
// from reading its text to recording the apply, so a drop or a replacement racing it waits, and the outcome
// is either applied and recorded, or nothing stored.
func runPendingApply(c *cli.Context, e *env) error {
	dir, id, err := pendingID(c, e, nil)
	if err != nil {
		return err
	}
	defer dir.Close()
	// One clock for the artifact's creation and the pending item's record of it.
	now, err := e.now()
	if err != nil {
		return err
	}
	var out applyJSON
	it, err := dir.Apply(id, now, func(it pending.Item) (string, error) {
		p, err := itemPromotion(c, it)
		if err != nil {
			return "", err
		}
		out, err = apply(c.Context, e, p, now)
		return out.Artifact, err
	})
	if err != nil {
		return err
	}
	return printApply(c, e, it.ID, out)
}

func runRemember(c *cli.Context, e *env) error {
	task, err := optionalLabel(c, "task", taskFlag)
	if err != nil {
		return err
	}
	text, err := readText(c.Context, e, c.Args().Slice(), fileFlag.Get(c))
	if err != nil {
		return err
	}
	findings := scan.Text(string(text))
	p := promotion{
		id:       pending.TextHash(string(text)),
		artifact: recall.Artifact{Kind: "note", Source: "remember", Task: task, Text: text},
	}
	if err := refuseFlagged(c, "the note", findings); err != nil {
		warnFindings(e, "", findings, len(text))
		return err
	}
	if !applyFlag.Get(c) {
		return preview(c, e, p)
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	out, err := apply(c.Context, e, p, now)
	if err != nil {
		return err
	}
	return printApply(c, e, "note", out)
}

// queryStore opens the store for reading, creating nothing; a store that does not exist yet is reported as nil,
// not an error.
//
// Callers leave the store open: the process exits right after the query, and the exit releases the store's
// lock and files; a read-only store has nothing to write back.
func queryStore(e *env) (*recall.Store, error) {
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

// contextSuffix shows a claim's context after its text in the human views: "  [Release plan > Decisions]".
func contextSuffix(context string) string {
	if context == "" {
		return ""
	}
	return "  [" + escape.Label(context) + "]"
}
