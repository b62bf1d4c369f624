// Command memoree stages session checkpoints for review and promotes reviewed ones into long-term memory.
package main

import (
	"os"
	"runtime"
)

// Nothing reads memory profiles of a command that runs for milliseconds; sampling allocations for them is
// start-up cost on every call.
func init() { runtime.MemProfileRate = 0 }

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
