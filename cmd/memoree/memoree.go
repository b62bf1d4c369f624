package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/adrg/xdg"
	"github.com/urfave/cli/v2"
)

// env is what a command needs from the process: its streams, its environment variables and whether the
// command line asked for JSON (which decides how errors are printed).
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	json           bool
	args           []string // the command line, for messages that name what was typed
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

// dataDir returns the data directory: $MEMOREE_HOME, else $XDG_DATA_HOME/memoree, else the platform's data
// home (~/.local/share/memoree on Linux). It never falls back to a directory relative to the filesystem root:
// with neither HOME nor XDG_DATA_HOME set, it fails and names MEMOREE_HOME.
func (e *env) dataDir() (string, error) {
	if d := e.getenv("MEMOREE_HOME"); d != "" {
		return filepath.Abs(d)
	}
	if d := e.getenv("XDG_DATA_HOME"); d != "" {
		if !filepath.IsAbs(d) {
			return "", usagef("XDG_DATA_HOME=%q is not an absolute path: fix it, or set MEMOREE_HOME to the data directory", d)
		}
		return filepath.Join(d, "memoree"), nil
	}
	if home := e.getenv("HOME"); home == "" || !filepath.IsAbs(home) {
		return "", usagef("no data directory: HOME and XDG_DATA_HOME are unset; set MEMOREE_HOME to the directory memoree should use")
	}
	return filepath.Join(xdg.DataHome, "memoree"), nil
}

// Flags that several commands share. Each is one value that the commands refer to, so a misspelt flag is a
// compile error rather than a silent empty string.
var (
	fileFlag         = &cli.StringFlag{Name: "file", Aliases: []string{"f"}, Usage: "read the text from `PATH`"}
	jsonFlag         = &cli.BoolFlag{Name: "json", Usage: "print the result as one JSON document", DisableDefaultText: true}
	allowFlaggedFlag = &cli.BoolFlag{Name: "allow-flagged", Usage: "go ahead even though the scan flagged the note", DisableDefaultText: true}
	limitFlag        = &cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 10, Usage: "at most `N` results (1 to 1000)"}
	taskFlag         = &cli.StringFlag{Name: "task", Aliases: []string{"t"}, Usage: "task `LABEL` recorded with the note and heading its claims' context, so a question naming it finds them"}
)

// run is the whole program: it parses args (program name first), runs the command and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, json: wantsJSON(args), args: args}
	// A caught SIGINT or SIGTERM cancels the command's context: a read of stdin stops at once, and a store
	// change is one transaction, so nothing is left half-written.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tree := newApp(e)
	ordered, err := reorder(tree, args)
	if err == nil {
		err = unknownCommand(tree, args)
	}
	if err == nil {
		err = tree.RunContext(ctx, ordered)
	}
	return e.report(err, commandPath(tree, args))
}

// wantsJSON reports whether the command line asks for JSON, before it is parsed, so that even a parse error
// can be reported as JSON.
func wantsJSON(args []string) bool {
	for _, a := range args[1:] {
		switch a {
		case "--":
			return false
		case "--json", "-json", "--json=true", "-json=true":
			return true
		}
	}
	return false
}

const appDescription = `memoree gives coding agents a safe place for session checkpoints: short continuity notes
written before a context window is compacted or handed off. A checkpoint stays quarantined in the
pending directory until a person reviews it with 'memoree pending' and either applies it into the
recall store or drops it. 'memoree instructions' prints what to tell an agent about it.`

const appExamples = `printf '%s' 'Storage recall is implemented; next verify the regression corpus.' |
  memoree checkpoint --session S1 --task retrieval -
memoree pending list
memoree pending show ck-7f3a
memoree pending preview ck-7f3a
memoree pending apply ck-7f3a
memoree recall "regression corpus"
memoree context build --query "recall work" --budget 1500`

// exitStatusText and environmentText are shown by --help and the man page.
const exitStatusText = `0    success
1    failure: I/O, permissions, not found, or an ID prefix that matches several
2    usage error or rejected input (nothing was written)
3    refused because the scan flagged the note (a possible secret or an instruction to the agent)
130  interrupted by SIGINT or SIGTERM (nothing was written)`

const environmentText = `MEMOREE_HOME     data directory (default: $XDG_DATA_HOME/memoree)
XDG_DATA_HOME    base of the default data directory (default: $HOME/.local/share)
MEMOREE_SESSION  session ID of checkpoint when --session is not given
MEMOREE_NOW      the current time, RFC 3339, for reproducible runs
NO_COLOR         memoree prints no colour in any case`

