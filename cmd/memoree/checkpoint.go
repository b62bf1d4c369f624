package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/checkpoint"
	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/internal/gitref"
	"github.com/memoree/memoree/journal"
	"github.com/memoree/memoree/pending"
	"github.com/memoree/memoree/recall"
	"github.com/memoree/memoree/scan"
)

var (
	checkpointSessionFlag = &cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "session `ID` (default: $MEMOREE_SESSION)"}
	checkpointTaskFlag    = &cli.StringFlag{Name: "task", Aliases: []string{"t"}, Usage: "task `LABEL` (kept from the earlier checkpoint when not given)"}
	quietFlag             = &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing on success (warnings still go to stderr)", DisableDefaultText: true}
	refFlag               = &cli.StringSliceFlag{Name: "ref", Aliases: []string{"r"}, Usage: "record a provenance reference `KEY=VALUE` (repeatable): window=W12, item=I-3481, issue=FW-233"}
	noGitFlag             = &cli.BoolFlag{Name: "no-git", Usage: "do not record the git commit and branch of the working directory", DisableDefaultText: true}
)

func checkpointCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "checkpoint",
		Usage:     "stage a continuity note for the session (one per session; a later one replaces it)",
		ArgsUsage: "(- | --file PATH | TEXT...)",
		Description: withDoc(`Stages the note as the pending checkpoint of the session, quarantined until a person reviews
it. Input is UTF-8, at most 64 KiB; at most 4096 bytes are stored, cut with a truncation marker.
A note that looks like it holds a secret, or an instruction aimed at the agent, is still staged,
with a warning, and stays flagged. A session ID, task or ref value that the scan flags is refused
(exit 2): they are shown and stored unquarantined. Replacing a checkpoint that was never applied says
so on stderr.

--ref records what the note relies on (the context window, the work items and issues, by ID), so
that an agent that rolls over can find them again; inside a git work tree, the commit and branch are
recorded too (read from .git, without running git), unless --no-git; one that a ref may not hold
(over 256 bytes, not printable, or flagged by the scan) is left out with a warning. Refs travel with
the note into the store on apply, and recall and context build filter by them.`,
			`printf '%s' 'Storage recall is implemented; next verify the regression corpus.' |
  memoree checkpoint --session S1 --task retrieval -
memoree checkpoint --session S1 --file notes.md --json
MEMOREE_SESSION=S1 memoree checkpoint -- '-v is the verbose flag now'
memoree checkpoint -s S1 --ref window=W12 --ref item=I-3481 --file handoff.md`),
		Flags:  []cli.Flag{checkpointSessionFlag, checkpointTaskFlag, fileFlag, refFlag, noGitFlag, quietFlag, jsonFlag},
		Action: func(c *cli.Context) error { return runCheckpoint(c, e) },
	}
}

// checkpointJSON is the --json shape of a staged checkpoint: the item as 'pending list' shows it, with every
// finding of the input (also those past the cut, marked not stored) and what it replaced.
type checkpointJSON struct {
	itemJSON
	Replaced          bool    `json:"replaced"`
	ReplacedUnapplied *string `json:"replaced_unapplied"` // update time of the unapplied text it replaced, or null
}

// sessionArg returns the session a command names with flag, else $MEMOREE_SESSION, checked. required says
// whether a command needs one at all.
func sessionArg(c *cli.Context, e *env, flag *cli.StringFlag, required bool) (string, error) {
	session := flag.Get(c)
	if !c.IsSet(flag.Name) {
		session = e.getenv("MEMOREE_SESSION")
		if session == "" {
			if required {
				return "", usagef("no session: give --session ID or set MEMOREE_SESSION")
			}
			return "", nil
		}
	}
	if err := checkpoint.CheckLabel("session ID", session); err != nil {
		return "", err
	}
	return session, nil
}

// optionalLabel returns the value of a label flag such as --task, checked when given.
func optionalLabel(c *cli.Context, what string, flag *cli.StringFlag) (string, error) {
	if !c.IsSet(flag.Name) {
		return "", nil
	}
	v := flag.Get(c)
	return v, checkpoint.CheckLabel(what, v)
}

