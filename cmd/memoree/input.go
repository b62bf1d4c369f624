package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/checkpoint"
)

// fileFlag names the --file source shared by every command that reads a note.
var fileFlag = &cli.StringFlag{Name: "file", Usage: "read the text from `PATH`"}

// readText returns a note from exactly one source: "-" (stdin), --file path, or args joined by spaces. The
// text is checked by [checkpoint.Read] or [checkpoint.Validate]; nothing larger than the input limit is read.
func readText(e *env, args []string, path string) ([]byte, error) {
	stdin := len(args) == 1 && args[0] == "-"
	sources := 0
	for _, given := range []bool{stdin, path != "", len(args) > 0 && !stdin} {
		if given {
			sources++
		}
	}
	switch {
	case sources == 0:
		return nil, usagef("no text: give '-' to read stdin, --file PATH, or the text as arguments")
	case sources > 1:
		return nil, usagef("give exactly one source of text: '-' (stdin), --file PATH, or arguments")
	case stdin:
		return readStdin(e)
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

// readStdin reads a note from stdin, giving up when the command is interrupted: a read from a terminal or a pipe
// may block for good, and a caught signal would otherwise not stop it.
func readStdin(e *env) ([]byte, error) {
	type result struct {
		text []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		text, err := checkpoint.Read(e.stdin)
		done <- result{text, err}
	}()
	select {
	case r := <-done:
		return r.text, r.err
	case <-e.ctx.Done():
		return nil, e.ctx.Err()
	}
}
