package main

import (
	"os"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urfave/cli/v2"
)

// TestParseCheckpoint holds the fast checkpoint parser to what urfave/cli makes of the same command line, and
// makes sure it leaves everything else to urfave/cli.
func TestParseCheckpoint(t *testing.T) {
	valid := []string{
		"checkpoint --session S1 -",
		"checkpoint -",
		"checkpoint --session S1 --task t1 --json two words",
		"checkpoint two words --session S1 --task=t1",
		"checkpoint --session=S1 --file notes.md",
		"checkpoint -session S1 -json -",
		"checkpoint --session S1 --session S2 x",
		"checkpoint --session S1 -- -v --json is text",
		"checkpoint --task '' --session S1 x",
		"checkpoint --session S1 --",
	}
	for _, line := range valid {
		args := append([]string{"memoree"}, strings.Fields(strings.ReplaceAll(line, "''", "\x00"))...)
		for i, a := range args {
			args[i] = strings.ReplaceAll(a, "\x00", "")
		}
		fast, ok := fastCheckpoint(args)
		if !ok {
			t.Errorf("%s: the fast parser refused a well-formed call", line)
			continue
		}
		var slow checkpointArgs
		e := &env{getenv: func(string) string { return "" }, stdout: os.Stdout, stderr: os.Stderr}
		app := newApp(e)
		for _, c := range app.Commands {
			if c.Name == "checkpoint" {
				c.Action = func(c *cli.Context) error { slow = checkpointArgsFrom(c); return nil }
			}
		}
		if err := app.Run(reorder(app, args)); err != nil {
			t.Errorf("%s: urfave/cli: %v", line, err)
			continue
		}
		if len(slow.text) == 0 {
			slow.text = nil
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s:\nfast %+v\nfull %+v", line, fast, slow)
		}
	}
	for _, line := range []string{
		"checkpoint --help", "checkpoint -h", "checkpoint --bogus x", "checkpoint --session",
		"checkpoint ---session S1 x", "checkpoint --json=false x", "pending list", "checkpointx --session S1 x",
	} {
		if a, ok := fastCheckpoint(append([]string{"memoree"}, strings.Fields(line)...)); ok {
			t.Errorf("%s: the fast parser took it as %+v; it must leave it to urfave/cli", line, a)
		}
	}
}

// TestInterruptedRead checks that SIGINT stops a checkpoint waiting on stdin with exit status 130 and writes
// nothing.
func TestInterruptedRead(t *testing.T) {
	home := t.TempDir()
	t.Setenv("MEMOREE_HOME", home)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() { done <- run([]string{"memoree", "checkpoint", "--session", "S1", "-"}, r, os.Stdout, &stderr) }()
	// run registers for the signal before it reads; give it ample time to get there.
	time.Sleep(300 * time.Millisecond)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != exitInterrupted {
			t.Fatalf("exit status %d, want %d; stderr %q", code, exitInterrupted, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("checkpoint did not stop on SIGINT")
	}
	if !strings.Contains(stderr.String(), "memoree: error: interrupted") {
		t.Errorf("stderr %q does not say it was interrupted", stderr.String())
	}
	if entries, _ := os.ReadDir(home + "/pending"); len(entries) > 1 { // only locks/ may exist
		t.Errorf("an interrupted checkpoint wrote %d entries", len(entries))
	}
}

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
