package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
)

func statusCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "show the data directory, pending checkpoints and the recall store at a glance",
		ArgsUsage: " ",
		Description: withDoc(`Prints where memoree keeps its data, how many checkpoints are pending (of them, how many are
flagged and how many are past the 14-day review window), and the recall store's size, claims,
artifacts and last apply. Creates the pending directory if needed, never a store.`, "memoree status\nmemoree status --json"),
		Flags:  []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error { return runStatus(c, e) },
	}
}

// statusJSON is the --json shape of status.
type statusJSON struct {
	DataDir string            `json:"data_dir"`
	Pending pendingStatusJSON `json:"pending"`
	Store   storeStatusJSON   `json:"store"`
}

type pendingStatusJSON struct {
	Total      int `json:"total"`
	Flagged    int `json:"flagged"`
	PastWindow int `json:"past_window"`
	Unapplied  int `json:"unapplied"`
	Unreadable int `json:"unreadable"`
}

type storeStatusJSON struct {
	Exists    bool    `json:"exists"`
	Bytes     int64   `json:"bytes"`
	Claims    int     `json:"claims"`
	Artifacts int     `json:"artifacts"`
	LastApply *string `json:"last_apply"` // RFC 3339, null when nothing was applied
}

func runStatus(c *cli.Context, e *env) error {
	if c.NArg() > 0 {
		return usagef("status takes no arguments")
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	data, err := e.dataDir()
	if err != nil {
		return err
	}
	out := statusJSON{DataDir: data}
	dir, err := openPending(e)
	if err != nil {
		return err
	}
	defer dir.Close()
	items, err := dir.List()
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		out.Pending.Unreadable = len(joined.Unwrap())
	} else if err != nil {
		return err
	}
	// One open of the store for both the applied checkpoints and the store's figures.
	st, err := queryStore(e)
	if err != nil {
		return err
	}
	if st != nil {
		defer st.Close()
	}
	held := heldIn(c.Context, e, st, items...)
	for _, it := range items {
		out.Pending.Total++
		if it.Flagged {
			out.Pending.Flagged++
		}
		if now.Sub(it.Updated) > reviewWindow {
			out.Pending.PastWindow++
		}
		if held.unapplied(it) {
			out.Pending.Unapplied++
		}
	}
	if st != nil {
		stats, err := st.Stats(c.Context)
		if err != nil {
			return err
		}
		out.Store = storeStatusJSON{Exists: true, Bytes: stats.Bytes, Claims: stats.Claims, Artifacts: stats.Artifacts}
		if !stats.LastApply.IsZero() {
			t := rfc3339(stats.LastApply)
			out.Store.LastApply = &t
		}
	}
	if jsonFlag.Get(c) {
		return e.printJSON(out)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "data directory: %s\n", out.DataDir)
	p := out.Pending
	fmt.Fprintf(&b, "pending:        %d checkpoint(s): %d flagged, %d unapplied, %d past the review window", p.Total, p.Flagged, p.Unapplied, p.PastWindow)
	if p.Unreadable > 0 {
		fmt.Fprintf(&b, ", %d unreadable", p.Unreadable)
	}
	b.WriteString("\n")
	if !out.Store.Exists {
		b.WriteString("recall store:   none yet (the first apply creates it)\n")
	} else {
		s := out.Store
		last := "never"
		if s.LastApply != nil {
			last = *s.LastApply
			if t, err := time.Parse(time.RFC3339, last); err == nil {
				last += " (" + ageText(ageSeconds(now, t)) + ")"
			}
		}
		fmt.Fprintf(&b, "recall store:   %d claim(s) from %d artifact(s), %d bytes; last apply %s\n", s.Claims, s.Artifacts, s.Bytes, last)
	}
	_, err = fmt.Fprint(e.stdout, b.String())
	return err
}
