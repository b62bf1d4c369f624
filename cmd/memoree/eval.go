package main

import (
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/compiler"
	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/journal"
	"github.com/memoree/memoree/recall"
)

var verboseFlag = &cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "also list every query that missed or failed", DisableDefaultText: true}

func evalCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "eval",
		Usage:     "score recall on labelled queries against the current store",
		ArgsUsage: "FILE",
		Description: withDoc(`Runs every query of FILE through recall, as 'memoree recall --limit 10' would, and prints
recall@1, @5 and @10, MRR and presence accuracy, overall and per tag. FILE has one JSON object per
line: {"query": "...", "expect": "claim" or "none", "answers": [artifact hash prefixes], "tag": "...",
"stale": [prefixes of notes an answer replaced]}. A result is a hit when its evidence names one of the
answers; presence is right when it is none exactly for expect none. Recall and MRR count the claim
queries only. A line that cannot be read counts as an error, not a failure of the command, and so
does one that cannot be scored: an empty query, expect claim without answers or none with some, a
prefix of fewer than 4 hex digits. Writes nothing.`, `memoree eval queries.jsonl
memoree eval queries.jsonl --json | jq .recall_at_5`),
		Flags:  []cli.Flag{verboseFlag, jsonFlag},
		Action: func(c *cli.Context) error { return runEval(c, e) },
	}
}

func runEval(c *cli.Context, e *env) error {
	if c.NArg() != 1 {
		return usagef("eval takes one file of labelled queries")
	}
	f, err := os.Open(c.Args().First())
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	st, err := queryStore(e)
	if err != nil {
		return err
	}
	if st == nil {
		return fmt.Errorf("eval: %w: apply notes first", errNoStore)
	}
	rep, err := st.Eval(c.Context, f)
	if err != nil {
		return err
	}
	if jsonFlag.Get(c) {
		return e.printJSON(rep)
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TAG\tQUERIES\tR@1\tR@5\tR@10\tMRR\tPRESENCE\tERRORS")
	row := func(tag string, s recall.EvalScores) {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d\n", tag, s.Queries, s.RecallAt1, s.RecallAt5, s.RecallAt10,
			s.MRR, s.PresenceAccuracy, s.Errors)
	}
	row("all", rep.EvalScores)
	for _, t := range rep.Tags() {
		row(escape.Label(t), rep.ByTag[t])
	}
	tw.Flush()
	if rep.Updates > 0 {
		fmt.Fprintf(&b, "updates: the newer note first in %d of %d\n", rep.UpdatesInOrder, rep.Updates)
	}
	if verboseFlag.Get(c) {
		for _, r := range rep.Results {
			switch {
			case r.Err != "":
				fmt.Fprintf(&b, "line %d: error: %s\n", r.Line, escape.Label(r.Err))
			case r.Query.Expect == "none" && r.Presence != recall.PresenceNone:
				fmt.Fprintf(&b, "line %d: presence=%s, want none: %s\n", r.Line, r.Presence, escape.Label(r.Query.Query))
			case r.Query.Expect != "none" && r.Rank != 1:
				fmt.Fprintf(&b, "line %d: answer at rank %d (0: not in the top %d), presence=%s: %s\n", r.Line, r.Rank,
					recall.EvalLimit, r.Presence, escape.Label(r.Query.Query))
			}
		}
	}
	_, err = fmt.Fprint(e.stdout, b.String())
	return err
}

func reindexCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "reindex",
		Usage:     "recompile every stored note with the current claim compiler, in place",
		ArgsUsage: " ",
		Description: withDoc(`Claims made by an older compiler keep working; reindex makes them again from the stored
artifacts with the current one, so that they gain what it knows (claim context, for one). Artifacts
and their bytes stay as they are, and so does the exact evidence of each claim. It is all or nothing,
under the store's write lock, and says how many claims it added, removed, updated and left alone.
A fact a newer note replaced stays replaced: a supersession passes to the claims now made from the same
text, and is lifted only where no claim is made from it any more. Undo takes a reindex back; one that
changed nothing makes no undo record, so undo after it takes back the operation before. Creates no
store when there is none.`, "memoree reindex\nmemoree reindex --json"),
		Flags:  []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error { return runReindex(c, e) },
	}
}

// reindexJSON is the --json shape of reindex.
type reindexJSON struct {
	Compiler  string `json:"compiler"`
	Artifacts int    `json:"artifacts"`
	Added     int    `json:"added"`
	Removed   int    `json:"removed"`
	Updated   int    `json:"updated"`
	Unchanged int    `json:"unchanged"`
	Lifted    int    `json:"lifted"`  // supersessions lifted because a claim they named is gone
	Carried   int    `json:"carried"` // supersessions passed to the claims now made from the same text
	Record    int64  `json:"record"`  // the undo record; 0 when there was no store or nothing changed
}

func runReindex(c *cli.Context, e *env) error {
	if c.NArg() != 0 {
		return usagef("reindex takes no arguments")
	}
	dir, exists, err := upkeepDir(e)
	if err != nil {
		return err
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	out := reindexJSON{Compiler: compiler.Rules.Name()}
	if exists {
		err = withStore(dir, func(st *recall.Store) error {
			res, err := st.Reindex(c.Context, compiler.Rules, now)
			out = reindexJSON{res.Compiler, res.Artifacts, res.Added, res.Removed, res.Updated, res.Unchanged, res.Lifted, res.Carried, res.Record}
			return err
		})
		if err != nil {
			return err
		}
		e.record(journal.Entry{Time: now, Op: journal.Reindexed, Artifacts: out.Artifacts, Claims: out.Added + out.Removed + out.Updated,
			Compiler: out.Compiler, Target: out.Record})
	}
	if jsonFlag.Get(c) {
		return printedError("reindexed", e.printJSON(out))
	}
	sups := ""
	if out.Carried+out.Lifted > 0 {
		sups = fmt.Sprintf("; %d supersession(s) carried to the claims made from the same text, %d lifted", out.Carried, out.Lifted)
	}
	undo := ""
	if out.Record == 0 {
		undo = "; nothing changed, nothing to undo"
	}
	_, err = fmt.Fprintf(e.stdout, "reindexed %d artifact(s) with %s: %d claim(s) added, %d removed, %d updated, %d unchanged%s%s\n",
		out.Artifacts, out.Compiler, out.Added, out.Removed, out.Updated, out.Unchanged, sups, undo)
	return printedError("reindexed", err)
}
