// Command memoree stages session checkpoints for review and promotes reviewed ones into long-term memory.
//
// Package cmdline holds the command tree; this package adds the commands that read or write the recall store,
// and with them the SQLite engine. Package app runs checkpoint before that engine is initialized.
package main

import (
	"os"
	"runtime"

	"github.com/memoree/memoree/internal/cmdline"
)

func main() {
	// Nothing reads memory profiles of a command that runs for milliseconds; sampling allocations for them is
	// start-up cost on every call.
	runtime.MemProfileRate = 0
	os.Exit(cmdline.Run(os.Args, os.Stdin, os.Stdout, os.Stderr, storeRuns))
}
