package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/pending"
)

var (
	update     = flag.Bool("update", false, "rewrite golden files and the man page")
	manVersion = flag.String("man-version", "devel", "with -update: the version the man page names")
	manDate    = flag.String("man-date", "", "with -update: the date the man page names (default: today)")
)

// runCLI runs memoree with args in a fresh data directory and returns its exit status and output.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(append([]string{"memoree"}, args...), strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func testHome(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	t.Setenv("MEMOREE_HOME", home)
	t.Setenv("MEMOREE_NOW", "2026-11-01T12:00:00Z")
	t.Setenv("MEMOREE_SESSION", "")
	return home
}

const awsKey = "AKIAQ4ZJ7XNVB2LMD5RT"

// TestExitStatus pins the documented exit status of each kind of outcome, and that --json failures print one
// JSON object on stderr and nothing on stdout.
func TestExitStatus(t *testing.T) {
	testHome(t)
	if code, _, stderr := runCLI(t, "", "checkpoint", "--session", "S1", "a", "note"); code != 0 {
		t.Fatalf("setup: %d %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "checkpoint", "--session", "S2", "key", awsKey); code != 0 {
		t.Fatalf("setup: %d %s", code, stderr)
	}
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"pending", "list"}, 0},
		{[]string{"recall", "anything"}, 0},
		{[]string{"pending", "show", "ck-ffff"}, 1},                       // well-formed, not found
		{[]string{"pending", "show", "ck-"}, 2},                           // too short
		{[]string{"pending", "show", "../etc"}, 2},                        // not an ID
		{[]string{"pending", "preview", "--session", "S2", "ck-12ab"}, 2}, // an ID and --session
		{[]string{"pending", "preview", "--session", "S2"}, 3},            // flagged, named by its session
		{[]string{"pending", "apply", pendingIDFor("S2")}, 3},             // flagged
		{[]string{"checkpoint", "--session", "S1", "-", "extra"}, 2},      // two sources
		{[]string{"checkpoint", "--session", "", "x"}, 2},
		{[]string{"pending", "list", "--session", "   "}, 2},
		{[]string{"bogus"}, 2},
		{[]string{"recall", "--bogus", "x"}, 2},
		{[]string{"scan", "key", awsKey}, 3},
		{[]string{"scan", "plain", "words"}, 0},
		{[]string{"artifact", "show", "abcd"}, 1},
		{[]string{"artifact", "show", "xyz"}, 2},
	} {
		code, stdout, stderr := runCLI(t, "", c.args...)
		if code != c.want {
			t.Errorf("memoree %s: exit %d, want %d (stderr %q)", strings.Join(c.args, " "), code, c.want, stderr)
		}
		if code != 0 && code != 3 && stdout != "" {
			t.Errorf("memoree %s failed but printed %q on stdout", strings.Join(c.args, " "), stdout)
		}
		if code == 0 {
			continue
		}
		// The same call with --json fails the same way, with one JSON object on stderr.
		jargs := append(append([]string{}, c.args...), "--json")
		if c.args[0] == "checkpoint" || c.args[0] == "scan" {
			jargs = append([]string{c.args[0], "--json"}, c.args[1:]...)
		}
		code, stdout, stderr = runCLI(t, "", jargs...)
		if code != c.want {
			t.Errorf("memoree %s: exit %d, want %d", strings.Join(jargs, " "), code, c.want)
		}
		if code == 3 && c.args[0] == "scan" {
			continue // scan's findings are its result
		}
		var e struct {
			Error string `json:"error"`
			Code  int    `json:"code"`
		}
		if err := json.Unmarshal([]byte(stderr), &e); err != nil || e.Error == "" || e.Code != c.want {
			t.Errorf("memoree %s: stderr %q is not one JSON error with code %d (%v)", strings.Join(jargs, " "), stderr, c.want, err)
		}
		if stdout != "" {
			t.Errorf("memoree %s failed but printed %q on stdout", strings.Join(jargs, " "), stdout)
		}
	}
}

// pendingIDFor returns a prefix of the checkpoint ID of session.
func pendingIDFor(session string) string { return pending.IDFor(session)[:11] }

