package main

// Output policy for the whole program: stdout carries results only; diagnostics go to stderr as
// "memoree: error: …", "memoree: warning: …" or "memoree: hint: …", lowercase, without a final period.
// Errors never go to stdout, even with --json. Exit codes are chosen in one place, [exitCode]:
//
//	0   success
//	1   operational failure (I/O, permissions, not found)
//	2   usage error or rejected input
//	3   refused because the note is flagged as holding a possible secret
//	130 interrupted while waiting on stdin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/adrg/xdg"
	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/checkpoint"
)

// Exit codes; see the policy at the top of this file.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitFlagged     = 3
	exitInterrupted = 130
)

// errFlagged marks a refusal to promote a note flagged by the secret scan; the store commands wrap it.
var errFlagged = errors.New("flagged")

// quietExit ends a command with an exit code and no message: the command has already said what it found.
type quietExit int

func (q quietExit) Error() string { return fmt.Sprintf("exit status %d", int(q)) }

// usageError is a mistake in how a command was called.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// env is what a command needs from the process environment, resolved once in [run].
type env struct {
	ctx            context.Context // the command's context; nothing cancels it (see run)
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// now returns the clock: MEMOREE_NOW (RFC 3339) when set, for reproducible runs, else the system time.
func (e *env) now() (time.Time, error) {
	v := e.getenv("MEMOREE_NOW")
	if v == "" {
		return time.Now().UTC(), nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, usagef("MEMOREE_NOW=%q is not an RFC 3339 time such as 2026-01-02T15:04:05Z", v)
	}
	return t.UTC(), nil
}

// dataDir returns $MEMOREE_HOME, else the XDG data home plus /memoree.
func (e *env) dataDir() (string, error) {
	if d := e.getenv("MEMOREE_HOME"); d != "" {
		return filepath.Abs(d)
	}
	if xdg.DataHome == "" {
		return "", errors.New("no data directory: set MEMOREE_HOME or XDG_DATA_HOME")
	}
	return filepath.Join(xdg.DataHome, "memoree"), nil
}

func (e *env) warnf(format string, a ...any) {
	fmt.Fprintf(e.stderr, "memoree: warning: "+format+"\n", a...)
}
func (e *env) hintf(format string, a ...any) {
	fmt.Fprintf(e.stderr, "memoree: hint: "+format+"\n", a...)
}

// run is the whole program: it parses args, runs the command and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if handed, err := handOffEarly(args); handed {
		fmt.Fprintf(stderr, "memoree: error: %v\n", err)
		return exitCode(err)
	}
	fast, ok := fastCheckpoint(args)
	// No signal handler here: memoree catches SIGINT and SIGTERM only while stdin keeps it waiting (see
	// readStdin). At any other time it dies by the signal, which a shell reports as 130 for SIGINT, and leaves
	// nothing half-written: each file is replaced atomically and each store change is one transaction. The
	// handler costs every start an extra thread, and a cancellable context costs a goroutine per statement.
	ctx := context.Background()
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}
	var err error
	var app *cli.App
	if ok {
		err = runCheckpoint(fast, e)
	} else {
		app = newApp(e)
		if err = unknownCommand(app, args); err == nil {
			err = app.RunContext(ctx, reorder(app, args))
		}
	}
	code := exitCode(err)
	var q quietExit
	if err != nil && !errors.As(err, &q) {
		fmt.Fprintf(stderr, "memoree: error: %v\n", err)
		var ue *usageError
		if errors.As(err, &ue) {
			if app == nil {
				app = newApp(e)
			}
			e.hintf("run '%s --help' for usage", commandPath(app, args))
		}
	}
	return code
}

// fastCheckpoint reports whether args are a well-formed checkpoint call that [parseCheckpoint] can take
// without the command tree.
func fastCheckpoint(args []string) (checkpointArgs, bool) {
	if len(args) < 2 || args[1] != "checkpoint" {
		return checkpointArgs{}, false
	}
	return parseCheckpoint(args[2:])
}

// exitCode maps an error to the documented exit code.
func exitCode(err error) int {
	var ue *usageError
	var q quietExit
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &q):
		return int(q)
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &ue), errors.Is(err, checkpoint.ErrInput):
		return exitUsage
	case errors.Is(err, errFlagged):
		return exitFlagged
	}
	return exitFailure
}

