package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/memoree/memoree/checkpoint"
)

// readText returns a note from exactly one source: "-" (stdin), --file PATH, or the arguments joined by
// spaces. A command line that names more than one ("-" with words, --file with words or "-") is a usage
// error that names the conflict, so that no source is silently dropped. The text is checked by
// [checkpoint.Read] or [checkpoint.Validate]; nothing larger than the input limit is read.
func readText(ctx context.Context, e *env, args []string, path string) ([]byte, error) {
	stdin := slices.Contains(args, "-")
	switch {
	case stdin && len(args) > 1:
		return nil, usagef("'-' reads the note from stdin, but words were given too (%q): give '-' alone, or the words without '-'",
			strings.Join(args, " "))
	case path != "" && len(args) > 0:
		return nil, usagef("--file gives the note, but %q was given too: give one source of text", strings.Join(args, " "))
	case path == "" && len(args) == 0:
		return nil, usagef("no text: give '-' to read stdin, --file PATH, or the text as arguments")
	case stdin:
		return readUntilDone(ctx, "stdin", func() ([]byte, error) { return checkpoint.Read(e.stdin) })
	case path != "":
		// Opening a FIFO waits for its writer, in a system call no signal ends: done in the goroutine too.
		return readUntilDone(ctx, "--file", func() ([]byte, error) {
			f, err := os.Open(path)
			if err != nil {
				return nil, fmt.Errorf("read --file: %w", err)
			}
			defer f.Close()
			return checkpoint.Read(f)
		})
	}
	text := []byte(strings.Join(args, " "))
	return text, checkpoint.Validate(text)
}

// readUntilDone returns what read returns, or, when ctx is cancelled first (SIGINT or SIGTERM), an error that
// matches context.Canceled, having written nothing; what names the source in it.
func readUntilDone(ctx context.Context, what string, read func() ([]byte, error)) ([]byte, error) {
	type result struct {
		text []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		text, err := read()
		done <- result{text, err}
	}()
	select {
	case res := <-done:
		return res.text, res.err
	case <-ctx.Done():
		return nil, fmt.Errorf("interrupted while reading %s; nothing was written: %w", what, context.Cause(ctx))
	}
}