// TestNoDataDirectory checks that with HOME and XDG_DATA_HOME unset memoree creates nothing at the
// filesystem root and says to set MEMOREE_HOME.
func TestNoDataDirectory(t *testing.T) {
	t.Setenv("MEMOREE_HOME", "")
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "")
	os.Unsetenv("MEMOREE_HOME")
	os.Unsetenv("XDG_DATA_HOME")
	os.Unsetenv("HOME")
	_, before := os.Stat("/.local/share/memoree")
	code, _, stderr := runCLI(t, "", "checkpoint", "--session", "S1", "a note")
	if code != 2 || !strings.Contains(stderr, "MEMOREE_HOME") {
		t.Fatalf("exit %d, stderr %q; want exit 2 naming MEMOREE_HOME", code, stderr)
	}
	if _, after := os.Stat("/.local/share/memoree"); os.IsNotExist(before) && !os.IsNotExist(after) {
		t.Fatal("memoree created /.local/share/memoree")
	}
	t.Setenv("XDG_DATA_HOME", "relative/dir")
	if code, _, stderr := runCLI(t, "", "status"); code != 2 || !strings.Contains(stderr, "XDG_DATA_HOME") {
		t.Fatalf("relative XDG_DATA_HOME: exit %d, stderr %q", code, stderr)
	}
}

// TestFullStdout checks that a checkpoint whose result cannot be printed says that it was staged.
func TestFullStdout(t *testing.T) {
	home := testHome(t)
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	var stderr bytes.Buffer
	code := run([]string{"memoree", "checkpoint", "--session", "S1", "a", "note"}, strings.NewReader(""), full, &stderr)
	if code != 1 || !regexp.MustCompile(`^memoree: error: staged ck-[0-9a-f]{12}, but could not print the result: .*no space left on device\n$`).MatchString(stderr.String()) {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(home, "pending", pending.IDFor("S1")+".json")); err != nil {
		t.Fatalf("the checkpoint was not staged: %v", err)
	}
	// The store commands that print JSON say what they did, too: a script that retries must not undo twice.
	for _, tt := range []struct{ args, done string }{
		{"remember --apply --json The-cache-lives-in-Redis.", "applied note as artifact ea7d29f547fe"},
		{"forget --json 1", "forgot"},
		{"undo --json", "undid forget"},
		{"redo --json", "redid forget"},
		{"reindex --json", "reindexed"},
	} {
		stderr.Reset()
		code := run(append([]string{"memoree"}, strings.Fields(tt.args)...), strings.NewReader(""), full, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), tt.done+", but could not print the result") {
			t.Errorf("%s: exit %d, stderr %q", tt.args, code, stderr.String())
		}
	}
	// A result that says nothing was written fails plainly: a script that saves a preview to review it
	// must not get an empty file and exit 0.
	for _, args := range []string{"pending preview --session S1", "remember The-cache-lives-in-Memcached."} {
		stderr.Reset()
		code := run(append([]string{"memoree"}, strings.Fields(args)...), strings.NewReader(""), full, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%s: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}

// TestInterruptedRead checks that SIGINT stops a checkpoint waiting on stdin with exit status 130 and writes
// nothing.
func TestInterruptedRead(t *testing.T) {
	home := testHome(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// A FIFO with no writer: opening it waits in a system call.
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		sig  syscall.Signal
		what string
	}{
		{[]string{"-"}, syscall.SIGINT, "stdin"},
		{[]string{"--file", fifo}, syscall.SIGTERM, "--file"},
	} {
		var stderr bytes.Buffer
		done := make(chan int, 1)
		go func() {
			done <- run(append([]string{"memoree", "checkpoint", "--session", "S1"}, tt.args...), r, os.Stdout, &stderr)
		}()
		// run installs its signal handler first thing; give it ample time to get to the read.
		time.Sleep(300 * time.Millisecond)
		if err := syscall.Kill(os.Getpid(), tt.sig); err != nil {
			t.Fatal(err)
		}
		select {
		case code := <-done:
			if code != 130 {
				t.Fatalf("%s: exit status %d, want 130; stderr %q", tt.what, code, stderr.String())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("checkpoint reading %s did not stop on %v", tt.what, tt.sig)
		}
		if !strings.Contains(stderr.String(), "memoree: error: interrupted while reading "+tt.what) {
			t.Errorf("stderr %q does not say it was interrupted reading %s", stderr.String(), tt.what)
		}
		if entries, _ := os.ReadDir(filepath.Join(home, "pending")); len(entries) > 0 {
			t.Errorf("an interrupted checkpoint wrote %d entries", len(entries))
		}
	}
}

// TestHelp checks that every command's help works both ways ('memoree help X' and 'memoree X --help'), that
// no page shows an empty section or a boolean's default, and that every command that prints a result has
// --json.
func TestHelp(t *testing.T) {
	testHome(t)
	noJSON := map[string]bool{"memoree instructions": true, "memoree completion": true, "memoree help": true}
	tree := newApp(&env{getenv: os.Getenv})
	leaves(tree, func(path string, c *cli.Command) {
		if path == "memoree help" {
			return
		}
		words := strings.Fields(path)[1:]
		code1, page1, stderr1 := runCLI(t, "", append([]string{"help"}, words...)...)
		code2, page2, _ := runCLI(t, "", append(words, "--help")...)
		if code1 != 0 || code2 != 0 || page1 != page2 || page1 == "" {
			t.Errorf("%s: 'help' exit %d, '--help' exit %d, pages equal %v (stderr %q)", path, code1, code2, page1 == page2, stderr1)
		}
		for _, bad := range []string{"(default: false)", "DESCRIPTION:\n\n", "-json"} {
			if strings.Contains(strings.ReplaceAll(page1, "--json", ""), bad) {
				t.Errorf("%s --help shows %q", path, bad)
			}
		}
		if !strings.Contains(page1, "EXAMPLES:") {
			t.Errorf("%s --help has no examples", path)
		}
		hasJSON := false
		for _, f := range c.Flags {
			hasJSON = hasJSON || f == jsonFlag
		}
		if !hasJSON && !noJSON[path] {
			t.Errorf("%s prints a result but has no --json", path)
		}
	})
	for _, args := range [][]string{{"help"}, {"--help"}, {"help", "pending"}, {"pending", "--help"}} {
		if code, out, _ := runCLI(t, "", args...); code != 0 || !strings.Contains(out, "USAGE:") {
			t.Errorf("memoree %s: exit %d", strings.Join(args, " "), code)
		}
	}
	for _, args := range [][]string{{"help", "agents"}, {"pending", "h"}, {"help", "pending", "nope"}} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("memoree %s: exit %d, want 2 (no such command)", strings.Join(args, " "), code)
		}
	}
}

