//go:build !memoree_lean

package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// storeRuns maps each store command to the function that runs it in-process.
var storeRuns = map[string]func(*cli.Context, *env) error{
	"remember":        runRemember,
	"pending preview": runPendingPreview,
	"pending apply":   runPendingApply,
	"recall":          runRecall,
	"search":          runSearch,
	"context build":   runContextBuild,
	"artifact show":   runArtifactShow,
}

// handsOff is true in the build that runs store commands through another program; this one runs them itself.
const handsOff = false

// handOff is never called in this build: store commands run in this process.
func handOff(name string) error { return fmt.Errorf("%s: this build runs store commands itself", name) }

// storeAction runs the store command name in this process.
func storeAction(e *env, name string) cli.ActionFunc {
	return func(c *cli.Context) error { return storeRuns[name](c, e) }
}
