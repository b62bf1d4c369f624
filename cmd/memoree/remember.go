package main

// Promotion: remember, pending preview and pending apply share one path. The text is scanned, compiled into
// claims by the claim compiler, and either shown (preview: nothing is written, no store is created) or stored
// as one artifact with its claims in one transaction (apply).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/compiler"
	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/journal"
	"github.com/memoree/memoree/pending"
	"github.com/memoree/memoree/recall"
	"github.com/memoree/memoree/scan"
)

var (
	applyFlag     = &cli.BoolFlag{Name: "apply", Usage: "store the note and its claims", DisableDefaultText: true}
	keepOldFlag   = &cli.BoolFlag{Name: "keep-old", Usage: "supersede no stored claim, whatever preview listed", DisableDefaultText: true}
	supersedeFlag = &cli.StringSliceFlag{Name: "supersede", Usage: "supersede the stored claim `ID` (repeatable) instead of those preview listed"}
)

// supersessionHelp is what remember, preview and apply say about supersession.
const supersessionHelp = `Under each new claim, preview lists the stored claims it would supersede: the same statement
with another value (a region, a version, a threshold, an owner), at most two words changed; the same value
of another subject ("staging" and "production" in us-east-1) is not listed. Apply
supersedes exactly those; --keep-old supersedes none, and --supersede ID names others by hand. A superseded claim stays as
history: recall and context build leave it out unless given --history, and 'memoree undo' lifts it.`

func rememberCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "remember",
		Usage:     "compile a note into claims; with --apply, store it in long-term memory",
		ArgsUsage: "(- | --file PATH | TEXT...)",
		Description: withDoc(`Without --apply, prints the claims the note would give and writes nothing. With --apply, stores
the note as an artifact and its claims in one transaction, and says how many claims are new and how
many were already known (known claims gain evidence, not duplicates). The input is checked as
checkpoint checks it (UTF-8, not blank, at most 64 KiB), but stored whole: the 4 KiB cut is for staged
checkpoints, and a note given to remember is the reviewed text itself. A note the scan flags is refused
(exit 3) unless --allow-flagged, and one applied with it stays marked flagged in the store.

`+supersessionHelp,
			`echo 'We deploy from the release branch only.' | memoree remember -
echo 'We deploy from the release branch only.' | memoree remember --apply -`),
		Flags:  []cli.Flag{fileFlag, taskFlag, applyFlag, keepOldFlag, supersedeFlag, allowFlaggedFlag, jsonFlag},
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
	Text     string        `json:"text_sha256"` // the SHA-256 of the text previewed: what pending apply --expect pins
	Compiler string        `json:"compiler"`
	Claims   []claimJSON   `json:"claims"`
	Skipped  []skippedJSON `json:"skipped"`
}

type claimJSON struct {
	Text       string          `json:"text"`
	Context    string          `json:"context"` // task, headings, label or list intro the claim sits under, " > "-joined; "" when none
	Kind       string          `json:"kind"`
	Start      int             `json:"start"`
	End        int             `json:"end"`
	Known      bool            `json:"known"`
	Supersedes []supersedeJSON `json:"supersedes"` // stored claims apply would supersede
}

// supersedeJSON is a stored claim a new one would supersede.
type supersedeJSON struct {
	ClaimID  int64  `json:"claim_id"`
	Text     string `json:"text"` // "" when the claim is flagged: its text may be a secret
	Created  string `json:"created"`
	Artifact string `json:"artifact"`
	Flagged  bool   `json:"flagged"`
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
	cands := make([][]recall.Candidate, len(res.Claims))
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
		if cands, err = st.Candidates(c.Context, recall.ClaimsOf(res)); err != nil {
			return err
		}
	}
	out := previewJSON{ID: p.id, Text: pending.TextHash(string(p.artifact.Text)), Compiler: res.Compiler, Claims: []claimJSON{},
		Skipped: []skippedJSON{}}
	for i, cl := range res.Claims {
		j := claimJSON{cl.Text, cl.Context, cl.Kind, cl.Spans[0].Start, cl.Spans[0].End, known[cl.Key], []supersedeJSON{}}
		for _, cd := range cands[i] {
			text := cd.Text
			if cd.Flagged {
				text = ""
			}
			j.Supersedes = append(j.Supersedes, supersedeJSON{cd.ClaimID, text, rfc3339(cd.Created), cd.Artifact, cd.Flagged})
		}
		out.Claims = append(out.Claims, j)
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
	// Built first and written at once, so that a failed write is reported whatever line it hits.
	var w strings.Builder
	id := p.id
	if len(id) == 64 {
		id = "note " + id[:12]
	}
	fmt.Fprintf(&w, "preview %s (text %s, compiler %s): %d claim(s), %d new, %d known; %d skipped; nothing written\n",
		id, out.Text[:12], res.Compiler, len(out.Claims), len(out.Claims)-nKnown, nKnown, len(out.Skipped))
	for _, cl := range out.Claims {
		state := "new"
		if cl.Known {
			state = "known"
		}
		fmt.Fprintf(&w, "claim\t%s\t%s\t%d-%d\t%s%s\n", cl.Kind, state, cl.Start, cl.End, escape.Label(cl.Text), contextSuffix(cl.Context))
		for _, sd := range cl.Supersedes {
			text := escape.Label(sd.Text)
			if sd.Flagged {
				text = "(flagged: text not shown)"
			}
			fmt.Fprintf(&w, "  supersedes\t%d\t%s\t%s\t%s\n", sd.ClaimID, shortHash(sd.Artifact), sd.Created, text)
		}
	}
	for _, s := range out.Skipped {
		fmt.Fprintf(&w, "skip\t%s\t%s\n", s.Reason, escape.Label(s.Text))
	}
	_, err = io.WriteString(e.stdout, w.String())
	return err
}

