package main

// Upkeep of the recall store: optimize. It leaves a missing store missing.

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/recall"
)

func optimizeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "optimize",
		Usage:     "merge the full-text indexes and compact the recall store",
		ArgsUsage: " ",
		Description: withDoc(`Each apply adds a small segment to the full-text indexes. optimize merges them, then rewrites
the database file to give back the pages the merge freed. Answers stay the same; broad queries get
faster. It holds the store's write lock meanwhile and needs free disk space of about the database's
size beside it, and as much again in $TMPDIR. Prints the database's size before and after; creates
no store when there is none.`, "memoree optimize\nmemoree optimize --json"),
		Flags:  []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error { return runOptimize(c, e) },
	}
}

// optimizeJSON is the --json shape of optimize.
type optimizeJSON struct {
	Optimized   bool  `json:"optimized"`
	BytesBefore int64 `json:"bytes_before"`
	BytesAfter  int64 `json:"bytes_after"`
}

func runOptimize(c *cli.Context, e *env) error {
	if c.NArg() != 0 {
		return usagef("optimize takes no arguments")
	}
	dir, exists, err := upkeepDir(e)
	if err != nil {
		return err
	}
	var out optimizeJSON
	if exists {
		err = withStore(dir, func(st *recall.Store) (err error) {
			out.Optimized = true
			if out.BytesBefore, err = st.FileSize(); err != nil {
				return err
			}
			if err := st.Optimize(c.Context); err != nil {
				return err
			}
			out.BytesAfter, err = st.FileSize()
			return err
		})
		if err != nil {
			return err
		}
	}
	if jsonFlag.Get(c) {
		return e.printJSON(out)
	}
	if !out.Optimized {
		_, err = fmt.Fprintln(e.stdout, "nothing to optimize: no recall store yet")
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "optimized the recall store: %d bytes, %d before\n", out.BytesAfter, out.BytesBefore)
	return err
}

// withStore opens the store in dir for writing, runs f on it and closes it, before the caller prints
// anything: a failed close, which loses the change, must not follow a report of success.
func withStore(dir string, f func(*recall.Store) error) (err error) {
	st, err := recall.Open(dir)
	if err != nil {
		return err
	}
	defer closeStore(st, &err)
	return f(st)
}