func newApp(e *env) *cli.App {
	cli.VersionFlag = versionFlag
	tree := &cli.App{
		Name:      "memoree",
		Usage:     "stage session checkpoints and promote reviewed ones into memory",
		UsageText: "memoree COMMAND [options] [arguments]",
		Description: appDescription + "\n\nEXAMPLES:\n" + indent(appExamples) +
			"\n\nEXIT STATUS:\n" + indent(exitStatusText) + "\n\nENVIRONMENT:\n" + indent(environmentText),
		Reader:          e.stdin,
		Writer:          e.stdout,
		ErrWriter:       e.stderr,
		HideHelpCommand: true,
		Version:         version(),
		ExitErrHandler:  func(*cli.Context, error) {},
		Commands: []*cli.Command{
			checkpointCommand(e),
			pendingCommand(e),
			rememberCommand(e),
			recallCommand(e),
			searchCommand(e),
			contextCommand(e),
			artifactCommand(e),
			scanCommand(e),
			forgetCommand(e),
			undoCommand(e, false),
			undoCommand(e, true),
			logCommand(e),
			exportCommand(e),
			importCommand(e),
			evalCommand(e),
			statusCommand(e),
			reindexCommand(e),
			optimizeCommand(e),
			instructionsCommand(e),
			completionCommand(e),
		},
	}
	tree.Commands = append(tree.Commands, helpCommand(e, tree))
	// urfave/cli adds its --help flag only when no command is called help.
	tree.Flags = append(tree.Flags, cli.HelpFlag)
	onUsage := func(c *cli.Context, err error, _ bool) error {
		known := map[string]bool{}
		flags := c.App.Flags
		if c.Command != nil {
			flags = c.Command.Flags
		}
		for _, f := range flags {
			for _, n := range f.Names() {
				known[n] = true
			}
			// The parser says only "parse error" for a duration it cannot read ("7d").
			if _, ok := f.(*cli.DurationFlag); ok {
				if m := badValueRE.FindStringSubmatch(err.Error()); m != nil && slices.Contains(f.Names(), m[2]) {
					return usagef("%s %q is not a duration: give one such as 30m, 24h or 168h (a week)", dashes(m[2]), m[1])
				}
			}
		}
		return usagef("%s", flagMessage(err, e.args, known))
	}
	tree.OnUsageError = onUsage
	walk(tree.Commands, func(c *cli.Command, _ []string) {
		// Neither is inherited by subcommands.
		c.OnUsageError = onUsage
		c.HideHelpCommand = true
	})
	return tree
}

// walk calls f on every command below cmds, depth first, with the names of its parents.
func walk(cmds []*cli.Command, f func(c *cli.Command, parents []string)) {
	var rec func([]*cli.Command, []string)
	rec = func(cmds []*cli.Command, parents []string) {
		for _, c := range cmds {
			f(c, parents)
			rec(c.Subcommands, append(append([]string(nil), parents...), c.Name))
		}
	}
	rec(cmds, nil)
}

// indent indents each line of s by three spaces, as urfave/cli lays out help sections.
func indent(s string) string {
	return "   " + strings.ReplaceAll(s, "\n", "\n   ")
}

// withDoc appends an EXAMPLES section to a command's description.
func withDoc(description, examples string) string {
	if description == "" {
		return "EXAMPLES:\n" + indent(examples)
	}
	return description + "\n\nEXAMPLES:\n" + indent(examples)
}

// Go's flag package names flags with one dash; users type two.
var (
	undefinedFlagRE = regexp.MustCompile(`^flag provided but not defined: -+(\S+)$`)
	flagDashRE      = regexp.MustCompile(`(^|\s)-{1,2}([A-Za-z][\w-]*)`)
	badValueRE      = regexp.MustCompile(`^invalid value "(.*)" for flag -+([\w-]+): parse error$`)
)

