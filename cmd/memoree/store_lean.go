//go:build memoree_lean

package main

import (
	"github.com/memoree/memoree/internal/handoff"
	"github.com/urfave/cli/v2"
)

// storeAction hands the command to the full build; it runs when the command line reached the command tree,
// for example with a flag before the subcommand.
func storeAction(e *env, name string) cli.ActionFunc {
	return func(c *cli.Context) error { return handoff.Exec(name) }
}

// handOffEarly reports whether args name a store command, which package handoff tried to run in the full
// build before anything else was initialized, and why that failed: it returns only when it could not.
func handOffEarly(args []string) (bool, error) {
	name, err := handoff.Early()
	return name != "", err
}
