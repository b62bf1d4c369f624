package main

// Correcting memory: forget, undo and redo. Each changes the store in one transaction and records what it
// did in the journal.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/journal"
	"github.com/memoree/memoree/pending"
	"github.com/memoree/memoree/recall"
)

var (
	dryRunFlag = &cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "list what would go; change nothing", DisableDefaultText: true}
	purgeFlag  = &cli.BoolFlag{Name: "purge", Usage: "keep no copy, not even for undo: for a secret applied by mistake", DisableDefaultText: true}
)

func forgetCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "forget",
		Usage:     "remove claims, or whole artifacts with their claims, from the recall store",
		ArgsUsage: "ID...",
		Description: withDoc(`Each ID is a claim ID (42 or claim:42, as recall --json shows) or an artifact hash prefix of at
least 4 hex digits (3f2a or artifact:3f2a). A claim goes with all its evidence; an artifact with its
file and every claim that no other artifact supports. Forgotten text survives nowhere in the store:
rows are deleted securely, the full-text indexes rebuilt, the database rewritten and its log emptied.
Once the forget has committed, an interrupt waits for that to finish; if the process is killed
meanwhile, the next command that writes to the store finishes it (commands that only read cannot).

forget can be undone ('memoree undo'): the undo record keeps a copy. --purge keeps none, so the text is
gone for good, and removes every other undo record that holds text or names the purged rows, and the
older ones that depend on those (an apply whose note an earlier forget removed): it is the way to remove a
secret applied with --allow-flagged. An undo keeps the text it took out so that redo can put it back,
until the next store operation: --purge also takes the hash of an artifact only that copy holds, and
deletes it. A pending checkpoint the text came from is not touched: the output
names it, for 'memoree pending drop'. Forgetting a claim by ID leaves its artifact, which still holds the text:
forget the artifact too, as the hint says. Nothing is removed unless every ID names something.`, `memoree forget --dry-run 3f2a
memoree forget 42 57
memoree forget --purge artifact:3f2a1b9c`),
		Flags:  []cli.Flag{dryRunFlag, purgeFlag, jsonFlag},
		Action: func(c *cli.Context) error { return runForget(c, e) },
	}
}

// forgetJSON is the --json shape of forget.
type forgetJSON struct {
	DryRun    bool                 `json:"dry_run"`
	Purged    bool                 `json:"purged"`
	Record    int64                `json:"record"` // the undo record, 0 for a dry run or a purge
	Claims    []forgotClaimJSON    `json:"claims"`
	Artifacts []forgotArtifactJSON `json:"artifacts"`
	Evidence  int                  `json:"evidence"`
	Bytes     int64                `json:"bytes"`
	Revived   []int64              `json:"revived"`  // claims current again: what they superseded is gone
	StillIn   []string             `json:"still_in"` // artifacts kept that still hold a forgotten claim's text
	// RedoDropped: artifacts an undo had taken out, whose copy kept for redo --purge deleted
	RedoDropped []string `json:"redo_dropped"`
}

type forgotClaimJSON struct {
	ClaimID int64  `json:"claim_id"`
	Text    string `json:"text"` // "" for a flagged claim: its text may be a secret
	Kind    string `json:"kind"`
	Created string `json:"created"`
	Flagged bool   `json:"flagged"`
}

type forgotArtifactJSON struct {
	Artifact string `json:"artifact"`
	Kind     string `json:"kind"`
	Session  string `json:"session"`
	Task     string `json:"task"`
	Created  string `json:"created"`
	Bytes    int    `json:"bytes"`
	Flagged  bool   `json:"flagged"`
}