// flagMessage rewrites a flag parse error to name the flag as users type it (--json, not -json). A name of
// several letters typed after one dash that are the command's short flags together (-as), or one with its
// value (-n3), is named as typed, with what to give instead, rather than as a --as nobody typed.
func flagMessage(err error, args []string, known map[string]bool) string {
	msg := err.Error()
	if m := undefinedFlagRE.FindStringSubmatch(msg); m != nil {
		name := m[1]
		typed := slices.Contains(args, "-"+name) && !slices.Contains(args, "--"+name)
		if len(name) > 1 && typed && !known[name[:1]] {
			return fmt.Sprintf("unknown flag -%s", name)
		}
		if len(name) > 1 && typed {
			apart := "-" + name[:1] + " " + name[1:] // a value: -n3 is -n 3
			if !strings.ContainsFunc(name, func(r rune) bool { return !known[string(r)] }) {
				apart = "-" + strings.Join(strings.Split(name, ""), " -") // flags: -as is -a -s
			}
			return fmt.Sprintf("unknown flag -%s: short flags are not written together or with their value: give %s", name, apart)
		}
		return fmt.Sprintf("unknown flag %s", dashes(name))
	}
	return flagDashRE.ReplaceAllStringFunc(msg, func(s string) string {
		m := flagDashRE.FindStringSubmatch(s)
		return m[1] + dashes(m[2])
	})
}

// dashes returns a flag name as it is typed: -n for one letter, --limit otherwise.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// reorder moves the flags of the command being called in front of its positional arguments, so that flags work
// after arguments too (urfave/cli stops parsing flags at the first argument). Everything after a "--" stays
// positional; a "--" is put between flags and arguments so that an argument that starts with a dash is not
// taken for a flag. A flag that needs a value but ends the command line is a usage error: moved in front of
// the "--", it would take that for its value.
func reorder(tree *cli.App, args []string) ([]string, error) {
	if len(args) < 2 {
		return args, nil
	}
	out := []string{args[0]}
	rest := args[1:]
	cmds := tree.Commands
	var cmd *cli.Command
	// Walk down the command names; app-level flags (only --help and --version) may precede them.
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
		return append(out, rest...), nil
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
		if !strings.Contains(a, "=") && takesValue(cmd, a) {
			if i+1 >= len(rest) {
				return nil, usagef("flag needs an argument: %s", dashes(strings.TrimLeft(a, "-")))
			}
			flags = append(flags, rest[i+1])
			i++
		}
	}
	out = append(out, flags...)
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out, nil
}

// unknownCommand returns a usage error when args name a command that does not exist, which urfave/cli would
// otherwise report as a missing help topic with exit status 1.
func unknownCommand(tree *cli.App, args []string) error {
	cmds, path := tree.Commands, "memoree"
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") || len(cmds) == 0 {
			return nil
		}
		c := findCommand(cmds, a)
		if c == nil {
			return usagef("%s has no command %q", path, a)
		}
		if c.Name == "help" {
			return nil
		}
		cmds, path = c.Subcommands, path+" "+a
	}
	if len(args) > 1 && len(cmds) > 0 && path != "memoree" {
		return usagef("%s needs a command: %s", path, commandNames(cmds))
	}
	return nil
}

// commandNames lists the names of cmds, for messages.
func commandNames(cmds []*cli.Command) string {
	names := make([]string, 0, len(cmds))
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
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
		path = append(path, c.Name)
		cmds = c.Subcommands
	}
	return strings.Join(path, " ")
}

// helpCommand is 'memoree help [COMMAND...]': the same page as 'memoree COMMAND... --help'.
func helpCommand(e *env, tree *cli.App) *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "show the help of memoree or of a command",
		ArgsUsage: "[COMMAND [SUBCOMMAND]]",
		Description: withDoc("Shows the same page as 'memoree COMMAND --help', for every command 'memoree help' lists.",
			"memoree help\nmemoree help pending apply"),
		Action: func(c *cli.Context) error {
			names := c.Args().Slice()
			if len(names) == 1 && names[0] == "help" {
				return cli.ShowCommandHelp(c, "help")
			}
			cmds := tree.Commands
			for i, n := range names {
				cmd := findCommand(cmds, n)
				if cmd == nil {
					return usagef("no help for %q: %s has no such command; run 'memoree help' for the list",
						n, strings.Join(append([]string{"memoree"}, names[:i]...), " "))
				}
				cmds = cmd.Subcommands
			}
			return newApp(e).RunContext(c.Context, append(append([]string{"memoree"}, names...), "--help"))
		},
	}
}

// errNoStore is the failure of a command that needs stored memory when there is none yet (eval, forget).
// Queries do not return it: with no store, recall, search and context build answer with an empty result.
var errNoStore = errors.New("nothing has been stored yet")
