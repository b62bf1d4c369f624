// Command memoree stages session checkpoints for review and promotes reviewed ones into long-term memory.
//
// All of the command line lives in this package, one file per command group; memoree.go builds the command
// tree and runs it, and output.go states the output and exit-status policy for the whole program.
package main

import "os"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
