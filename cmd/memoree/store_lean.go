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

// storeAction hands the whole command line to the full build, found at ../libexec/memoree/memoree relative to
// this executable, by replacing this process with it: stdin, stdout, stderr and the exit status are the full
// build's own.
func storeAction(e *env, name string) cli.ActionFunc {
	return func(c *cli.Context) error {
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
}
