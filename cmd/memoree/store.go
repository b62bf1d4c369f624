package main

import "github.com/memoree/memoree/internal/cmdline"

// storeRuns runs the commands that read or write the recall store, which package cmdline defines but leaves
// out so that it does not link the SQLite engine.
var storeRuns = cmdline.Store{
	"remember":        runRemember,
	"pending preview": runPendingPreview,
	"pending apply":   runPendingApply,
	"recall":          runRecall,
	"search":          runSearch,
	"context build":   runContextBuild,
	"artifact show":   runArtifactShow,
	"artifact gc":     runArtifactGC,
	"optimize":        runOptimize,
}
