package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"memoree": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScript runs the command-line scripts in testdata/script, each with its own data directory.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		// go test ./cmd/memoree -run TestScript -update rewrites the files that cmp compares with.
		UpdateScripts: *update,
		Setup: func(e *testscript.Env) error {
			e.Setenv("MEMOREE_HOME", e.WorkDir+"/home")
			e.Setenv("MEMOREE_NOW", "2026-11-01T12:00:00Z")
			e.Setenv("MEMOREE_SESSION", "")
			e.Setenv("NO_COLOR", "1")
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status": cmdStatus,
			"mode":   cmdMode,
			"tree":   cmdTree,
		},
	})
}

// cmdStatus runs a command and asserts its exact exit status: status N cmd args...
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %v", err)
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("status: %v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdMode asserts the permission bits of files: mode PERM path...
func cmdMode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: mode PERM path...")
	}
	want, err := strconv.ParseUint(args[0], 8, 32)
	if err != nil {
		ts.Fatalf("mode: %v", err)
	}
	for _, p := range args[1:] {
		fi, err := os.Lstat(ts.MkAbs(p))
		if err != nil {
			ts.Fatalf("mode: %v", err)
		}
		got := uint64(fi.Mode().Perm())
		if (got == want) == neg {
			ts.Fatalf("%s has mode %s, want %s%04o", p, fmt.Sprintf("%04o", got), map[bool]string{true: "not ", false: ""}[neg], want)
		}
	}
}

// cmdTree writes a listing of every file and directory under DIR, with mode, size, modification time and a
// hash of the content, to OUT: tree DIR OUT. Two listings compare equal only if nothing under DIR was created,
// removed, rewritten or touched.
func cmdTree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tree DIR OUT")
	}
	root := ts.MkAbs(args[0])
	var b strings.Builder
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(&b, "%s %v %d %d", rel, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %x", sha256.Sum256(data))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		ts.Fatalf("tree: %v", err)
	}
	if err := os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o600); err != nil {
		ts.Fatalf("tree: %v", err)
	}
}
