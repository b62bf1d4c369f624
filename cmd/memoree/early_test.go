package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEarly checks the program 'make build' installs: that package app runs checkpoint from its init, before
// the SQLite engine and the command tree are initialized, and that every command, store or not, works from
// that one program, and from a renamed copy, which runs them all from main.
func TestEarly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program")
	}
	root := t.TempDir()
	bin := filepath.Join(root, "memoree")
	cmd := exec.Command("go", "build", "-tags", "urfave_cli_no_docs", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The initializers this program skips for checkpoint; package app must import none of them.
	slow := []string{"modernc.org/libc", "modernc.org/sqlite", "github.com/urfave/cli/v2", "github.com/memoree/memoree/recall"}
	deps, err := exec.Command("go", "list", "-deps", "../../internal/app").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range slow {
		if strings.Contains(string(deps), p+"\n") {
			t.Errorf("package app imports %s, so checkpoint waits for its initializer", p)
		}
	}
	// Which packages a command line initializes, from the runtime's own trace.
	inits := func(prog string, args ...string) string {
		cmd := exec.Command(prog, args...)
		cmd.Env = append(os.Environ(), "MEMOREE_HOME="+filepath.Join(root, "trace"), "GODEBUG=inittrace=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", prog, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	note := filepath.Join(root, "note.md")
	if err := os.WriteFile(note, []byte("Decided: keep one program.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(root, "memoree-renamed")
	if err := os.Link(bin, renamed); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		prog string
		args []string
		slow bool
	}{
		{bin, []string{"checkpoint", "--session", "T1", "a note"}, false},
		{bin, []string{"checkpoint", "--json", "--session", "T1", "--file", note}, false},
		{bin, []string{"checkpoint", "--help"}, true},
		{bin, []string{"pending", "list"}, true},
		{bin, []string{"recall", "note"}, true},
		{renamed, []string{"checkpoint", "--session", "T2", "a note"}, true},
	} {
		trace := inits(c.prog, c.args...)
		// Package scan is one of app's imports, so it is initialized in every run.
		if !strings.Contains(trace, "init github.com/memoree/memoree/scan @") {
			t.Fatalf("%s %s: no init trace:\n%s", filepath.Base(c.prog), strings.Join(c.args, " "), trace)
		}
		for _, p := range slow {
			if got := strings.Contains(trace, "init "+p+" @"); got != c.slow {
				t.Errorf("%s %s: initialized %s: %v, want %v", filepath.Base(c.prog), strings.Join(c.args, " "), p, got, c.slow)
			}
		}
	}

	home := filepath.Join(root, "home")
	memoree := func(stdin string, args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "MEMOREE_HOME="+home, "MEMOREE_NOW=2026-11-01T12:00:00Z")
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return out.String(), errb.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), 0
	}
	tests := []struct {
		stdin    string
		args     []string
		code     int
		stdout   string // substring
		stderr   string // substring
		noStdout bool
	}{
		{"", []string{"checkpoint", "--session", "S1", "Decided: use zebrafish-quartz as the cache key."}, 0, "staged ck-3696ad59777e", "", false},
		{"", []string{"pending", "apply", "ck-3696"}, 0, "applied ck-3696ad59777e as artifact", "", false},
		{"We deploy from the release branch only.\n", []string{"remember", "--apply", "-"}, 0, "1 new claim(s)", "", false},
		{"", []string{"recall", "zebrafish", "quartz", "--json"}, 0, `"presence": "claim"`, "", false},
		{"export AWS_ACCESS_KEY_ID=AKIAQ7X2Z4R5T6Y7U6W3\n", []string{"remember", "--apply", "-"}, 3, "", "--allow-flagged", true},
		{"", []string{"recall"}, 2, "", "memoree: error: no query", true},
		{"", []string{"recall", "--help"}, 0, "presence=claim", "", false},
	}
	for _, tt := range tests {
		out, errOut, code := memoree(tt.stdin, tt.args...)
		if code != tt.code || !strings.Contains(out, tt.stdout) || !strings.Contains(errOut, tt.stderr) || (tt.noStdout && out != "") {
			t.Errorf("memoree %s: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				strings.Join(tt.args, " "), code, out, errOut, tt.code, tt.stdout, tt.stderr)
		}
	}

	// The early checkpoint and the one from main say and do the same, failures included.
	for i, args := range [][]string{
		{"checkpoint", "--session", "S9", "Decided: one program."},
		{"checkpoint", "--session", "S9", "--json", "--file", note},
		{"checkpoint", "--session", "S9", "export AWS_ACCESS_KEY_ID=AKIAQ7X2Z4R5T6Y7U6W3"},
		{"checkpoint", "--session", "S9"},
		{"checkpoint", "--session", "S9", "--file", filepath.Join(root, "missing.md")},
		{"checkpoint", "--session", "", "x"},
	} {
		var got [2]string
		for j, prog := range []string{bin, renamed} {
			cmd := exec.Command(prog, args...)
			cmd.Env = append(os.Environ(), fmt.Sprintf("MEMOREE_HOME=%s/same-%d-%d", root, i, j), "MEMOREE_NOW=2026-11-01T12:00:00Z")
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			code := 0
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			got[j] = fmt.Sprintf("exit %d\n%s", code, out)
		}
		if got[0] != got[1] {
			t.Errorf("memoree %s: early and from main differ:\n%s\n---\n%s", strings.Join(args, " "), got[0], got[1])
		}
	}

	// The renamed program runs every command from main, store commands too.
	cmd = exec.Command(renamed, "recall", "zebrafish", "--json")
	cmd.Env = append(os.Environ(), "MEMOREE_HOME="+home)
	if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), `"presence": "claim"`) {
		t.Errorf("renamed recall: %q, %v", out, err)
	}
}
