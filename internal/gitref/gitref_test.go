package gitref

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const (
	c1 = "1111111111111111111111111111111111111111"
	c2 = "2222222222222222222222222222222222222222"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		from  string
		want  Info
		err   bool
	}{
		{"loose branch", map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": c1 + "\n"}, "a/b", Info{c1, "main"}, false},
		{"branch with slash", map[string]string{".git/HEAD": "ref: refs/heads/fix/x\n", ".git/refs/heads/fix/x": c1}, "", Info{c1, "fix/x"}, false},
		{"packed", map[string]string{".git/HEAD": "ref: refs/heads/main\n",
			".git/packed-refs": "# pack-refs with: peeled fully-peeled sorted\n" + c2 + " refs/heads/dev\n" + c1 + " refs/heads/main\n^" + c2 + "\n"},
			"", Info{c1, "main"}, false},
		{"loose wins over packed", map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": c2,
			".git/packed-refs": c1 + " refs/heads/main\n"}, "", Info{c2, "main"}, false},
		{"detached", map[string]string{".git/HEAD": c1 + "\n"}, "", Info{c1, ""}, false},
		{"no commit yet", map[string]string{".git/HEAD": "ref: refs/heads/main\n"}, "", Info{"", "main"}, false},
		{"linked work tree", map[string]string{
			"wt/.git":                          "gitdir: ../repo/.git/worktrees/wt\n",
			"repo/.git/worktrees/wt/HEAD":      "ref: refs/heads/feature\n",
			"repo/.git/worktrees/wt/commondir": "../..\n",
			"repo/.git/refs/heads/feature":     c2 + "\n",
		}, "wt/sub", Info{c2, "feature"}, false},
		{"garbage HEAD", map[string]string{".git/HEAD": "hello\n"}, "", Info{}, true},
		{"escaping ref", map[string]string{".git/HEAD": "ref: refs/../../etc/passwd\n"}, "", Info{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, tc.files)
			from := filepath.Join(root, filepath.FromSlash(tc.from))
			os.MkdirAll(from, 0o700)
			got, err := Read(from)
			if (err != nil) != tc.err || got != tc.want {
				t.Fatalf("Read = %+v, %v; want %+v (error %v)", got, err, tc.want, tc.err)
			}
		})
	}
	if _, err := Read(t.TempDir()); !errors.Is(err, ErrNotRepo) && err != nil {
		// A temp dir under a git work tree is possible on a developer machine; only other errors fail.
		t.Fatalf("outside a work tree: %v", err)
	}
}

// TestReadMatchesGit compares with git itself, when it is installed.
func TestReadMatchesGit(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command(gitBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q", "-b", "trunk")
	run("commit", "-q", "--allow-empty", "-m", "one")
	got, err := Read(dir)
	if err != nil || got.Commit != run("rev-parse", "HEAD") || got.Branch != "trunk" {
		t.Fatalf("Read = %+v, %v", got, err)
	}
	run("pack-refs", "--all")
	if got2, err := Read(dir); err != nil || got2 != got {
		t.Fatalf("after pack-refs: %+v, %v", got2, err)
	}
}