// TestManPage fails when man/memoree.1 no longer matches the command definitions; 'make man' regenerates it.
func TestManPage(t *testing.T) {
	const path = "../../man/memoree.1"
	date := *manDate
	if date == "" {
		date = time.Now().Format("2006-01-02")
	}
	page := manPage(newApp(&env{getenv: os.Getenv}), *manVersion, date)
	if *update {
		if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	th := regexp.MustCompile(`^\.TH MEMOREE 1 "\d{4}-\d{2}-\d{2}" "memoree [^"]+" "User Commands"\n`)
	if !th.Match(want) {
		t.Fatalf("%s does not start with a .TH line naming its date and version", path)
	}
	// The .TH line's date and version are those of the last 'make man'; the rest must match.
	body := func(s string) string { _, rest, _ := strings.Cut(s, "\n"); return rest }
	if body(string(want)) != body(page) {
		t.Fatalf("%s is stale: run 'make man' and commit it", path)
	}
	for _, section := range []string{".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH COMMANDS", ".SH EXIT STATUS", ".SH ENVIRONMENT", ".SH FILES", ".SH SEE ALSO"} {
		if !strings.Contains(page, "\n"+section+"\n") {
			t.Errorf("the man page has no %s section", section)
		}
	}
	leaves(newApp(&env{getenv: os.Getenv}), func(path string, c *cli.Command) {
		if !strings.Contains(page, ".SS "+path+"\n") || !strings.Contains(page, ".B "+path+"\n") {
			t.Errorf("the man page has no section or synopsis line for %s", path)
		}
	})
	// A flag's value is named as --help names it, and a default that is not zero is given.
	for _, want := range []string{`.B \-\-expect HASH`, `.B \-\-limit N, \-n N`, `.B \-\-ref KEY=VALUE, \-r KEY=VALUE`, "(default: 1500)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the man page has no %q", want)
		}
	}
}
