package main

// Output policy for the whole program: stdout carries results only; diagnostics go to stderr as
// "memoree: error: …", "memoree: warning: …" or "memoree: hint: …", lowercase, without a final period.
// Errors never go to stdout. With --json, a result is one JSON document on stdout (snake_case keys, RFC 3339
// times, arrays never null) and a failure is one JSON object on one line of stderr, {"error":"...","code":N},
// with a "hint" when there is one; warnings stay plain lines on stderr. Human views (tables, ages) are printed only
// when stdout is a terminal; otherwise commands print stable tab-separated lines that scripts can cut. Text
// that came from a note is escaped everywhere it is shown (see package escape), in JSON as \uXXXX.
//
// Exit codes are chosen in one place, [exitCode]:
//
//	0   success
//	1   operational failure (I/O, permissions, not found, an ambiguous ID prefix)
//	2   usage error or rejected input
//	3   refused because the note is flagged by the scan (a possible secret or an instruction to the agent)
//	130 interrupted by SIGINT or SIGTERM

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/memoree/memoree/checkpoint"
	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/scan"
)

const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitFlagged     = 3
	exitInterrupted = 130
)

// quietExit ends a command with an exit code and no message: the command has already said what it found.
type quietExit int

func (q quietExit) Error() string { return fmt.Sprintf("exit status %d", int(q)) }

// usageError is a mistake in how a command was called.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a usage error (exit status 2).
func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// flaggedError is a refusal to promote a note that the scan flagged.
type flaggedError struct{ msg string }

func (e *flaggedError) Error() string { return e.msg }

// flaggedf returns a refusal to promote a flagged note (exit status 3).
func flaggedf(format string, a ...any) error { return &flaggedError{fmt.Sprintf(format, a...)} }

// exitCode maps an error to the documented exit code.
func exitCode(err error) int {
	var ue *usageError
	var fe *flaggedError
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
	case errors.As(err, &fe):
		return exitFlagged
	}
	return exitFailure
}

// report prints what went wrong in a command that ended with err, if anything, and returns the exit code. A
// usage error gets a hint to run the help of cmdPath ("memoree checkpoint").
func (e *env) report(err error, cmdPath string) int {
	code := exitCode(err)
	var q quietExit
	if err == nil || errors.As(err, &q) {
		return code
	}
	hint := ""
	var ue *usageError
	if errors.As(err, &ue) {
		hint = fmt.Sprintf("run '%s --help' for usage", cmdPath)
	}
	msg := escape.Label(redactSecrets(err.Error()))
	if e.json {
		out := struct {
			Error string `json:"error"`
			Code  int    `json:"code"`
			Hint  string `json:"hint,omitempty"`
		}{msg, code, hint}
		// One line, so that an agent reading stderr line by line gets the whole object.
		if doc, err := encodeJSON(out, ""); err == nil {
			e.stderr.Write(doc)
		}
		return code
	}
	fmt.Fprintf(e.stderr, "memoree: error: %s\n", msg)
	if hint != "" {
		e.hintf("%s", hint)
	}
	return code
}

// redactSecrets replaces what the scan takes for a secret in msg by its redacted preview. An error may quote
// what the user gave (a session ID with a stray space, a --ref without =, an ID prefix), and a token pasted
// there by mistake must not reach the logs that capture stderr.
func redactSecrets(msg string) string {
	fs := scan.Text(msg)
	for i := len(fs) - 1; i >= 0; i-- {
		if f := fs[i]; f.Category != scan.CategoryInstruction {
			msg = msg[:f.Start] + f.Preview + msg[f.End:]
		}
	}
	return msg
}

// warnf prints a warning to stderr.
func (e *env) warnf(format string, a ...any) {
	fmt.Fprintf(e.stderr, "memoree: warning: "+format+"\n", a...)
}

// hintf prints a hint to stderr.
func (e *env) hintf(format string, a ...any) {
	fmt.Fprintf(e.stderr, "memoree: hint: %s\n", redactSecrets(fmt.Sprintf(format, a...)))
}

// printJSON writes v to stdout as one indented JSON document.
func (e *env) printJSON(v any) error { return writeJSON(e.stdout, v) }

// encodeJSON returns v as one JSON document, each level indented by indent (on one line when it is
// empty), with every character that could drive a terminal or hide text escaped as \uXXXX.
func encodeJSON(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", indent)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escape.JSON(buf.Bytes()), nil
}

func writeJSON(w io.Writer, v any) error {
	doc, err := encodeJSON(v, "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(doc)
	return err
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// rfc3339 formats t for output.
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// orDash shows an empty value as "-", so a table column never looks shifted.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// printedError says that a command did its work but could not print the result, so that a caller does not
// take a full disk or a closed pipe on stdout for a failure to store.
func printedError(done string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s, but could not print the result: %w", done, err)
}
