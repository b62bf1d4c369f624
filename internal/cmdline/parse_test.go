package cmdline

import (
	"os"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/app"
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
		fast, ok := app.FastCheckpoint(args)
		if !ok {
			t.Errorf("%s: the fast parser refused a well-formed call", line)
			continue
		}
		var slow app.CheckpointArgs
		e := &app.Env{Getenv: func(string) string { return "" }, Stdout: os.Stdout, Stderr: os.Stderr}
		tree := newApp(e, Store{})
		for _, c := range tree.Commands {
			if c.Name == "checkpoint" {
				c.Action = func(c *cli.Context) error { slow = checkpointArgsFrom(c); return nil }
			}
		}
		if err := tree.Run(reorder(tree, args)); err != nil {
			t.Errorf("%s: urfave/cli: %v", line, err)
			continue
		}
		if len(slow.Text) == 0 {
			slow.Text = nil
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s:\nfast %+v\nfull %+v", line, fast, slow)
		}
	}
	for _, line := range []string{
		"checkpoint --help", "checkpoint -h", "checkpoint --bogus x", "checkpoint --session",
		"checkpoint ---session S1 x", "checkpoint --json=false x", "pending list", "checkpointx --session S1 x",
	} {
		if a, ok := app.FastCheckpoint(append([]string{"memoree"}, strings.Fields(line)...)); ok {
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
	go func() {
		done <- Run([]string{"memoree", "checkpoint", "--session", "S1", "-"}, r, os.Stdout, &stderr, Store{})
	}()
	// Run installs its signal handler once it finds that stdin would block; give it ample time to get there.
	time.Sleep(300 * time.Millisecond)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 130 {
			t.Fatalf("exit status %d, want %d; stderr %q", code, 130, stderr.String())
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
