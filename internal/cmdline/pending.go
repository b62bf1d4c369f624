package cmdline

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/age"
	"github.com/memoree/memoree/internal/app"
	"github.com/memoree/memoree/pending"
)

// reviewWindow is how long a checkpoint shows in 'pending list' without --all. Older ones are hidden, not deleted.
const reviewWindow = 14 * 24 * time.Hour

func pendingCommand(e *app.Env, store Store) *cli.Command {
	return &cli.Command{
		Name:  "pending",
		Usage: "review staged checkpoints: list, show, preview, apply, drop",
		Description: `Checkpoints wait here, quarantined, until they are applied into the recall store or dropped.
Every command that takes an ID accepts a unique prefix of at least 4 characters ("ck-" may be left out,
and counts when given).

EXAMPLES:
   memoree pending list
   memoree pending show ck-7f3a
   memoree pending preview ck-7f3a
   memoree pending apply ck-7f3a
   memoree pending drop 7f3a`,
		Subcommands: []*cli.Command{
			{
				Name:      "list",
				Usage:     "list staged checkpoints, newest first, without their text",
				ArgsUsage: " ",
				Description: `Lists checkpoints updated within the 14-day review window; --all shows older ones too.
Columns: ID, SESSION, TASK, UPDATED, BYTES, FLAGS (flagged, truncated, applied, changed).
On a terminal the view is a table with ages; otherwise each line is tab-separated with the
update time in RFC 3339.

EXAMPLES:
   memoree pending list
   memoree pending list --session S1 --json`,
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "all", Usage: "include checkpoints older than the review window"},
					&cli.StringFlag{Name: "session", Usage: "only the checkpoint of session `ID`"},
					jsonFlag,
				},
				Action: func(c *cli.Context) error { return runPendingList(c, e) },
			},
			{
				Name:      "show",
				Usage:     "show a checkpoint's metadata and text",
				ArgsUsage: "ID",
				Description: `Prints the metadata, then the text. Control and invisible format characters are shown
escaped (\x1b, \u200b) so a note cannot drive the terminal or hide text; --json gives the
exact text in a "text" field.

EXAMPLES:
   memoree pending show ck-7f3a
   memoree pending show 7f3a --json`,
				Flags:  []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error { return runPendingShow(c, e) },
			},
			{
				Name:      "preview",
				Usage:     "show the claims apply would store; writes nothing",
				ArgsUsage: "ID",
				Description: `Runs the claim compiler on the checkpoint's text and shows each claim with its kind, its
evidence span [start, end) in the text and whether the store already knows it, then the skipped
fragments with the reason. Writes nothing at all, and creates no store. A flagged checkpoint is
refused (exit 3) unless --allow-flagged.

EXAMPLES:
   memoree pending preview ck-7f3a
   memoree pending preview 7f3a --json`,
				Flags:  []cli.Flag{allowFlaggedFlag, jsonFlag},
				Action: storeAction(e, "pending preview", store.PendingPreview),
			},
			{
				Name:      "apply",
				Usage:     "store the checkpoint as an artifact and its claims in the recall store",
				ArgsUsage: "ID",
				Description: `Runs the same compiler as preview through the same path as 'remember --apply': the exact text
becomes a checkpoint artifact, the evidence of every claim. The pending item stays, marked as
applied, until you drop it; applying the same text again changes nothing and says so. A flagged
checkpoint is refused (exit 3) unless --allow-flagged.

EXAMPLES:
   memoree pending apply ck-7f3a
   memoree pending apply ck-7f3a && memoree pending drop ck-7f3a`,
				Flags:  []cli.Flag{allowFlaggedFlag, jsonFlag},
				Action: storeAction(e, "pending apply", store.PendingApply),
			},
			{
				Name:      "drop",
				Usage:     "delete a checkpoint for good",
				ArgsUsage: "ID",
				Description: `EXAMPLES:
   memoree pending drop ck-7f3a`,
				Action: func(c *cli.Context) error { return runPendingDrop(c, e) },
			},
		},
	}
}