func runCheckpoint(c *cli.Context, e *env) error {
	session, err := sessionArg(c, e, checkpointSessionFlag, true)
	if err != nil {
		return err
	}
	task, err := optionalLabel(c, "task", checkpointTaskFlag)
	if err != nil {
		return err
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	text, err := readText(c.Context, e, c.Args().Slice(), fileFlag.Get(c))
	if err != nil {
		return err
	}
	refs, err := checkpointRefs(c, e)
	if err != nil {
		return err
	}
	staged := checkpoint.Stage(session, task, text)
	staged.Note.Refs = refs
	dir, err := openPending(e)
	if err != nil {
		return err
	}
	defer dir.Close()
	it, prev, err := dir.Put(staged.Note, now)
	if err != nil {
		return err
	}
	warnFindings(e, it.ID, staged.Findings, staged.Kept)
	op := journal.Staged
	if prev != nil {
		op = journal.Replaced
	}
	e.record(journal.Entry{Time: now, Op: op, Session: session, Checkpoint: it.ID, Bytes: int64(it.Bytes)})
	if it.Flagged {
		e.record(journal.Entry{Time: now, Op: journal.Flagged, Session: session, Checkpoint: it.ID, Findings: len(it.Findings)})
	}
	var replacedUnapplied *string
	held := applies{}
	if prev != nil && prev.Applied != nil {
		// Only a replaced checkpoint that was applied asks the store: did an undo or a forget take it out?
		held = heldApplies(c.Context, e, *prev, it)
	}
	if prev != nil && held.unapplied(*prev) && prev.Text != it.Text {
		t := rfc3339(prev.Updated)
		replacedUnapplied = &t
		if held.removed(*prev) {
			e.warnf("replaced a checkpoint staged at %s whose applied text the store no longer holds: it is in no memory and is gone", t)
		} else {
			e.warnf("replaced an unapplied checkpoint staged at %s: its text was never applied and is gone", t)
		}
	}
	done := "staged " + it.ID
	if jsonFlag.Get(c) {
		out := checkpointJSON{newItemJSON(it, held), prev != nil, replacedUnapplied}
		out.Findings = findingsJSON(staged.Findings, staged.Kept)
		return printedError(done, e.printJSON(out))
	}
	if quietFlag.Get(c) {
		return nil
	}
	verb := "staged"
	if prev != nil {
		verb = "replaced"
	}
	detail := ""
	if it.Truncated {
		detail = fmt.Sprintf(", truncated from %d", len(text))
	}
	if it.Flagged {
		detail += ", flagged"
	}
	_, err = fmt.Fprintf(e.stdout, "%s %s (session %s, %d bytes%s)\n", verb, it.ID, escape.Label(session), it.Bytes, detail)
	return printedError(done, err)
}

// checkpointRefs returns the refs a checkpoint records: --ref, checked, then the git commit and branch of
// the working directory unless --no-git or --ref already names them.
func checkpointRefs(c *cli.Context, e *env) ([]pending.Ref, error) {
	var refs []pending.Ref
	given := map[string]bool{}
	for _, s := range refFlag.Get(c) {
		r, err := recall.ParseRef(s)
		if err == nil {
			err = checkpoint.CheckPlain("its value", r.Value)
		}
		if err != nil {
			return nil, usagef("--ref: %v", err)
		}
		refs = append(refs, pending.Ref{Key: r.Key, Value: r.Value})
		given[r.Key] = true
	}
	if noGitFlag.Get(c) {
		return refs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return refs, nil
	}
	info, err := gitref.Read(wd)
	if err != nil {
		// Not in a work tree, or one memoree cannot read: there is nothing to record, and the note matters more.
		return refs, nil
	}
	for _, r := range []pending.Ref{{Key: "commit", Value: info.Commit}, {Key: "branch", Value: info.Branch}} {
		if r.Value == "" || given[r.Key] {
			continue
		}
		// Git allows names a ref may not hold (longer than 256 bytes, emoji joiners), and a branch may be named
		// after a token: such a ref, which apply would refuse or the store would show unquarantined, is left
		// out, and the note staged without it.
		_, err := recall.ParseRef(r.Key + "=" + r.Value)
		if err == nil {
			err = checkpoint.CheckPlain("its value", r.Value)
		}
		if err != nil {
			e.warnf("the git %s is not recorded: a ref's value must be 1 to 256 bytes of printable text that the scan does not flag; "+
				"give --ref %s=VALUE to record another", r.Key, r.Key)
			continue
		}
		refs = append(refs, r)
	}
	return refs, nil
}

// warnFindings tells on stderr what the scan found, with redacted previews only. kept is how many bytes of the
// input were stored: findings past it are reported as not stored. With a checkpoint id, it also says that the
// checkpoint is flagged.
func warnFindings(e *env, id string, findings []scan.Finding, kept int) {
	flagged := false
	for _, f := range findings {
		where := ""
		if checkpoint.Stored(f, kept) {
			flagged = true
		} else {
			where = " (past the 4 KiB cut, not stored)"
		}
		e.warnf("%s (%s) at line %d, column %d: %s%s", f.Concern(), f.Rule, f.Line, f.Column, escape.Label(f.Preview), where)
	}
	if flagged && id != "" {
		e.warnf("checkpoint %s is flagged: pending preview and apply will refuse it unless given --allow-flagged", id)
	}
}

// openPending opens the pending directory inside the data directory.
func openPending(e *env) (*pending.Dir, error) {
	data, err := e.dataDir()
	if err != nil {
		return nil, err
	}
	return pending.Open(filepath.Join(data, "pending"))
}

// openPendingIfAny is [openPending] for a command that only reads or sweeps checkpoints: it returns nil, and
// creates nothing, when there is no pending directory.
func openPendingIfAny(e *env) (*pending.Dir, error) {
	data, err := e.dataDir()
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(filepath.Join(data, "pending")); err != nil {
		return nil, nil
	}
	return openPending(e)
}
