// Command memoree stages session checkpoints for review and promotes reviewed ones into long-term memory.
package main

import "os"

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
