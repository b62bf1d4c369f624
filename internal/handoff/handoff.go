// Package handoff runs the store commands of the lean memoree build in the full build installed beside it.
//
// The lean build leaves the SQLite engine out, so that checkpoint and the pending and scan commands start
// fast. The commands that read or write the recall store (remember, recall, search, context build, artifact
// show and gc, pending preview and apply) run by executing the full build, at ../libexec/memoree/memoree relative to
// the lean executable, with the same command line.
package handoff

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// commands are the store commands by their first two words; a one-word command has "" as its second.
var commands = map[[2]string]bool{
	{"remember", ""}: true, {"recall", ""}: true, {"search", ""}: true, {"context", "build"}: true,
	{"artifact", "show"}: true, {"artifact", "gc"}: true, {"pending", "preview"}: true, {"pending", "apply"}: true,
}

// Command returns the store command that args (a command line, program name first) name in their first
// words, as the command tree would route them. It recognizes the usual spellings only; the command tree
// routes the rest, such as a flag before the subcommand.
func Command(args []string) (string, bool) {
	if len(args) < 2 {
		return "", false
	}
	if commands[[2]string{args[1], ""}] {
		return args[1], true
	}
	if len(args) >= 3 && commands[[2]string{args[1], args[2]}] {
		return args[1] + " " + args[2], true
	}
	return "", false
}

// Exec replaces this process with the full build and this process's command line: stdin, stdout, stderr
// and the exit status are the full build's own. It returns only when it could not, with an error that names
// the store command name and what to do.
func Exec(name string) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("%s: find the store program: %w", name, err)
	}
	self, err = filepath.EvalSymlinks(self)
	if err != nil {
		return fmt.Errorf("%s: find the store program: %w", name, err)
	}
	full := filepath.Join(filepath.Dir(self), "..", "libexec", "memoree", "memoree")
	err = syscall.Exec(full, os.Args, os.Environ())
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s needs the store program %s, which is missing: reinstall memoree with 'make install'", name, full)
	}
	return fmt.Errorf("%s: run %s: %w", name, full, err)
}
