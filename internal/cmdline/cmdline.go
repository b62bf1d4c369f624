// Package cmdline is memoree's command tree: it parses a command line and runs the command. The commands
// that read or write the recall store come from the caller as a [Store], so that this package does not link
// the SQLite engine.
package cmdline

import (
	"context"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/app"
)

// Flags that several commands share.
var (
	fileFlag         = &cli.StringFlag{Name: "file", Usage: "read the text from `PATH`"}
	jsonFlag         = &cli.BoolFlag{Name: "json", Usage: "print the result as JSON"}
	allowFlaggedFlag = &cli.BoolFlag{Name: "allow-flagged", Usage: "preview or promote a note even though the secret scan flagged it"}
	limitFlag        = &cli.IntFlag{Name: "limit", Value: 10, Usage: "at most `N` results (1 to 1000)"}
)

// Store runs the commands that read or write the recall store; package main provides them, so that this
// package does not link the SQLite engine. A command whose runner is nil fails with a message.
type Store struct {
	Remember, PendingPreview, PendingApply Runner
	Recall, Search, ContextBuild           Runner
	ArtifactShow, ArtifactGC, Optimize     Runner
}

// Runner runs one command.
type Runner func(*cli.Context, *app.Env) error

// Run is the whole program: it parses args, runs the command and returns the exit code. store runs the
// store commands.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer, store Store) int {
	e := app.NewEnv(stdin, stdout, stderr)
	if code, ok := app.Checkpoint(e, args); ok {
		return code
	}
	tree := newApp(e, store)
	err := unknownCommand(tree, args)
	if err == nil {
		err = tree.RunContext(context.Background(), reorder(tree, args))
	}
	return app.Report(e, err, func() string { return commandPath(tree, args) })
}

func newApp(e *app.Env, store Store) *cli.App {
	tree := &cli.App{
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
   3 refused because the note is flagged (scan: a possible secret found), 130 interrupted while
   reading stdin

ENVIRONMENT:
   MEMOREE_HOME     data directory (default: $XDG_DATA_HOME/memoree)
   MEMOREE_SESSION  session ID when --session is not given
   MEMOREE_NOW      the current time, RFC 3339, for reproducible runs`,
		Reader:          e.Stdin,
		Writer:          e.Stdout,
		ErrWriter:       e.Stderr,
		HideHelpCommand: true,
		Version:         version(),
		ExitErrHandler:  func(*cli.Context, error) {},
		Commands: []*cli.Command{
			checkpointCommand(e),
			pendingCommand(e, store),
			scanCommand(e),
			rememberCommand(e, store),
			recallCommand(e, store),
			searchCommand(e, store),
			contextCommand(e, store),
			artifactCommand(e, store),
			optimizeCommand(e, store),
		},
	}
	onUsage := func(_ *cli.Context, err error, _ bool) error { return app.Usagef("%s", err) }
	tree.OnUsageError = onUsage
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			// OnUsageError is not inherited by subcommands.
			c.OnUsageError = onUsage
			walk(c.Subcommands)
		}
	}
	walk(tree.Commands)
	return tree
}

// reorder moves the flags of the command being called in front of its positional arguments, so that flags work
// after arguments too (urfave/cli stops parsing flags at the first argument). Everything after a "--" stays
// positional; a "--" is put between flags and arguments so that an argument that starts with a dash is not
// taken for a flag.
func reorder(tree *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	rest := args[1:]
	cmds := tree.Commands
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
func unknownCommand(tree *cli.App, args []string) error {
	cmds, path := tree.Commands, "memoree"
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") || len(cmds) == 0 || a == "help" {
			return nil
		}
		c := findCommand(cmds, a)
		if c == nil {
			return app.Usagef("%s has no command %q", path, a)
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
func commandPath(tree *cli.App, args []string) string {
	path := []string{"memoree"}
	cmds := tree.Commands
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