func newApp(e *env) *cli.App {
	app := &cli.App{
		Name:      "memoree",
		Usage:     "stage session checkpoints and promote reviewed ones into memory",
		UsageText: "memoree COMMAND [options] [arguments]",
		Description: `memoree gives coding agents a safe place for session checkpoints: short continuity notes
written before a context window is compacted or handed off. A checkpoint stays quarantined in the
pending directory until a person reviews it with 'memoree pending' and either applies it into the
recall store or drops it.

EXAMPLES:
   printf '%s' 'Storage recall is implemented; next verify the regression corpus.' |
     memoree checkpoint --session S1 --task retrieval -
   memoree pending list
   memoree pending show ck-7f3a
   memoree pending preview ck-7f3a
   memoree pending apply ck-7f3a
   memoree recall "regression corpus"
   memoree context build --query "recall work" --budget 1500

EXIT STATUS:
   0 success, 1 failure (I/O, permissions, not found), 2 usage error or rejected input,
   3 refused because the note is flagged, 130 interrupted

ENVIRONMENT:
   MEMOREE_HOME     data directory (default: $XDG_DATA_HOME/memoree)
   MEMOREE_SESSION  session ID when --session is not given
   MEMOREE_NOW      the current time, RFC 3339, for reproducible runs`,
		Reader:          e.stdin,
		Writer:          e.stdout,
		ErrWriter:       e.stderr,
		HideHelpCommand: true,
		Version:         version(),
		ExitErrHandler:  func(*cli.Context, error) {},
		Commands: []*cli.Command{
			checkpointCommand(e),
			pendingCommand(e),
			scanCommand(e),
			rememberCommand(e),
			recallCommand(e),
			searchCommand(e),
			contextCommand(e),
			artifactCommand(e),
		},
	}
	onUsage := func(_ *cli.Context, err error, _ bool) error { return &usageError{err.Error()} }
	app.OnUsageError = onUsage
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			// OnUsageError is not inherited by subcommands.
			c.OnUsageError = onUsage
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
	return app
}

// reorder moves the flags of the command being called in front of its positional arguments, so that flags work
// after arguments too (urfave/cli stops parsing flags at the first argument). Everything after a "--" stays
// positional; a "--" is put between flags and arguments so that an argument that starts with a dash is not
// taken for a flag.
func reorder(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	rest := args[1:]
	cmds := app.Commands
	var cmd *cli.Command
	// Walk down the command names; app-level flags (only --help) may precede them.
	for len(rest) > 0 {
		a := rest[0]
		if strings.HasPrefix(a, "-") {
			break
		}
		next := findCommand(cmds, a)
		if next == nil {
			break
		}
		cmd = next
		out = append(out, a)
		rest = rest[1:]
		cmds = cmd.Subcommands
		if len(cmds) == 0 {
			break
		}
	}
	if cmd == nil || len(cmd.Subcommands) > 0 {
		return append(out, rest...)
	}
	var flags, positional []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			positional = append(positional, rest[i+1:]...)
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		if !strings.Contains(a, "=") && takesValue(cmd, a) && i+1 < len(rest) {
			flags = append(flags, rest[i+1])
			i++
		}
	}
	out = append(out, flags...)
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out
}

// unknownCommand returns a usage error when args name a command that does not exist, which urfave/cli would
// otherwise report as a missing help topic with exit status 1.
func unknownCommand(app *cli.App, args []string) error {
	cmds, path := app.Commands, "memoree"
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") || len(cmds) == 0 || a == "help" {
			return nil
		}
		c := findCommand(cmds, a)
		if c == nil {
			return usagef("%s has no command %q", path, a)
		}
		cmds, path = c.Subcommands, path+" "+a
	}
	return nil
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// takesValue reports whether the flag named by arg (with its dashes) needs a value.
func takesValue(cmd *cli.Command, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				_, isBool := f.(*cli.BoolFlag)
				return !isBool
			}
		}
	}
	return false
}

// commandPath returns "memoree" plus the command names that args call, for hints.
func commandPath(app *cli.App, args []string) string {
	path := []string{"memoree"}
	cmds := app.Commands
	for _, a := range args[1:] {
		c := findCommand(cmds, a)
		if c == nil {
			break
		}
		path = append(path, a)
		cmds = c.Subcommands
	}
	return strings.Join(path, " ")
}
