package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/journal"
)

// record appends the entries of one operation to the journal of operations, together. The operation has
// happened by then, so a journal that cannot be written is a warning, not a failure: the command's result
// stands, and log --verify will show the gap. Entries for pending operations (staged, replaced, flagged, dropped) are not synced one by
// one, which keeps them cheap next to the checkpoint they record; store operations are.
func (e *env) record(entries ...journal.Entry) {
	data, err := e.dataDir()
	if err == nil {
		var j *journal.Journal
		opt := journal.Options{NoSync: pendingOp(entries[0].Op)}
		if j, err = journal.OpenOptions(filepath.Join(data, "journal"), opt); err == nil {
			_, err = j.AppendAll(entries)
		}
	}
	if err != nil {
		e.warnf("%s, but the journal could not record it: %s", entries[0].Op, escape.Label(err.Error()))
	}
}

func pendingOp(op journal.Op) bool {
	switch op {
	case journal.Staged, journal.Replaced, journal.Flagged, journal.Dropped:
		return true
	}
	return false
}

var (
	sinceFlag  = &cli.DurationFlag{Name: "since", Usage: "only entries of the last `DURATION` (such as 24h or 168h)"}
	verifyFlag = &cli.BoolFlag{Name: "verify", Usage: "check the hash chain and report edited, deleted or truncated entries", DisableDefaultText: true}
)

func logCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "show the journal of operations, or verify it",
		ArgsUsage: " ",
		Description: withDoc(`Every operation is one line of an append-only journal, one file per day under the data
directory (journal/YYYY-MM-DD.jsonl): checkpoints staged, replaced, flagged and dropped; applies,
forgets, supersessions, undos, redos, imports, exports and reindexes. An entry holds its time,
operation, session, checkpoint ID, artifact hash, claim and byte counts and the compiler, and never any
note text or secret. Each entry holds the SHA-256 of the one before, so --verify finds an entry that was
edited, deleted or cut (exit 1 when it finds one). A chain cannot show that its newest entries were
removed whole: compare the head it reports with one you noted.`, `memoree log --since 24h
memoree log --json | jq -r '.[] | select(.op == "forgot") | .time'
memoree log --verify`),
		Flags:  []cli.Flag{sinceFlag, verifyFlag, jsonFlag},
		Action: func(c *cli.Context) error { return runLog(c, e) },
	}
}

func runLog(c *cli.Context, e *env) error {
	if c.NArg() != 0 {
		return usagef("log takes no arguments")
	}
	data, err := e.dataDir()
	if err != nil {
		return err
	}
	dir := filepath.Join(data, "journal")
	if verifyFlag.Get(c) {
		rep, err := journal.Verify(dir)
		if err != nil {
			return err
		}
		if jsonFlag.Get(c) {
			if err := e.printJSON(rep); err != nil {
				return err
			}
		} else {
			var b strings.Builder
			for _, p := range rep.Problems {
				fmt.Fprintf(&b, "%s\n", escape.Label(p.String()))
			}
			if rep.OK() {
				fmt.Fprintf(&b, "journal intact: %d entries, head %d (%s)\n", rep.Entries, rep.Head.Seq, orDash(shortHash(rep.HeadHash)))
			} else {
				fmt.Fprintf(&b, "journal damaged: %d problem(s); %d entries readable\n", len(rep.Problems), rep.Entries)
			}
			if _, err := fmt.Fprint(e.stdout, b.String()); err != nil {
				return err
			}
		}
		if !rep.OK() {
			return quietExit(exitFailure)
		}
		return nil
	}
	since := time.Time{}
	if d := sinceFlag.Get(c); d != 0 {
		if d < 0 {
			return usagef("--since %s is negative: give a duration such as 24h", d)
		}
		now, err := e.now()
		if err != nil {
			return err
		}
		since = now.Add(-d)
	}
	entries := []journal.Entry{}
	for loc, err := range journal.Read(dir, since) {
		if err != nil {
			return err
		}
		if !loc.Entry.Time.Before(since) {
			entries = append(entries, loc.Entry)
		}
	}
	if jsonFlag.Get(c) {
		return e.printJSON(entries)
	}
	var b strings.Builder
	for _, en := range entries {
		fmt.Fprintf(&b, "%d\t%s\t%s\t%s\n", en.Seq, rfc3339(en.Time), en.Op, logDetail(en))
	}
	_, err = fmt.Fprint(e.stdout, b.String())
	return err
}

// logDetail is the human summary of an entry's fields, those that are set.
func logDetail(en journal.Entry) string {
	var parts []string
	add := func(format string, a ...any) { parts = append(parts, fmt.Sprintf(format, a...)) }
	if en.Checkpoint != "" {
		add("%s", en.Checkpoint)
	}
	if en.Session != "" {
		add("session %s", escape.Label(en.Session))
	}
	if en.Artifact != "" {
		add("artifact %s", shortHash(en.Artifact))
	}
	if en.NewClaims+en.KnownClaims > 0 {
		add("%d new claim(s), %d known", en.NewClaims, en.KnownClaims)
	}
	if en.Claims > 0 {
		add("%d claim(s)", en.Claims)
	}
	if en.Artifacts > 0 {
		add("%d artifact(s)", en.Artifacts)
	}
	if en.Bytes > 0 {
		add("%d bytes", en.Bytes)
	}
	if en.Findings > 0 {
		add("%d finding(s)", en.Findings)
	}
	if en.Purge {
		add("purged: cannot be undone")
	}
	if en.Target > 0 {
		add("record %d", en.Target)
	}
	if en.Compiler != "" {
		add("%s", en.Compiler)
	}
	return orDash(strings.Join(parts, ", "))
}

// shortHash shortens a hash for the human views.
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