func runForget(c *cli.Context, e *env) error {
	ids := c.Args().Slice()
	if len(ids) == 0 {
		return usagef("forget takes the claim IDs or artifact hash prefixes to remove")
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	dir, exists, err := upkeepDir(e)
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("forget %s: %w", strings.Join(ids, " "), errNoStore)
	}
	dry := dryRunFlag.Get(c)
	opt := recall.ForgetOptions{DryRun: dry, Purge: purgeFlag.Get(c), Now: now}
	var res recall.ForgetResult
	if dry {
		// A dry run reads only: on a read-only store, so that it touches no file.
		var st *recall.Store
		if st, err = queryStore(e); err == nil {
			res, err = st.Forget(c.Context, ids, opt)
		}
	} else {
		err = withStore(dir, func(st *recall.Store) (err error) {
			res, err = st.Forget(c.Context, ids, opt)
			return err
		})
	}
	var ae *recall.AmbiguousError
	var ate *recall.AmbiguousTargetError
	if errors.Is(err, recall.ErrTarget) || errors.As(err, &ae) || errors.As(err, &ate) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	if !dry {
		e.record(journal.Entry{Time: now, Op: journal.Forgot, Claims: len(res.Claims), Artifacts: len(res.Artifacts),
			Bytes: res.Bytes, Purge: res.Purged, Target: res.Record})
	}
	out := forgetJSON{DryRun: dry, Purged: res.Purged, Record: res.Record, Claims: []forgotClaimJSON{},
		Artifacts: []forgotArtifactJSON{}, Evidence: res.Evidence, Bytes: res.Bytes, Revived: nonNil(res.Revived),
		StillIn: nonNil(res.StillIn), RedoDropped: nonNil(res.RedoDropped)}
	for _, cl := range res.Claims {
		text := cl.Text
		if cl.Flagged {
			text = "" // it may be the secret being removed: never print it
		}
		out.Claims = append(out.Claims, forgotClaimJSON{cl.ID, text, cl.Kind, rfc3339(cl.Created), cl.Flagged})
	}
	for _, a := range res.Artifacts {
		out.Artifacts = append(out.Artifacts, forgotArtifactJSON{a.Hash, a.Kind, a.Session, a.Task, rfc3339(a.Created), a.Bytes, a.Flagged})
	}
	if len(out.StillIn) > 0 {
		short := make([]string, len(out.StillIn))
		for i, h := range out.StillIn {
			short[i] = shortHash(h)
		}
		e.hintf("the text of a forgotten claim is still in artifact(s) %s: forget those too to remove it entirely", strings.Join(short, ", "))
	}
	if ids := pendingHolding(e, out.Artifacts); len(ids) > 0 {
		e.hintf("pending checkpoint(s) %s still hold the text of a forgotten artifact: 'memoree pending drop %s' removes them",
			strings.Join(ids, ", "), strings.Join(ids, " "))
	}
	if jsonFlag.Get(c) {
		if dry {
			return e.printJSON(out)
		}
		return printedError("forgot", e.printJSON(out))
	}
	var b strings.Builder
	verb := "forgot"
	if dry {
		verb = "would forget"
	}
	fmt.Fprintf(&b, "%s %d claim(s) and %d artifact(s) (%d bytes)", verb, len(out.Claims), len(out.Artifacts), out.Bytes)
	switch {
	case dry:
		b.WriteString("; nothing changed\n")
	case out.Purged:
		b.WriteString("; purged: no copy kept, cannot be undone\n")
	default:
		b.WriteString("; 'memoree undo' puts them back\n")
	}
	for _, cl := range out.Claims {
		text := escape.Label(cl.Text)
		if cl.Flagged {
			text = "(flagged: text not shown)"
		}
		fmt.Fprintf(&b, "claim\t%d\t%s\t%s\n", cl.ClaimID, cl.Kind, text)
	}
	for _, a := range out.Artifacts {
		fmt.Fprintf(&b, "artifact\t%s\t%s\t%d bytes\n", shortHash(a.Artifact), a.Kind, a.Bytes)
	}
	for _, h := range out.RedoDropped {
		what := "its copy kept for redo is deleted: redo cannot bring it back"
		if dry {
			what = "its copy kept for redo would be deleted"
		}
		fmt.Fprintf(&b, "undone\t%s\t%s\n", shortHash(h), what)
	}
	for _, id := range out.Revived {
		fmt.Fprintf(&b, "revived\t%d\tcurrent again: the claim that superseded it is forgotten\n", id)
	}
	_, err = fmt.Fprint(e.stdout, b.String())
	return printedError(verb, err)
}

