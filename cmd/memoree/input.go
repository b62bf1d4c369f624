package main

import (
	"context"
	"fmt"
	"io"
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
		return readStdin(ctx, e.stdin)
	case path != "":
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("read --file: %w", err)
		}
		defer f.Close()
		return checkpoint.Read(f)
	}
	text := []byte(strings.Join(args, " "))
	return text, checkpoint.Validate(text)
}

// readStdin reads a note from r until end of file, or until ctx is cancelled (SIGINT or SIGTERM), when it
// fails with an error that matches context.Canceled, having written nothing.
func readStdin(ctx context.Context, r io.Reader) ([]byte, error) {
	type result struct {
		text []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		text, err := checkpoint.Read(r)
		done <- result{text, err}
	}()
	select {
	case res := <-done:
		return res.text, res.err
	case <-ctx.Done():
		return nil, fmt.Errorf("interrupted while reading stdin; nothing was written: %w", context.Cause(ctx))
	}
}
