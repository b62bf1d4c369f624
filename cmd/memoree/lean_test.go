package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLeanBuild checks the layout 'make build' installs: the lean memoree, built without the SQLite engine,
// runs store commands by executing the full build in ../libexec/memoree, passing arguments, input, output and
// exit status through unchanged.
func TestLeanBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	root := t.TempDir()
	lean := filepath.Join(root, "bin", "memoree")
	full := filepath.Join(root, "libexec", "memoree", "memoree")
	for _, b := range []struct{ out, tags string }{{lean, "urfave_cli_no_docs memoree_lean"}, {full, "urfave_cli_no_docs"}} {
		cmd := exec.Command("go", "build", "-tags", b.tags, "-o", b.out, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build -tags %q: %v\n%s", b.tags, err, out)
		}
	}
	deps, err := exec.Command("go", "list", "-tags", "urfave_cli_no_docs memoree_lean", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(deps), "modernc.org/sqlite") {
		t.Fatal("the lean build links the SQLite engine")
	}

	home := filepath.Join(root, "home")
	memoree := func(stdin string, args ...string) (string, string, int) {
		cmd := exec.Command(lean, args...)
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

	// Without the full build beside it, a store command fails clearly and the others still work.
	if err := os.RemoveAll(filepath.Join(root, "libexec")); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := memoree("", "recall", "zebrafish"); code != 1 || !strings.Contains(errOut, "needs the store program") {
		t.Errorf("recall without libexec: exit %d, stderr %q", code, errOut)
	}
	if out, _, code := memoree("", "pending", "list"); code != 0 || !strings.Contains(out, "ck-3696ad59777e") {
		t.Errorf("pending list without libexec: exit %d, stdout %q", code, out)
	}
}
