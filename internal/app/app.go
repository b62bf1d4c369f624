// Package app holds what every memoree command needs (its environment, input, output and exit status) and the
// checkpoint command. It leaves out the command tree and the SQLite engine, so that it can run checkpoint, the
// call agents make most, before the rest of the program is initialized (see early.go).
package app

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
	"time"

	"github.com/adrg/xdg"

	"github.com/memoree/memoree/checkpoint"
)

// Exit codes; see the policy at the top of this file.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	ExitFlagged     = 3 // exported for commands that end with [QuietExit]
	exitInterrupted = 130
)

// QuietExit ends a command with an exit code and no message: the command has already said what it found.
type QuietExit int

func (q QuietExit) Error() string { return fmt.Sprintf("exit status %d", int(q)) }

// usageError is a mistake in how a command was called.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// Usagef returns a usage error (exit status 2) with a formatted message.
func Usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// flaggedError is a refusal to promote a note that the secret scan flagged.
type flaggedError struct{ msg string }

func (e *flaggedError) Error() string { return e.msg }

// Flaggedf returns a refusal to promote a flagged note (exit status 3) with a formatted message.
func Flaggedf(format string, a ...any) error { return &flaggedError{fmt.Sprintf(format, a...)} }

// Env is what a command needs from the process environment; [NewEnv] makes one.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// NewEnv returns the environment of a command that reads stdin and writes stdout and stderr, in this process's
// environment variables.
func NewEnv(stdin io.Reader, stdout, stderr io.Writer) *Env {
	// No signal handler here: memoree catches SIGINT and SIGTERM only while stdin keeps it waiting (see
	// readStdin). At any other time it dies by the signal, which a shell reports as 130 for SIGINT, and leaves
	// nothing half-written: each file is replaced atomically and each store change is one transaction. The
	// handler costs every start an extra thread, and a cancellable context costs a goroutine per statement.
	return &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv}
}

// Now returns the clock: MEMOREE_NOW (RFC 3339) when set, for reproducible runs, else the system time.
func (e *Env) Now() (time.Time, error) {
	v := e.Getenv("MEMOREE_NOW")
	if v == "" {
		return time.Now().UTC(), nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, Usagef("MEMOREE_NOW=%q is not an RFC 3339 time such as 2026-01-02T15:04:05Z", v)
	}
	return t.UTC(), nil
}

// DataDir returns $MEMOREE_HOME, else the XDG data home plus /memoree.
func (e *Env) DataDir() (string, error) {
	if d := e.Getenv("MEMOREE_HOME"); d != "" {
		return filepath.Abs(d)
	}
	if xdg.DataHome == "" {
		return "", errors.New("no data directory: set MEMOREE_HOME or XDG_DATA_HOME")
	}
	return filepath.Join(xdg.DataHome, "memoree"), nil
}

// Warnf prints a warning to stderr.
func (e *Env) Warnf(format string, a ...any) {
	fmt.Fprintf(e.Stderr, "memoree: warning: "+format+"\n", a...)
}

// Hintf prints a hint to stderr.
func (e *Env) Hintf(format string, a ...any) {
	fmt.Fprintf(e.Stderr, "memoree: hint: "+format+"\n", a...)
}

// FastCheckpoint reports whether args (program name first) are a well-formed checkpoint call that
// [parseCheckpoint] can take without the command tree.
func FastCheckpoint(args []string) (CheckpointArgs, bool) {
	if len(args) < 2 || args[1] != "checkpoint" {
		return CheckpointArgs{}, false
	}
	return parseCheckpoint(args[2:])
}

// Checkpoint runs args (program name first) when they are a well-formed checkpoint call, without the command
// tree, and returns its exit code; it reports false, having done nothing, for any other command line.
func Checkpoint(e *Env, args []string) (int, bool) {
	a, ok := FastCheckpoint(args)
	if !ok {
		return 0, false
	}
	return Report(e, RunCheckpoint(a, e), func() string { return "memoree checkpoint" }), true
}

// Report prints what went wrong in a command that ended with err, if anything, and returns the exit code. A
// usage error gets a hint to run the help of the command that hint names ("memoree checkpoint").
func Report(e *Env, err error, hint func() string) int {
	var q QuietExit
	if err != nil && !errors.As(err, &q) {
		fmt.Fprintf(e.Stderr, "memoree: error: %v\n", err)
		var ue *usageError
		if errors.As(err, &ue) {
			e.Hintf("run '%s --help' for usage", hint())
		}
	}
	return exitCode(err)
}

// exitCode maps an error to the documented exit code.
func exitCode(err error) int {
	var ue *usageError
	var fe *flaggedError
	var q QuietExit
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &q):
		return int(q)
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &ue), errors.Is(err, checkpoint.ErrInput):
		return exitUsage
	case errors.As(err, &fe):
		return ExitFlagged
	}
	return exitFailure
}