// flags lists an item's states for the FLAGS column, "-" when none.
func flags(it pending.Item) string {
	var f []string
	if it.Flagged {
		f = append(f, "flagged")
	}
	if it.Truncated {
		f = append(f, "truncated")
	}
	if it.Applied != nil {
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

// oneID returns the single ID argument of a command.
func oneID(c *cli.Context) (string, error) {
	if c.NArg() != 1 {
		return "", app.Usagef("pending %s takes one checkpoint ID (or a prefix of at least %d characters)", c.Command.Name, pending.MinPrefix)
	}
	if err := pending.CheckPrefix(c.Args().First()); err != nil {
		return "", app.Usagef("%v", err)
	}
	return c.Args().First(), nil
}

func runPendingList(c *cli.Context, e *app.Env) error {
	if c.NArg() > 0 {
		return app.Usagef("pending list takes no arguments; did you mean 'memoree pending show %s'?", c.Args().First())
	}
	now, err := e.Now()
	if err != nil {
		return err
	}
	dir, err := app.OpenPending(e)
	if err != nil {
		return err
	}
	items, err := dir.List()
	// Unreadable files do not hide the readable ones; each gets a warning of its own.
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, err := range joined.Unwrap() {
			e.Warnf("%v", err)
		}
	} else if err != nil {
		e.Warnf("%v", err)
	}
	shown := []pending.Item{}
	hidden := 0
	for _, it := range items {
		if c.IsSet("session") && it.Session != c.String("session") {
			continue
		}
		if !c.Bool("all") && now.Sub(it.Updated) > reviewWindow {
			hidden++
			continue
		}
		shown = append(shown, it)
	}
	if hidden > 0 {
		e.Hintf("%d checkpoint(s) older than the %d-day review window not shown; --all shows them", hidden,
			int(reviewWindow/(24*time.Hour)))
	}
	if c.Bool("json") {
		out := make([]app.ItemJSON, 0, len(shown))
		for _, it := range shown {
			out = append(out, app.NewItemJSON(it))
		}
		return app.PrintJSON(e.Stdout, out)
	}
	if !app.IsTerminal(e.Stdout) {
		for _, it := range shown {
			fmt.Fprintf(e.Stdout, "%s\t%s\t%s\t%s\t%d\t%s\n", it.ID, app.EscapeLabel(it.Session), app.EscapeLabel(it.Task),
				app.RFC3339(it.Updated), it.Bytes, flags(it))
		}
		return nil
	}
	if len(shown) == 0 {
		fmt.Fprintln(e.Stderr, "memoree: no pending checkpoints")
		return nil
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSESSION\tTASK\tUPDATED\tBYTES\tFLAGS")
	for _, it := range shown {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", it.ID, app.EscapeLabel(it.Session), app.OrDash(app.EscapeLabel(it.Task)),
			age.Format(now.Sub(it.Updated)), it.Bytes, flags(it))
	}
	return tw.Flush()
}

// PendingID returns the pending directory and the one ID argument of a command that acts on a checkpoint.
func PendingID(c *cli.Context, e *app.Env) (*pending.Dir, string, error) {
	id, err := oneID(c)
	if err != nil {
		return nil, "", err
	}
	dir, err := app.OpenPending(e)
	return dir, id, err
}

func runPendingShow(c *cli.Context, e *app.Env) error {
	dir, id, err := PendingID(c, e)
	if err != nil {
		return err
	}
	it, err := dir.Get(id)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		j := app.NewItemJSON(it)
		j.Text = &it.Text
		return app.PrintJSON(e.Stdout, j)
	}
	w := e.Stdout
	fmt.Fprintf(w, "id:       %s\n", it.ID)
	fmt.Fprintf(w, "session:  %s\n", app.EscapeLabel(it.Session))
	fmt.Fprintf(w, "task:     %s\n", app.EscapeLabel(it.Task))
	fmt.Fprintf(w, "created:  %s\n", app.RFC3339(it.Created))
	fmt.Fprintf(w, "updated:  %s\n", app.RFC3339(it.Updated))
	fmt.Fprintf(w, "bytes:    %d of %d\n", it.Bytes, it.OriginalBytes)
	fmt.Fprintf(w, "flags:    %s\n", flags(it))
	for _, f := range it.Findings {
		// The file may come from an older memoree or a hand edit: what it says is escaped like the text.
		fmt.Fprintf(w, "finding:  %s at line %d, column %d: %s\n", app.EscapeLabel(f.Rule), f.Line, f.Column,
			app.EscapeLabel(f.Preview))
	}
	if it.Applied != nil {
		fmt.Fprintf(w, "applied:  %s at %s\n", app.EscapeLabel(it.Applied.Artifact), app.RFC3339(it.Applied.Time))
	}
	fmt.Fprintln(w)
	text := app.EscapeText(it.Text)
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	_, err = fmt.Fprint(w, text)
	return err
}

func runPendingDrop(c *cli.Context, e *app.Env) error {
	dir, id, err := PendingID(c, e)
	if err != nil {
		return err
	}
	it, err := dir.Drop(id)
	if err != nil {
		return err
	}
	if it.Session == "" {
		_, err = fmt.Fprintf(e.Stdout, "dropped %s (unreadable)\n", it.ID)
		return err
	}
	_, err = fmt.Fprintf(e.Stdout, "dropped %s (session %s)\n", it.ID, app.EscapeLabel(it.Session))
	return err
}
