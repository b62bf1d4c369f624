package app

import (
	"os"
	"path/filepath"
	"runtime"
)

// init runs a well-formed checkpoint command line and exits, before the memoree program initializes its
// SQLite engine and its command tree; every other command line goes on to main.
//
// The Go specification initializes packages one at a time: each time, the first in import path order of
// those whose imports are initialized. This package imports neither the engine nor the tree, and its path
// sorts before theirs (github.com/memoree before github.com/urfave and modernc.org), so it comes before them;
// packages they use whose paths sort earlier (database/sql, math/big, crypto/rand, go-humanize, modernc's
// allocator) still come first. TestEarly checks the order with the runtime's init trace. That lets memoree be
// one program instead of a program without the engine that ran a second one for the store commands, which
// cost each of them about 1.5 ms; checkpoint took 1.37x and 1.28x the floor against 1.38x and 1.30x before
// (interleaved A/Bs of the two layouts), so those early packages cost it nothing measurable.
//
// It runs only under the program's own name, so that test binaries (named *.test) which import this package
// are left alone; a renamed memoree runs checkpoint from main, just as correctly.
func init() {
	if filepath.Base(os.Args[0]) != "memoree" {
		return
	}
	// Nothing reads memory profiles of a command that runs for milliseconds; sampling allocations for them is
	// start-up cost on every call.
	runtime.MemProfileRate = 0
	if code, ok := Checkpoint(NewEnv(os.Stdin, os.Stdout, os.Stderr), os.Args); ok {
		os.Exit(code)
	}
}