// pendingHolding returns the IDs of the pending checkpoints whose text is one of arts: forget removes it from
// the store, and only 'pending drop' from the pending directory. It creates no pending directory, and a
// directory it cannot read is a warning, not a failure of the forget.
func pendingHolding(e *env, arts []forgotArtifactJSON) []string {
	if len(arts) == 0 {
		return nil
	}
	d, err := openPendingIfAny(e)
	if err != nil || d == nil {
		if err != nil {
			e.warnf("could not check the pending checkpoints for the forgotten text: %v", err)
		}
		return nil
	}
	defer d.Close()
	items, err := d.List()
	if err != nil {
		e.warnf("could not check the pending checkpoints for the forgotten text: %v", err)
		return nil
	}
	gone := map[string]bool{}
	for _, a := range arts {
		gone[a.Artifact] = true
	}
	var ids []string
	for _, it := range items {
		if gone[pending.TextHash(it.Text)] {
			ids = append(ids, it.ID)
		}
	}
	return ids
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func undoCommand(e *env, redo bool) *cli.Command {
	name, usage, desc, examples := "undo", "undo the newest store operation that is not undone yet",
		`Undoes the newest apply, remember --apply, forget, supersession, import or reindex that is not undone
yet: an apply's undo removes exactly what it added (claims first seen in it, evidence it added to
claims known before) and lifts the supersessions it made; a forget's undo puts back what it removed,
unless it was purged. Each undo can be redone ('memoree redo') until another operation changes the
store; until then the store keeps a copy of what the undo took out, which 'memoree forget --purge HASH'
deletes (for a secret applied by mistake).`, "memoree undo\nmemoree undo --json"
	if redo {
		name, usage, desc, examples = "redo", "redo the operation the newest undo took back",
			`Redoes what the newest undo took back. A new store operation after an undo clears what there was
to redo.`, "memoree undo && memoree redo"
	}
	return &cli.Command{
		Name:        name,
		Usage:       usage,
		ArgsUsage:   " ",
		Description: withDoc(desc, examples),
		Flags:       []cli.Flag{jsonFlag},
		Action:      func(c *cli.Context) error { return runUndo(c, e, redo) },
	}
}

// undoJSON is the --json shape of undo and redo.
type undoJSON struct {
	Record    int64  `json:"record"`
	Op        string `json:"op"`      // the operation undone or redone: apply, forget, supersede, import, reindex
	Created   string `json:"created"` // when that operation ran
	Artifacts int    `json:"artifacts"`
	Claims    int    `json:"claims"`
	Evidence  int    `json:"evidence"`
	Lifted    int    `json:"lifted"`   // supersessions lifted
	Restored  int    `json:"restored"` // supersessions put back
}

func runUndo(c *cli.Context, e *env, redo bool) error {
	if c.NArg() != 0 {
		return usagef("%s takes no arguments", c.Command.Name)
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	dir, exists, err := upkeepDir(e)
	if err != nil {
		return err
	}
	if !exists {
		if redo {
			return recall.ErrNothingToRedo
		}
		return recall.ErrNothingToUndo
	}
	var res recall.UndoResult
	err = withStore(dir, func(st *recall.Store) (err error) {
		if redo {
			res, err = st.Redo(c.Context)
		} else {
			res, err = st.Undo(c.Context)
		}
		return err
	})
	if err != nil {
		return err
	}
	op, verb := journal.Undone, "undid"
	if redo {
		op, verb = journal.Redone, "redid"
	}
	e.record(journal.Entry{Time: now, Op: op, Claims: res.Claims, Artifacts: res.Artifacts, Target: res.Record})
	out := undoJSON{res.Record, res.Op, rfc3339(res.Created), res.Artifacts, res.Claims, res.Evidence, res.Lifted, res.Restored}
	if jsonFlag.Get(c) {
		return printedError(verb+" "+out.Op, e.printJSON(out))
	}
	_, err = fmt.Fprintf(e.stdout, "%s %s of %s (record %d): %d artifact(s), %d claim(s), %d evidence span(s), %d supersession(s) lifted, %d put back\n",
		verb, out.Op, out.Created, out.Record, out.Artifacts, out.Claims, out.Evidence, out.Lifted, out.Restored)
	return printedError(verb+" "+out.Op, err)
}
