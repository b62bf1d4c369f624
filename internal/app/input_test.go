package app

import (
	"os"
	"strings"
	"testing"
)

// TestReadable checks when stdin counts as ready, which decides whether memoree catches SIGINT while it reads:
// a file, or a pipe with input or end of file waiting, is read without the signal handler; an empty pipe whose
// writer is still open would wait.
func TestReadable(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if readable(r) {
		t.Error("an empty pipe with its writer open is readable")
	}
	if _, err := w.WriteString("note"); err != nil {
		t.Fatal(err)
	}
	if !readable(r) {
		t.Error("a pipe with input waiting is not readable")
	}
	buf := make([]byte, 16)
	if _, err := r.Read(buf); err != nil {
		t.Fatal(err)
	}
	if readable(r) {
		t.Error("a drained pipe with its writer open is readable")
	}
	w.Close()
	if !readable(r) {
		t.Error("a pipe at end of file is not readable")
	}
	f, err := os.CreateTemp(t.TempDir(), "note")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !readable(f) {
		t.Error("a regular file is not readable")
	}
	if !readable(strings.NewReader("")) {
		t.Error("a reader that is not a file is not readable")
	}
}
