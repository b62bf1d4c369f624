package main

import "github.com/memoree/memoree/internal/cmdline"

// storeRuns runs the commands that read or write the recall store, which package cmdline defines but leaves
// out so that it does not link the SQLite engine.
var storeRuns = cmdline.Store{
	Remember:       runRemember,
	PendingPreview: runPendingPreview,
	PendingApply:   runPendingApply,
	Recall:         runRecall,
	Search:         runSearch,
	ContextBuild:   runContextBuild,
	ArtifactShow:   runArtifactShow,
	ArtifactGC:     runArtifactGC,
	Optimize:       runOptimize,
}
