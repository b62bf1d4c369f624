package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/checkpoint"
	"github.com/memoree/memoree/internal/age"
	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/journal"
	"github.com/memoree/memoree/pending"
	"github.com/memoree/memoree/recall"
	"github.com/memoree/memoree/scan"
)

// reviewWindow is how long a checkpoint shows in 'pending list' without --all. Older ones are hidden, not deleted.
const reviewWindow = 14 * 24 * time.Hour

var (
	// expectFlag pins the text a reviewer saw: pending apply applies only that text.
	expectFlag      = &cli.StringFlag{Name: "expect", Usage: "apply only if the text's SHA-256 starts with `HASH`, as preview printed it"}
	listAllFlag     = &cli.BoolFlag{Name: "all", Aliases: []string{"a"}, Usage: "include checkpoints older than the review window", DisableDefaultText: true}
	listSessionFlag = &cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "only the checkpoint of session `ID`"}
	// itemSessionFlag names a checkpoint by its session instead of its ID, for every command that takes one.
	itemSessionFlag = &cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "the checkpoint of session `ID`, instead of naming its ID"}
)

func pendingCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "pending",
		Usage: "review staged checkpoints: list, show, preview, apply, drop",
		Description: withDoc(`Checkpoints wait here, quarantined, until they are applied into the recall store or dropped.
Every command that takes an ID accepts a unique prefix of at least 4 hex digits ("ck-" may be left out;
case does not matter), or --session and the session instead.`, `memoree pending list
memoree pending show ck-7f3a
memoree pending preview ck-7f3a
memoree pending apply ck-7f3a
memoree pending drop 7f3a`),
		Subcommands: []*cli.Command{
			{
				Name:      "list",
				Usage:     "list staged checkpoints, newest first, without their text",
				ArgsUsage: " ",
				Description: withDoc(`Lists checkpoints updated within the 14-day review window; --all shows older ones too.
Columns: ID, SESSION, TASK, UPDATED, BYTES, FLAGS (flagged, truncated, applied, changed,
removed: applied, but an undo or a forget took the text out of the store, so it is in no memory).
On a terminal the view is a table with ages; otherwise each line is tab-separated with the
update time in RFC 3339.`, `memoree pending list
memoree pending list --session S1 --json`),
				Flags:  []cli.Flag{listAllFlag, listSessionFlag, jsonFlag},
				Action: func(c *cli.Context) error { return runPendingList(c, e) },
			},
			{
				Name:      "show",
				Usage:     "show a checkpoint's metadata and text",
				ArgsUsage: "(ID | --session ID)",
				Description: withDoc(`Prints the metadata, then the text. Control and invisible format characters are shown
escaped (\x1b, \u200b) so a note cannot drive the terminal or hide text; --json gives the
exact text in a "text" field. --session shows the checkpoint of a session, also one past the
review window: how an agent at a fresh context window reads its own checkpoint back.`, `memoree pending show ck-7f3a
memoree pending show 7f3a --json
memoree pending show --session "$MEMOREE_SESSION"`),
				Flags:  []cli.Flag{itemSessionFlag, jsonFlag},
				Action: func(c *cli.Context) error { return runPendingShow(c, e) },
			},
			{
				Name:      "preview",
				Usage:     "show the claims apply would store; writes nothing",
				ArgsUsage: "(ID | --session ID)",
				Description: withDoc(`Runs the claim compiler on the checkpoint's text and shows each claim with its kind, its
evidence span [start, end) in the text and whether the store already knows it, then the skipped
fragments with the reason. Writes nothing at all, and creates no store. A flagged checkpoint is
refused (exit 3) unless --allow-flagged.

`+supersessionHelp, `memoree pending preview ck-7f3a
memoree pending preview 7f3a --json`),
				Flags:  []cli.Flag{itemSessionFlag, allowFlaggedFlag, jsonFlag},
				Action: func(c *cli.Context) error { return runPendingPreview(c, e) },
			},
			{
				Name:      "apply",
				Usage:     "store the checkpoint as an artifact and its claims in the recall store",
				ArgsUsage: "(ID | --session ID)",
				Description: withDoc(`Runs the same compiler as preview through the same path as 'remember --apply': the exact text
becomes a checkpoint artifact, the evidence of every claim. The pending item stays, marked as
applied, until you drop it; applying the same text again changes nothing and says so. A flagged
checkpoint is refused (exit 3) unless --allow-flagged, and one applied with it stays marked flagged
in the store. Its refs travel with it. The agent may replace the checkpoint while you review it:
--expect HASH, the text hash preview prints, applies it only if its text is still that one.

`+supersessionHelp, `memoree pending apply ck-7f3a --expect 1a2b3c4d
memoree pending apply ck-7f3a
memoree pending apply ck-7f3a --keep-old
memoree pending apply ck-7f3a && memoree pending drop ck-7f3a`),
				Flags:  []cli.Flag{itemSessionFlag, expectFlag, keepOldFlag, supersedeFlag, allowFlaggedFlag, jsonFlag},
				Action: func(c *cli.Context) error { return runPendingApply(c, e) },
			},
			{
				Name:      "drop",
				Usage:     "delete a checkpoint for good",
				ArgsUsage: "(ID | --session ID)",
				Description: withDoc(`Deletes the checkpoint's file. It is the only command that deletes a pending note.`, `memoree pending drop ck-7f3a
memoree pending drop 7f3a --json`),
				Flags:  []cli.Flag{itemSessionFlag, jsonFlag},
				Action: func(c *cli.Context) error { return runPendingDrop(c, e) },
			},
		},
	}
}

