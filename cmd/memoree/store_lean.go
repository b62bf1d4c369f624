//go:build memoree_lean

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/urfave/cli/v2"
)

// storeAction hands the command to the full build (see [handOff]); it runs when the command line reached the
// command tree, for example with a flag before the subcommand.
func storeAction(e *env, name string) cli.ActionFunc {
	return func(c *cli.Context) error { return handOff(name) }
}

// handOff replaces this process with the full build, found at ../libexec/memoree/memoree relative to this
// executable, and the same command line: stdin, stdout, stderr and the exit status are the full build's own.
// It returns only when it could not.
func handOff(name string) error {
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

// handOffEarly hands a store command line to the full build before anything else is done, since the full
// build does all of it again. It returns only when it could not (true, with why); other command lines
// return false.
func handOffEarly(args []string) (bool, error) {
	name, ok := storeCommand(args)
	if !ok {
		return false, nil
	}
	return true, handOff(name)
}
