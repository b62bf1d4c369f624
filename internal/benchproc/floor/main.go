// Floor is the least work a checkpoint can do as a process, the baseline the benchmarks in internal/benchproc
// measure memoree against. It reads a note of at most 64 KiB, keeps the first 4 KiB (as many bytes as memoree
// stores), and writes them to DIR/NAME with mode 0600 through the sequence every memoree state write uses: a
// temp file in DIR, write, chmod, fsync, close, rename, fsync DIR.
//
// Usage:
//
//	floor SRC DIR NAME
//
// SRC "-" reads standard input. The program uses the standard library only, so that it stays the same while
// the code it is compared with changes.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

const (
	maxInput  = 64 << 10 // the largest note memoree accepts
	maxStored = 4 << 10  // the most bytes memoree stores of a note
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "floor: error: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return errors.New("usage: floor SRC DIR NAME")
	}
	src, dir, name := args[0], args[1], args[2]
	in := os.Stdin
	if src != "-" {
		f, err := os.Open(src)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	// Read the whole note, as memoree must before it can check it, but never more than it would accept.
	data, err := io.ReadAll(io.LimitReader(in, maxInput+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", src, err)
	}
	if len(data) > maxInput {
		return fmt.Errorf("read %s: larger than %d bytes", src, maxInput)
	}
	return write(dir, name, data[:min(len(data), maxStored)])
}

// write replaces dir/name with data, mode 0600, so that a crash leaves the old content or the new.
func write(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, ".tmp-"+name+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := writeSync(f, data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	// Close before rename: some filesystems refuse to rename an open file.
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func writeSync(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		return err
	}
	// Chmod through the descriptor: the mode must not depend on the umask.
	if err := f.Chmod(0o600); err != nil {
		return err
	}
	return f.Sync()
}
