//go:build memoree_lean

package handoff

import "os"

// early is the store command that init tried to hand off, and why it could not.
var early struct {
	name string
	err  error
}

// init hands a store command line to the full build before the packages that only the lean build's own
// commands use (the command tree, the scanner, templates) are initialized, since the full build initializes
// its own: Go initializes a package as soon as its imports are, and this one imports only basics of the
// standard library. That saves about 0.2 ms of the 1.6 ms the hop costs.
func init() {
	if name, ok := Command(os.Args); ok {
		early.name, early.err = name, Exec(name)
	}
}

// Early returns the store command whose hand-off failed when the program started, and why; an empty name
// when the command line names no store command.
func Early() (string, error) { return early.name, early.err }
