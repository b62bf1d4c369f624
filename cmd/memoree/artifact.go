package main

// The artifact commands read stored artifacts and clean up after failed applies. Neither reads the pending
// directory; neither creates a store.

import (
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/recall"
)

// graceFlag is a string the command parses, so that a bad value gets an error that says what a duration is
// (the flag package's own says "parse error").
var graceFlag = &cli.StringFlag{Name: "grace", Value: "1h", Usage: "keep files modified within `DURATION` (1h, 30m, 0s)"}

func artifactCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "artifact",
		Usage:       "read stored artifacts, and collect the ones no apply committed",
		Description: withDoc(`An artifact is the exact text of an applied note, named by its SHA-256.`, "memoree artifact show 3f2a1b9c\nmemoree artifact gc"),
		Subcommands: []*cli.Command{{
			Name:      "show",
			Usage:     "print an artifact's exact bytes after verifying its hash",
			ArgsUsage: "HASH",
			Description: withDoc(`Accepts a unique prefix of at least 4 hex digits of the SHA-256, in either case. Prints the
exact bytes (so that they can be redirected to a file); on a terminal, control and invisible characters
are shown escaped instead, as in every other view. --json prints the hash, size and text.`,
				"memoree artifact show 3f2a1b9c > note.txt\nmemoree artifact show 3f2a --json"),
			Flags:  []cli.Flag{jsonFlag},
			Action: func(c *cli.Context) error { return runArtifactShow(c, e) },
		}, {
			Name:  "gc",
			Usage: "remove artifact files that no stored artifact refers to",
			Description: withDoc(`Removes the files a failed or interrupted apply left in the artifact store, and the temp
files of writes cut short. A file younger than --grace is kept, because an apply writes its file
before it commits the rows that refer to it; --grace 0s is safe only when no apply is running.
Prints how many files it removed; creates no store when there is none.`, "memoree artifact gc\nmemoree artifact gc --grace 24h --json"),
			Flags:  []cli.Flag{graceFlag, jsonFlag},
			Action: func(c *cli.Context) error { return runArtifactGC(c, e) },
		}},
	}
}

// artifactJSON is the --json shape of artifact show.
type artifactJSON struct {
	Artifact string `json:"artifact"`
	Bytes    int    `json:"bytes"`
	Text     string `json:"text"`
}

func runArtifactShow(c *cli.Context, e *env) error {
	if c.NArg() != 1 {
		return usagef("artifact show takes one hash (or a prefix of at least %d hex digits)", recall.MinPrefix)
	}
	if err := recall.CheckPrefix(c.Args().First()); err != nil {
		return usagef("%v", err)
	}
	st, err := queryStore(e)
	if err != nil {
		return err
	}
	if st == nil {
		return fmt.Errorf("%w %s: nothing has been stored yet", recall.ErrNotFound, c.Args().First())
	}
	hash, data, err := st.ArtifactBytes(c.Args().First())
	if err != nil {
		return err
	}
	if jsonFlag.Get(c) {
		if !utf8.Valid(data) {
			return fmt.Errorf("artifact %s is not UTF-8 text: print it without --json", hash[:12])
		}
		return e.printJSON(artifactJSON{hash, len(data), string(data)})
	}
	if isTerminal(e.stdout) {
		// A note must not drive the terminal it is read on: there, control and invisible characters are
		// shown escaped, as every other view shows them, and the exact bytes go to a file or a pipe.
		if shown := escape.Text(string(data)); shown != string(data) {
			e.hintf("control or invisible characters shown escaped; redirect to a file for the exact bytes")
			_, err = io.WriteString(e.stdout, shown)
			return err
		}
	}
	_, err = e.stdout.Write(data)
	return err
}

// runArtifactGC removes the artifact files no stored artifact refers to. With no store it says so and creates
// none.
func runArtifactGC(c *cli.Context, e *env) error {
	if c.NArg() != 0 {
		return usagef("artifact gc takes no arguments")
	}
	grace, err := time.ParseDuration(graceFlag.Get(c))
	if err != nil {
		return usagef("--grace %q is not a duration: give one such as 1h, 30m or 0s", graceFlag.Get(c))
	}
	if grace < 0 {
		return usagef("--grace %s is negative: give a duration such as 1h or 0s", grace)
	}
	// File ages come from the file system's clock, so they are measured against the real time, not
	// MEMOREE_NOW: a clock set ahead would otherwise collect the file of an apply in progress.
	now := time.Now()
	dir, exists, err := upkeepDir(e)
	if err != nil {
		return err
	}
	var out gcJSON
	if exists {
		err = withStore(dir, func(st *recall.Store) (err error) {
			if out.Removed, err = st.CollectGarbage(c.Context, now, grace); err != nil {
				return err
			}
			n, err := st.SweepTemps()
			out.TempFiles += n
			return err
		})
		if err != nil {
			return err
		}
	}
	// The pending tree too: a killed checkpoint leaves its temp file, with the whole note in it.
	pd, err := openPendingIfAny(e)
	if err != nil {
		return err
	}
	if pd != nil {
		defer pd.Close()
		n, err := pd.SweepTemps()
		out.TempFiles += n
		if err != nil {
			return err
		}
	}
	if jsonFlag.Get(c) {
		return e.printJSON(out)
	}
	_, err = fmt.Fprintf(e.stdout, "removed %d unreferenced artifact file(s) and %d temp file(s) of interrupted writes\n", out.Removed, out.TempFiles)
	return err
}

// gcJSON is the --json shape of artifact gc.
type gcJSON struct {
	Removed   int `json:"removed"`    // artifact files no stored artifact refers to
	TempFiles int `json:"temp_files"` // temp files of writes that were cut short, in the store and pending trees
}

// upkeepDir returns the store directory for a command that maintains the store, and whether a store is
// there: without one there is nothing to maintain, and none is created.
func upkeepDir(e *env) (string, bool, error) {
	dir, err := storeDir(e)
	if err != nil {
		return "", false, err
	}
	exists, err := recall.Exists(dir)
	return dir, exists, err
}