// applyJSON is the --json shape of pending apply and remember --apply.
type applyJSON struct {
	ID          string             `json:"id"`
	Artifact    string             `json:"artifact"`
	Compiler    string             `json:"compiler"`
	NewClaims   int                `json:"new_claims"`
	KnownClaims int                `json:"known_claims"`
	NewEvidence int                `json:"new_evidence"`
	NoOp        bool               `json:"no_op"`
	Flagged     bool               `json:"flagged"`    // applied with --allow-flagged: its claims stay marked
	Superseded  []supersessionJSON `json:"superseded"` // stored claims this apply superseded
	Revived     []int64            `json:"revived"`    // superseded claims the note states again, current again
	Record      int64              `json:"record"`     // the undo record; 0 for a no-op
}

// supersessionJSON is one supersession an apply made: old is now history, replaced by new.
type supersessionJSON struct {
	Old int64 `json:"old"`
	New int64 `json:"new"`
}

// applyOptions returns the supersession an apply makes, from --keep-old and --supersede.
func applyOptions(c *cli.Context) (recall.ApplyOptions, error) {
	ids := supersedeFlag.Get(c)
	switch {
	case keepOldFlag.Get(c) && len(ids) > 0:
		return recall.ApplyOptions{}, usagef("--keep-old supersedes nothing, --supersede names claims: give one of them")
	case keepOldFlag.Get(c):
		return recall.ApplyOptions{Supersede: recall.SupersedeNone}, nil
	case len(ids) > 0:
		opt := recall.ApplyOptions{Supersede: recall.SupersedeIDs}
		for _, s := range ids {
			id, err := strconv.ParseInt(strings.TrimPrefix(s, "claim:"), 10, 64)
			if err != nil || id <= 0 {
				return opt, usagef("--supersede %q is not a claim ID: give the number recall --json shows as claim_id", s)
			}
			opt.IDs = append(opt.IDs, id)
		}
		return opt, nil
	}
	return recall.ApplyOptions{Supersede: recall.SupersedeListed}, nil
}

// apply compiles the text and stores it with its claims in one transaction, at time now, superseding what opt
// says. Applying the same text again changes nothing and says so.
func apply(ctx context.Context, e *env, p promotion, now time.Time, opt recall.ApplyOptions) (_ applyJSON, err error) {
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
	r, err := st.ApplyWith(ctx, p.artifact, recall.ClaimsOf(res), now, opt)
	if errors.Is(err, recall.ErrNoClaim) || errors.Is(err, recall.ErrSuperseded) || errors.Is(err, recall.ErrStated) {
		// The one mistake is the --supersede ID: nothing was written, and the note is named on the command line.
		return applyJSON{}, usagef("%v: --supersede takes the ID of a current stored claim, as 'memoree recall --json' shows", err)
	}
	if err != nil {
		return applyJSON{}, fmt.Errorf("apply %s: %w", p.id, err)
	}
	out := applyJSON{
		ID: p.id, Artifact: r.Artifact, Compiler: res.Compiler, NewClaims: r.NewClaims,
		KnownClaims: r.KnownClaims, NewEvidence: r.NewEvidence, NoOp: r.NoOp(), Flagged: p.artifact.Flagged,
		Superseded: []supersessionJSON{}, Revived: nonNil(r.Revived), Record: r.Record,
	}
	for _, s := range r.Superseded {
		out.Superseded = append(out.Superseded, supersessionJSON{s.Old, s.New})
	}
	return out, nil
}

// recordApply journals an apply that stored something.
func recordApply(e *env, now time.Time, p promotion, out applyJSON, findings int) {
	if out.NoOp {
		return
	}
	session, checkpoint := p.artifact.Session, ""
	if p.artifact.Kind == "checkpoint" {
		checkpoint = p.id
	}
	entries := []journal.Entry{{Time: now, Op: journal.Applied, Session: session, Checkpoint: checkpoint, Artifact: out.Artifact,
		NewClaims: out.NewClaims, KnownClaims: out.KnownClaims, Bytes: int64(len(p.artifact.Text)), Compiler: out.Compiler,
		Findings: findings, Target: out.Record}}
	if len(out.Superseded) > 0 {
		entries = append(entries, journal.Entry{Time: now, Op: journal.Superseded, Artifact: out.Artifact, Claims: len(out.Superseded), Target: out.Record})
	}
	// The apply and its supersessions are journalled together: one write and one sync.
	e.record(entries...)
}