// itemJSON is the --json shape of a checkpoint; Text is set only by show.
type itemJSON struct {
	ID            string        `json:"id"`
	Session       string        `json:"session"`
	Task          string        `json:"task"`
	Created       string        `json:"created"`
	Updated       string        `json:"updated"`
	Bytes         int           `json:"bytes"`
	OriginalBytes int           `json:"original_bytes"`
	Truncated     bool          `json:"truncated"`
	Flagged       bool          `json:"flagged"`
	Findings      []findingJSON `json:"findings"`
	Applied       *appliedJSON  `json:"applied"`
	Refs          []refJSON     `json:"refs"`
	Text          *string       `json:"text,omitempty"`
}

// refJSON is a provenance reference in JSON.
type refJSON struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type appliedJSON struct {
	Artifact string `json:"artifact"`
	Time     string `json:"time"`
	Changed  bool   `json:"changed"`
	// Removed is true when the recall store no longer holds the applied text: an undo or a forget took it out.
	Removed bool `json:"removed"`
}

type findingJSON struct {
	Rule     string `json:"rule"`
	Category string `json:"category"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Preview  string `json:"preview"`
	Stored   bool   `json:"stored"`
}

// newItemJSON returns the --json shape of it, without its text.
func newItemJSON(it pending.Item, held applies) itemJSON {
	j := itemJSON{
		ID: it.ID, Session: it.Session, Task: it.Task, Created: rfc3339(it.Created), Updated: rfc3339(it.Updated),
		Bytes: it.Bytes, OriginalBytes: it.OriginalBytes, Truncated: it.Truncated, Flagged: it.Flagged,
		Findings: findingsJSON(it.Findings, it.Bytes), Refs: []refJSON{},
	}
	for _, r := range it.Refs {
		j.Refs = append(j.Refs, refJSON{r.Key, r.Value})
	}
	if it.Applied != nil {
		j.Applied = &appliedJSON{it.Applied.Artifact, rfc3339(it.Applied.Time), it.ChangedSinceApply(), held.removed(it)}
	}
	return j
}

// findingsJSON returns the --json shape of findings; those at or past kept bytes are marked not stored.
func findingsJSON(findings []scan.Finding, kept int) []findingJSON {
	out := []findingJSON{}
	for _, f := range findings {
		out = append(out, findingJSON{f.Rule, f.Category, f.Line, f.Column, f.Preview, checkpoint.Stored(f, kept)})
	}
	return out
}

// flags lists an item's states for the FLAGS column, "-" when none.
func flags(it pending.Item, held applies) string {
	var f []string
	if it.Flagged {
		f = append(f, "flagged")
	}
	if it.Truncated {
		f = append(f, "truncated")
	}
	switch {
	case held.removed(it):
		f = append(f, "removed")
	case it.Applied != nil:
		f = append(f, "applied")
		if it.ChangedSinceApply() {
			f = append(f, "changed")
		}
	}
	if len(f) == 0 {
		return "-"
	}
	return strings.Join(f, ",")
}

// applies tells which applied texts the recall store no longer holds, by artifact hash. An undo of the apply
// or a forget of the artifact takes it out, and then an item that records the apply of its current text is in
// no memory: the views call it removed, not applied, and replacing or dropping it loses text that is kept
// nowhere else.
type applies map[string]bool

// removed reports whether it records the apply of its current text and the store no longer holds it.
func (a applies) removed(it pending.Item) bool {
	return it.Applied != nil && !it.ChangedSinceApply() && a[it.Applied.Artifact]
}

// unapplied reports whether no memory holds its current text: never applied, changed since, or removed.
func (a applies) unapplied(it pending.Item) bool { return it.Unapplied() || a.removed(it) }

// heldApplies looks up in the recall store the artifacts of the items that record the apply of their
// current text; it opens the store only when there are such items. When the store cannot be read, it
// warns and takes the records as they are.
func heldApplies(ctx context.Context, e *env, items ...pending.Item) applies {
	if len(appliedHashes(items)) == 0 {
		return applies{}
	}
	st, err := queryStore(e)
	if err != nil {
		warnUnchecked(e, err)
		return applies{}
	}
	if st != nil {
		defer st.Close()
	}
	return heldIn(ctx, e, st, items...)
}

// heldIn is [heldApplies] with the store open already, or nil when there is none.
func heldIn(ctx context.Context, e *env, st *recall.Store, items ...pending.Item) applies {
	hashes := appliedHashes(items)
	gone := applies{}
	if len(hashes) == 0 {
		return gone
	}
	held := map[string]bool{}
	if st != nil {
		var err error
		if held, err = st.HoldsArtifacts(ctx, hashes); err != nil {
			warnUnchecked(e, err)
			return gone
		}
	}
	for _, h := range hashes {
		gone[h] = !held[h]
	}
	return gone
}

// appliedHashes lists the artifacts of the items that record the apply of their current text.
func appliedHashes(items []pending.Item) []string {
	var hashes []string
	for _, it := range items {
		if it.Applied != nil && !it.ChangedSinceApply() {
			hashes = append(hashes, it.Applied.Artifact)
		}
	}
	return hashes
}

func warnUnchecked(e *env, err error) {
	e.warnf("could not check the recall store for the applied checkpoints, so they show as recorded: %s", escape.Label(err.Error()))
}

// pendingID returns the pending directory and the checkpoint ID a command names: its one argument, or the ID
// of the session --session gives.
func pendingID(c *cli.Context, e *env) (*pending.Dir, string, error) {
	name := "pending " + c.Command.Name
	var id string
	switch {
	case c.IsSet(itemSessionFlag.Name):
		if c.NArg() > 0 {
			return nil, "", usagef("%s takes an ID or --session, not both", name)
		}
		session, err := sessionArg(c, e, itemSessionFlag, true)
		if err != nil {
			return nil, "", err
		}
		id = pending.IDFor(session)
	case c.NArg() != 1:
		return nil, "", usagef("%s takes one checkpoint ID (or a prefix of at least %d hex digits)", name, pending.MinPrefix)
	default:
		id = c.Args().First()
		if err := pending.CheckPrefix(id); err != nil {
			return nil, "", usagef("%v", err)
		}
	}
	dir, err := openPending(e)
	return dir, id, err
}

// namedBySession names the session in err when the checkpoint a command named with --session is not there,
// where the checkpoint's ID would tell the user nothing.
func namedBySession(c *cli.Context, err error) error {
	if errors.Is(err, pending.ErrNotFound) && c.IsSet(itemSessionFlag.Name) {
		return fmt.Errorf("%w for session %s: run 'memoree pending list --all' to see the sessions", pending.ErrNotFound,
			escape.Label(itemSessionFlag.Get(c)))
	}
	return err
}

func runPendingList(c *cli.Context, e *env) error {
	if c.NArg() > 0 {
		return usagef("pending list takes no arguments; did you mean 'memoree pending show %s'?", c.Args().First())
	}
	session := ""
	if c.IsSet(listSessionFlag.Name) {
		var err error
		if session, err = sessionArg(c, e, listSessionFlag, true); err != nil {
			return err
		}
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	dir, err := openPending(e)
	if err != nil {
		return err
	}
	defer dir.Close()
	items, err := dir.List()
	// Unreadable files do not hide the readable ones; each gets a warning of its own.
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, err := range joined.Unwrap() {
			e.warnf("%s", escape.Label(err.Error()))
		}
	} else if err != nil {
		e.warnf("%s", escape.Label(err.Error()))
	}
	shown := []pending.Item{}
	hidden := 0
	for _, it := range items {
		if session != "" && it.Session != session {
			continue
		}
		if !listAllFlag.Get(c) && now.Sub(it.Updated) > reviewWindow {
			hidden++
			continue
		}
		shown = append(shown, it)
	}
	if hidden > 0 {
		e.hintf("%d checkpoint(s) older than the %d-day review window not shown; --all shows them", hidden,
			int(reviewWindow/(24*time.Hour)))
	}
	held := heldApplies(c.Context, e, shown...)
	if jsonFlag.Get(c) {
		out := make([]itemJSON, 0, len(shown))
		for _, it := range shown {
			out = append(out, newItemJSON(it, held))
		}
		return e.printJSON(out)
	}
	if !isTerminal(e.stdout) {
		for _, it := range shown {
			if _, err := fmt.Fprintf(e.stdout, "%s\t%s\t%s\t%s\t%d\t%s\n", it.ID, escape.Label(it.Session), escape.Label(it.Task),
				rfc3339(it.Updated), it.Bytes, flags(it, held)); err != nil {
				return err
			}
		}
		return nil
	}
	if len(shown) == 0 {
		fmt.Fprintln(e.stderr, "memoree: no pending checkpoints")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSESSION\tTASK\tUPDATED\tBYTES\tFLAGS")
	for _, it := range shown {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", it.ID, escape.Label(it.Session), orDash(escape.Label(it.Task)),
			age.Format(now.Sub(it.Updated)), it.Bytes, flags(it, held))
	}
	return tw.Flush()
}

// pendingItem returns the checkpoint a command names (see [pendingID]), read.
func pendingItem(c *cli.Context, e *env) (pending.Item, error) {
	dir, id, err := pendingID(c, e)
	if err != nil {
		return pending.Item{}, err
	}
	defer dir.Close()
	it, err := dir.Get(id)
	return it, namedBySession(c, err)
}

func runPendingShow(c *cli.Context, e *env) error {
	it, err := pendingItem(c, e)
	if err != nil {
		return err
	}
	held := heldApplies(c.Context, e, it)
	if jsonFlag.Get(c) {
		j := newItemJSON(it, held)
		j.Text = &it.Text
		return e.printJSON(j)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "id:       %s\n", it.ID)
	fmt.Fprintf(&b, "session:  %s\n", escape.Label(it.Session))
	fmt.Fprintf(&b, "task:     %s\n", escape.Label(it.Task))
	fmt.Fprintf(&b, "created:  %s\n", rfc3339(it.Created))
	fmt.Fprintf(&b, "updated:  %s\n", rfc3339(it.Updated))
	fmt.Fprintf(&b, "bytes:    %d of %d\n", it.Bytes, it.OriginalBytes)
	fmt.Fprintf(&b, "flags:    %s\n", flags(it, held))
	for _, f := range it.Findings {
		// The file may come from an older memoree or a hand edit: what it says is escaped like the text.
		fmt.Fprintf(&b, "finding:  %s at line %d, column %d: %s\n", escape.Label(f.Rule), f.Line, f.Column,
			escape.Label(f.Preview))
	}
	if it.Applied != nil {
		removed := ""
		if held.removed(it) {
			removed = " (removed: the recall store no longer holds it)"
		}
		fmt.Fprintf(&b, "applied:  %s at %s%s\n", escape.Label(it.Applied.Artifact), rfc3339(it.Applied.Time), removed)
	}
	for _, r := range it.Refs {
		fmt.Fprintf(&b, "ref:      %s=%s\n", escape.Label(r.Key), escape.Label(r.Value))
	}
	b.WriteString("\n")
	b.WriteString(escape.Text(it.Text))
	if !strings.HasSuffix(it.Text, "\n") {
		b.WriteString("\n")
	}
	_, err = fmt.Fprint(e.stdout, b.String())
	return err
}

type dropJSON struct {
	ID      string `json:"id"`
	Session string `json:"session"`
	// Unreadable is true when the checkpoint's file could not be read; it was dropped all the same.
	Unreadable bool `json:"unreadable"`
	Applied    bool `json:"applied"` // its current text had been applied, and no undo took the apply back
}

func runPendingDrop(c *cli.Context, e *env) error {
	dir, id, err := pendingID(c, e)
	if err != nil {
		return err
	}
	defer dir.Close()
	it, err := dir.Drop(id)
	if err != nil {
		return namedBySession(c, err)
	}
	if now, err := e.now(); err == nil {
		e.record(journal.Entry{Time: now, Op: journal.Dropped, Session: it.Session, Checkpoint: it.ID, Bytes: int64(it.Bytes)})
	}
	done := "dropped " + it.ID
	held := heldApplies(c.Context, e, it)
	if held.removed(it) {
		e.warnf("the applied text of %s was no longer in the store (an undo or a forget took it out): it is in no memory now", it.ID)
	}
	if jsonFlag.Get(c) {
		return printedError(done, e.printJSON(dropJSON{it.ID, it.Session, it.Session == "", it.Session != "" && !held.unapplied(it)}))
	}
	if it.Session == "" {
		_, err = fmt.Fprintf(e.stdout, "dropped %s (unreadable)\n", it.ID)
	} else {
		_, err = fmt.Fprintf(e.stdout, "dropped %s (session %s)\n", it.ID, escape.Label(it.Session))
	}
	return printedError(done, err)
}
