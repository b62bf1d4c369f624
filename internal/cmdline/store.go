package cmdline

// The commands that read or write the recall store. Their definitions (flags, help, examples) live here;
// what runs them comes from package main through [Store], since this package leaves the SQLite engine out.

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/app"
)

// storeAction runs the store command name with run.
func storeAction(e *app.Env, name string, run Runner) cli.ActionFunc {
	return func(c *cli.Context) error {
		if run == nil {
			return fmt.Errorf("this program cannot run memoree %s: it was built without the recall store", name)
		}
		return run(c, e)
	}
}

func rememberCommand(e *app.Env, store Store) *cli.Command {
	return &cli.Command{
		Name:      "remember",
		Usage:     "compile a note into claims; with --apply, store it in long-term memory",
		ArgsUsage: "(- | --file PATH | TEXT...)",
		Description: `Without --apply, prints the claims the note would give and writes nothing. With --apply, stores
the note as an artifact and its claims in one transaction, and says how many claims are new and how
many were already known (known claims gain evidence, not duplicates). The same input rules as
checkpoint apply; a note the secret scan flags is refused (exit 3) unless --allow-flagged.

EXAMPLES:
   echo 'We deploy from the release branch only.' | memoree remember -
   echo 'We deploy from the release branch only.' | memoree remember --apply -`,
		Flags: []cli.Flag{
			fileFlag,
			&cli.StringFlag{Name: "task", Usage: "task `LABEL` recorded with the note"},
			&cli.BoolFlag{Name: "apply", Usage: "store the note and its claims"},
			allowFlaggedFlag,
			jsonFlag,
		},
		Action: storeAction(e, "remember", store.Remember),
	}
}

func recallCommand(e *app.Env, store Store) *cli.Command {
	return &cli.Command{
		Name:      "recall",
		Usage:     "find stored claims that answer a query, with their evidence",
		ArgsUsage: "QUERY...",
		Description: `Ranks stored claims against the query (any word may match; plurals and verb forms, case and
diacritics fold) and prints them, newest first among equals, each with its age and evidence. The
first line says presence=claim when a stored claim answers the query, presence=artifact when only
stored artifact text does (then those artifacts are listed, those with the most query words
first, newest first among equals), presence=none otherwise. Pending
checkpoints are never searched. Output is capped at 16 KiB; when more results exist it says so.

EXAMPLES:
   memoree recall "regression corpus"
   memoree recall deploy release branch --limit 3 --json`,
		Flags:  []cli.Flag{limitFlag, jsonFlag},
		Action: storeAction(e, "recall", store.Recall),
	}
}

func searchCommand(e *app.Env, store Store) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "find stored artifacts whose text matches a query, with snippets",
		ArgsUsage: "QUERY...",
		Description: `EXAMPLES:
   memoree search regression
   memoree search "user_id migration" --json`,
		Flags:  []cli.Flag{limitFlag, jsonFlag},
		Action: storeAction(e, "search", store.Search),
	}
}

func contextCommand(e *app.Env, store Store) *cli.Command {
	return &cli.Command{
		Name:  "context",
		Usage: "build prompt context from stored claims",
		Description: `EXAMPLES:
   memoree context build --query "recall work" --budget 1500`,
		Subcommands: []*cli.Command{{
			Name:      "build",
			Usage:     "print the most relevant claims as a Markdown block within a token budget",
			ArgsUsage: " ",
			Description: `Picks the claims most relevant to --query (else the most recent), optionally only those with
evidence from --session or --task, and prints them as a compact Markdown block, each line citing
its artifact. The block never exceeds --budget tokens by memoree's estimate (an upper bound for
English with common tokenizers; see README.md) and ends with a line saying how many relevant
claims were left out.

EXAMPLES:
   memoree context build --query "recall work" --budget 1500
   memoree context build --session S1 --json`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "query", Usage: "rank claims by relevance to `TEXT`"},
				&cli.StringFlag{Name: "session", Usage: "only claims with evidence from session `ID`"},
				&cli.StringFlag{Name: "task", Usage: "only claims with evidence from task `LABEL`"},
				&cli.IntFlag{Name: "budget", Value: 1500, Usage: "hard limit in `TOKENS` for the whole block"},
				jsonFlag,
			},
			Action: storeAction(e, "context build", store.ContextBuild),
		}},
	}
}

func artifactCommand(e *app.Env, store Store) *cli.Command {
	return &cli.Command{
		Name:  "artifact",
		Usage: "read stored artifacts, and collect the ones no apply committed",
		Description: `EXAMPLES:
   memoree artifact show 3f2a1b9c
   memoree artifact gc`,
		Subcommands: []*cli.Command{{
			Name:      "show",
			Usage:     "print an artifact's exact bytes after verifying its hash",
			ArgsUsage: "HASH",
			Description: `Accepts a unique prefix of at least 4 hex digits of the SHA-256.

EXAMPLES:
   memoree artifact show 3f2a1b9c > note.txt`,
			Action: storeAction(e, "artifact show", store.ArtifactShow),
		}, {
			Name:  "gc",
			Usage: "remove artifact files that no stored artifact refers to",
			Description: `Removes the files a failed or interrupted apply left in the artifact store, and the temp
files of writes cut short. A file younger than --grace is kept, because an apply writes its file
before it commits the rows that refer to it; --grace 0s is safe only when no apply is running.
Prints how many files it removed; creates no store when there is none.

EXAMPLES:
   memoree artifact gc
   memoree artifact gc --grace 24h --json`,
			Flags: []cli.Flag{
				&cli.DurationFlag{Name: "grace", Value: time.Hour, Usage: "keep files modified within `DURATION`"},
				jsonFlag,
			},
			Action: storeAction(e, "artifact gc", store.ArtifactGC),
		}},
	}
}

func optimizeCommand(e *app.Env, store Store) *cli.Command {
	return &cli.Command{
		Name:      "optimize",
		Usage:     "merge the full-text indexes and compact the recall store",
		ArgsUsage: " ",
		Description: `Each apply adds a small segment to the full-text indexes. optimize merges them, then rewrites
the database file to give back the pages the merge freed. Answers stay the same; on a store of 100,000
generated claims a broad recall takes less than half the time afterwards and a selective one about a
tenth less. It holds the store's write lock meanwhile (about a second per 100,000 claims) and needs free
disk space of about the database's size beside it, and as much again in $TMPDIR. Prints the database's
size before and after; creates no store when there is none.

EXAMPLES:
   memoree optimize
   memoree optimize --json`,
		Flags:  []cli.Flag{jsonFlag},
		Action: storeAction(e, "optimize", store.Optimize),
	}
}
