package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/memoree/memoree/checkpoint"
)

// ReadText returns a note from exactly one source: "-" (stdin), --file path, or args joined by spaces. The
// text is checked by [checkpoint.Read] or [checkpoint.Validate]; nothing larger than the input limit is read.
func ReadText(e *Env, args []string, path string) ([]byte, error) {
	stdin := len(args) == 1 && args[0] == "-"
	sources := 0
	for _, given := range []bool{stdin, path != "", len(args) > 0 && !stdin} {
		if given {
			sources++
		}
	}
	switch {
	case sources == 0:
		return nil, Usagef("no text: give '-' to read stdin, --file PATH, or the text as arguments")
	case sources > 1:
		return nil, Usagef("give exactly one source of text: '-' (stdin), --file PATH, or arguments")
	case stdin:
		return readStdin(e)
	case path != "":
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("read --file: %w", err)
		}
		defer f.Close()
		return checkpoint.Read(f)
	}
	text := []byte(strings.Join(args, " "))
	return text, checkpoint.Validate(text)
}

// readStdin reads a note from stdin. A read from a terminal or a pipe may wait for good, so from the first
// read that would wait a caught SIGINT or SIGTERM stops it, with exit status 130 and nothing written. Input
// that is already there, as from a file or a finished writer, is read without the signal handler, which costs
// a start-up about half a millisecond.
func readStdin(e *Env) ([]byte, error) {
	r := &waitReader{r: e.Stdin, ctx: context.Background()}
	defer r.close()
	text, err := checkpoint.Read(r)
	if err != nil && r.ctx.Err() != nil {
		return nil, fmt.Errorf("interrupted: %w", r.ctx.Err())
	}
	return text, err
}

// waitReader reads r, catching SIGINT and SIGTERM from the first read that would block.
type waitReader struct {
	r    io.Reader
	ctx  context.Context // cancelled by a caught signal once stop is set
	stop context.CancelFunc
}

func (w *waitReader) Read(p []byte) (int, error) {
	if w.stop == nil && !readable(w.r) {
		w.ctx, w.stop = signal.NotifyContext(w.ctx, os.Interrupt, syscall.SIGTERM)
	}
	if w.stop == nil {
		return w.r.Read(p)
	}
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := w.r.Read(p)
		done <- result{n, err}
	}()
	select {
	case r := <-done:
		return r.n, r.err
	case <-w.ctx.Done():
		return 0, w.ctx.Err()
	}
}

// close restores the default action of the signals.
func (w *waitReader) close() {
	if w.stop != nil {
		w.stop()
	}
}

// readable reports whether a read of r returns at once: r is not a file (a reader in a test), or a file with
// input or end of file waiting. poll tells without changing the file's mode, which the caller shares.
func readable(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return true
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	ready := false
	rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		ready = err == nil && n == 1 && fds[0].Revents&(unix.POLLIN|unix.POLLHUP|unix.POLLERR) != 0
	})
	return ready
}
