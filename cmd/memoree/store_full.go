//go:build !memoree_lean

package main

import "github.com/urfave/cli/v2"

// storeRuns maps each store command to the function that runs it in-process.
var storeRuns = map[string]func(*cli.Context, *env) error{
	"remember":        runRemember,
	"pending preview": runPendingPreview,
	"pending apply":   runPendingApply,
	"recall":          runRecall,
	"search":          runSearch,
	"context build":   runContextBuild,
	"artifact show":   runArtifactShow,
	"artifact gc":     runArtifactGC,
}

// handOffEarly returns false: this build runs store commands itself.
func handOffEarly([]string) (bool, error) { return false, nil }

// storeAction runs the store command name in this process.
func storeAction(e *env, name string) cli.ActionFunc {
	return func(c *cli.Context) error { return storeRuns[name](c, e) }
}
