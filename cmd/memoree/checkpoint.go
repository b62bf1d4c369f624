package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/checkpoint"
	"github.com/memoree/memoree/pending"
	"github.com/memoree/memoree/scan"
)

func checkpointCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "checkpoint",
		Usage:     "stage a continuity note for the session (one per session; a later one replaces it)",
		ArgsUsage: "(- | --file PATH | TEXT...)",
		Description: `Stages the note as the pending checkpoint of the session. Input is UTF-8, at most 64 KiB;
at most 4096 bytes are stored, cut with a truncation marker. A note that looks like it holds a
secret is still staged, with a warning, and stays flagged.

EXAMPLES:
   printf '%s' 'Storage recall is implemented; next verify the regression corpus.' |
     memoree checkpoint --session S1 --task retrieval -
   memoree checkpoint --session S1 --file notes.md --json
   MEMOREE_SESSION=S1 memoree checkpoint -- '-v is the verbose flag now'`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "session `ID` (default: $MEMOREE_SESSION)"},
			&cli.StringFlag{Name: "task", Usage: "task `LABEL` (kept from the earlier checkpoint when not given)"},
			fileFlag,
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"},
		},
		Action: func(c *cli.Context) error { return runCheckpoint(checkpointArgsFrom(c), e) },
	}
}

// checkpointArgs is what a checkpoint command line says, whichever parser read it.
type checkpointArgs struct {
	session, task, file string
	sessionSet, taskSet bool
	json                bool
	text                []string // positional arguments: "-" or the words of the note
}

func checkpointArgsFrom(c *cli.Context) checkpointArgs {
	return checkpointArgs{
		session: c.String("session"), sessionSet: c.IsSet("session"),
		task: c.String("task"), taskSet: c.IsSet("task"),
		file: c.String("file"), json: c.Bool("json"), text: c.Args().Slice(),
	}
}

// parseCheckpoint reads a well-formed checkpoint command line (the arguments after "checkpoint") without
// building the command tree. Agents call checkpoint many times per session and each call is a process, so the
// hot path skips urfave/cli's setup, about a sixth of the command's time above the floor. It reports false for
// anything else (help, an unknown flag, a flag without its value), which the full parser then handles, so
// errors and help read the same either way; TestParseCheckpoint holds the two parsers to the same result.
func parseCheckpoint(args []string) (a checkpointArgs, ok bool) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			a.text = append(a.text, args[i+1:]...)
			break
		}
		if arg == "-" || !strings.HasPrefix(arg, "-") {
			a.text = append(a.text, arg)
			continue
		}
		if strings.HasPrefix(arg, "---") {
			return checkpointArgs{}, false
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if name == "json" && !hasValue {
			a.json = true
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return checkpointArgs{}, false
			}
			i++
			value = args[i]
		}
		switch name {
		case "session":
			a.session, a.sessionSet = value, true
		case "task":
			a.task, a.taskSet = value, true
		case "file":
			a.file = value
		default:
			return checkpointArgs{}, false
		}
	}
	return a, true
}

// checkpointJSON is the --json shape of a staged checkpoint: the item as 'pending list' shows it, with every
// finding of the input (also those past the cut, marked not stored) and whether an earlier checkpoint was
// replaced.
type checkpointJSON struct {
	itemJSON
	Replaced bool `json:"replaced"`
}

type findingJSON struct {
	Rule    string `json:"rule"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Preview string `json:"preview"`
	Stored  bool   `json:"stored"`
}

func runCheckpoint(a checkpointArgs, e *env) error {
	session := a.session
	if !a.sessionSet {
		session = e.getenv("MEMOREE_SESSION")
	}
	if session == "" && !a.sessionSet {
		return usagef("no session: give --session ID or set MEMOREE_SESSION")
	}
	if err := checkpoint.CheckLabel("session ID", session); err != nil {
		return err
	}
	task := a.task
	if a.taskSet {
		if err := checkpoint.CheckLabel("task", task); err != nil {
			return err
		}
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	text, err := readText(e, a.text, a.file)
	if err != nil {
		return err
	}
	stored, kept := checkpoint.Cap(text)
	findings := scan.Text(string(text))
	var inStored []scan.Finding
	for _, f := range findings {
		if f.Start < kept {
			inStored = append(inStored, f)
		}
	}
	dir, err := openPending(e)
	if err != nil {
		return err
	}
	it, replaced, err := dir.Put(pending.Note{
		Session: session, Task: task, Text: stored, OriginalBytes: len(text), Findings: inStored,
	}, now)
	if err != nil {
		return err
	}
	warnFindings(e, it.ID, findings, kept)

	if a.json {
		out := checkpointJSON{toItemJSON(it), replaced}
		out.Findings = []findingJSON{}
		for _, f := range findings {
			out.Findings = append(out.Findings, findingJSON{f.Rule, f.Line, f.Column, f.Preview, f.Start < kept})
		}
		return printJSON(e.stdout, out)
	}
	verb := "staged"
	if replaced {
		verb = "replaced"
	}
	detail := ""
	if it.Truncated {
		detail = fmt.Sprintf(", truncated from %d", len(text))
	}
	if it.Flagged {
		detail += ", flagged"
	}
	_, err = fmt.Fprintf(e.stdout, "%s %s (session %s, %d bytes%s)\n", verb, it.ID, escapeLabel(session), it.Bytes, detail)
	return err
}

// warnFindings tells on stderr what the secret scan found, with redacted previews only. kept is how many bytes of
// the input were stored: findings past it are reported as not stored. With a checkpoint id, it also says that the
// checkpoint is flagged.
func warnFindings(e *env, id string, findings []scan.Finding, kept int) {
	flagged := false
	for _, f := range findings {
		where := ""
		if f.Start >= kept {
			where = " (past the 4 KiB cut, not stored)"
		} else {
			flagged = true
		}
		e.warnf("possible secret (%s) at line %d, column %d: %s%s", f.Rule, f.Line, f.Column, f.Preview, where)
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
