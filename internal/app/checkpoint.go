package app

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memoree/memoree/checkpoint"
	"github.com/memoree/memoree/pending"
	"github.com/memoree/memoree/scan"
)

// CheckpointArgs is what a checkpoint command line says, whichever parser read it.
type CheckpointArgs struct {
	Session, Task, File string
	SessionSet, TaskSet bool
	JSON                bool
	Text                []string // positional arguments: "-" or the words of the note
}

// parseCheckpoint reads a well-formed checkpoint command line (the arguments after "checkpoint") without
// building the command tree. Agents call checkpoint many times per session and each call is a process, so the
// hot path skips urfave/cli's setup, about a sixth of the command's time above the floor. It reports false for
// anything else (help, an unknown flag, a flag without its value), which the full parser then handles, so
// errors and help read the same either way; TestParseCheckpoint holds the two parsers to the same result.
func parseCheckpoint(args []string) (a CheckpointArgs, ok bool) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			a.Text = append(a.Text, args[i+1:]...)
			break
		}
		if arg == "-" || !strings.HasPrefix(arg, "-") {
			a.Text = append(a.Text, arg)
			continue
		}
		if strings.HasPrefix(arg, "---") {
			return CheckpointArgs{}, false
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if name == "json" && !hasValue {
			a.JSON = true
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return CheckpointArgs{}, false
			}
			i++
			value = args[i]
		}
		switch name {
		case "session":
			a.Session, a.SessionSet = value, true
		case "task":
			a.Task, a.TaskSet = value, true
		case "file":
			a.File = value
		default:
			return CheckpointArgs{}, false
		}
	}
	return a, true
}

// checkpointJSON is the --json shape of a staged checkpoint: the item as 'pending list' shows it, with every
// finding of the input (also those past the cut, marked not stored) and whether an earlier checkpoint was
// replaced.
type checkpointJSON struct {
	ItemJSON
	Replaced bool `json:"replaced"`
}

type findingJSON struct {
	Rule    string `json:"rule"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Preview string `json:"preview"`
	Stored  bool   `json:"stored"`
}

// RunCheckpoint stages the note a checkpoint command line gives as the pending checkpoint of its session.
func RunCheckpoint(a CheckpointArgs, e *Env) error {
	session := a.Session
	if !a.SessionSet {
		session = e.Getenv("MEMOREE_SESSION")
	}
	if session == "" && !a.SessionSet {
		return Usagef("no session: give --session ID or set MEMOREE_SESSION")
	}
	if err := checkpoint.CheckLabel("session ID", session); err != nil {
		return err
	}
	task := a.Task
	if a.TaskSet {
		if err := checkpoint.CheckLabel("task", task); err != nil {
			return err
		}
	}
	now, err := e.Now()
	if err != nil {
		return err
	}
	text, err := ReadText(e, a.Text, a.File)
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
	dir, err := OpenPending(e)
	if err != nil {
		return err
	}
	it, replaced, err := dir.Put(pending.Note{
		Session: session, Task: task, Text: stored, OriginalBytes: len(text), Findings: inStored,
	}, now)
	if err != nil {
		return err
	}
	WarnFindings(e, it.ID, findings, kept)

	if a.JSON {
		out := checkpointJSON{NewItemJSON(it), replaced}
		out.Findings = []findingJSON{}
		for _, f := range findings {
			out.Findings = append(out.Findings, findingJSON{f.Rule, f.Line, f.Column, f.Preview, f.Start < kept})
		}
		return PrintJSON(e.Stdout, out)
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
	_, err = fmt.Fprintf(e.Stdout, "%s %s (session %s, %d bytes%s)\n", verb, it.ID, EscapeLabel(session), it.Bytes, detail)
	return err
}

// WarnFindings tells on stderr what the secret scan found, with redacted previews only. kept is how many bytes of
// the input were stored: findings past it are reported as not stored. With a checkpoint id, it also says that the
// checkpoint is flagged.
func WarnFindings(e *Env, id string, findings []scan.Finding, kept int) {
	flagged := false
	for _, f := range findings {
		where := ""
		if f.Start >= kept {
			where = " (past the 4 KiB cut, not stored)"
		} else {
			flagged = true
		}
		e.Warnf("possible secret (%s) at line %d, column %d: %s%s", f.Rule, f.Line, f.Column, f.Preview, where)
	}
	if flagged && id != "" {
		e.Warnf("checkpoint %s is flagged: pending preview and apply will refuse it unless given --allow-flagged", id)
	}
}

// OpenPending opens the pending directory inside the data directory.
func OpenPending(e *Env) (*pending.Dir, error) {
	data, err := e.DataDir()
	if err != nil {
		return nil, err
	}
	return pending.Open(filepath.Join(data, "pending"))
}