// printApply reports an apply; name is what the human view calls the text ("note" or the checkpoint ID).
func printApply(c *cli.Context, e *env, name string, out applyJSON) error {
	var err error
	switch {
	case jsonFlag.Get(c):
		err = e.printJSON(out)
	case out.NoOp:
		_, err = fmt.Fprintf(e.stdout, "already applied %s as artifact %s: nothing new\n", name, out.Artifact[:12])
	default:
		superseded := ""
		if n := len(out.Superseded); n > 0 {
			superseded = fmt.Sprintf("; superseded %d stored claim(s)", n)
		}
		_, err = fmt.Fprintf(e.stdout, "applied %s as artifact %s: %d new claim(s), %d known%s\n",
			name, out.Artifact[:12], out.NewClaims, out.KnownClaims, superseded)
	}
	return printedError("applied "+name+" as artifact "+out.Artifact[:12], err)
}

// itemPromotion returns a pending checkpoint as a promotion, with its findings, or a refusal when it is
// flagged.
func itemPromotion(c *cli.Context, it pending.Item) (promotion, []scan.Finding, error) {
	p := promotion{
		id: it.ID,
		artifact: recall.Artifact{
			Kind: "checkpoint", Source: "pending:" + it.ID, Session: it.Session, Task: it.Task, Text: []byte(it.Text),
		},
	}
	for _, r := range it.Refs {
		p.artifact.Refs = append(p.artifact.Refs, recall.Ref{Key: r.Key, Value: r.Value})
	}
	// Scan again: the rules may have grown since the checkpoint was staged, and nothing they now catch may
	// reach the store unreviewed.
	findings := scan.Text(it.Text)
	if it.Flagged && len(findings) == 0 {
		findings = it.Findings
	}
	p.artifact.Flagged = len(findings) > 0
	return p, findings, refuseFlagged(c, "checkpoint "+it.ID, findings)
}

func runPendingPreview(c *cli.Context, e *env) error {
	it, err := pendingItem(c, e)
	if err != nil {
		return err
	}
	p, _, err := itemPromotion(c, it)
	if err != nil {
		return err
	}
	return preview(c, e, p)
}

// runPendingApply stores the checkpoint and records the apply as one decision: the checkpoint's lock is held
// from reading its text to recording the apply, so a drop or a replacement racing it waits, and the outcome
// is either applied and recorded, or nothing stored.
func runPendingApply(c *cli.Context, e *env) error {
	dir, id, err := pendingID(c, e)
	if err != nil {
		return err
	}
	defer dir.Close()
	opt, err := applyOptions(c)
	if err != nil {
		return err
	}
	// One clock for the artifact's creation and the pending item's record of it.
	now, err := e.now()
	if err != nil {
		return err
	}
	expect := strings.ToLower(expectFlag.Get(c))
	if c.IsSet(expectFlag.Name) && recall.CheckPrefix(expect) != nil {
		return usagef("--expect %q: give 4 to 64 hex digits of the text's SHA-256, as preview prints after 'text'",
			expectFlag.Get(c))
	}
	var out applyJSON
	var p promotion
	var findings []scan.Finding
	it, err := dir.Apply(id, now, func(it pending.Item) (string, error) {
		// Checked under the checkpoint's lock: the text stored is the text read here.
		if expect != "" {
			if got := pending.TextHash(it.Text); !strings.HasPrefix(got, expect) {
				return "", fmt.Errorf("%s changed since it was reviewed: its text is now %s, not %s; preview it again (nothing applied)",
					it.ID, got[:12], expect)
			}
		}
		if p, findings, err = itemPromotion(c, it); err != nil {
			return "", err
		}
		out, err = apply(c.Context, e, p, now, opt)
		return out.Artifact, err
	})
	if err != nil {
		return namedBySession(c, err)
	}
	recordApply(e, now, p, out, len(findings))
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
	warnFindings(e, "", findings, len(text))
	if err := refuseFlagged(c, "the note", findings); err != nil {
		return err
	}
	p.artifact.Flagged = len(findings) > 0
	if !applyFlag.Get(c) {
		if keepOldFlag.Get(c) || len(supersedeFlag.Get(c)) > 0 {
			return usagef("--keep-old and --supersede go with --apply")
		}
		return preview(c, e, p)
	}
	opt, err := applyOptions(c)
	if err != nil {
		return err
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	out, err := apply(c.Context, e, p, now, opt)
	if err != nil {
		return err
	}
	recordApply(e, now, p, out, len(findings))
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
