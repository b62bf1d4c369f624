package recall

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memoree/memoree/checkpoint"
	"github.com/memoree/memoree/compiler"
	"github.com/memoree/memoree/scan"
)

func writeNotes(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestImportNotes(t *testing.T) {
	secret := scan.Rules()[0].Positives[0]
	dir := t.TempDir()
	writeNotes(t, dir, map[string]string{
		"a.md":          "# Memory\n- Sessions live in Redis\n- The build uses Bazel\n",
		"sub/b.TXT":     "Deploys go through the canary.\n",
		".hidden/c.md":  "Hidden notes stay out of it.\n",
		"d.go":          "package main // not a note\n",
		"blank.md":      "  \n",
		"bom.md":        "\ufeff\r\n",
		"keys/e.md":     "The staging key is " + secret + "\n",
		"notes/readme":  "No extension, not a note.\n",
		"sub/again.txt": "Deploys go through the canary.\n",
	})
	s := openTemp(t)
	ctx := context.Background()
	empty := counts(t, s)
	_, err := s.ImportNotes(ctx, dir, NotesOptions{Now: t0})
	var fe *FlaggedNotesError
	if !errors.As(err, &fe) || !errors.Is(err, ErrFlagged) || len(fe.Files) != 1 || fe.Files[0] != "keys/e.md" {
		t.Fatalf("flagged note: %v", err)
	}
	if strings.Contains(err.Error(), secret) {
		t.Fatal("the error shows the secret")
	}
	if got := counts(t, s); got != empty {
		t.Fatalf("a refused import wrote %s", got)
	}
	var progress []string
	res, err := s.ImportNotes(ctx, dir, NotesOptions{Now: t0, AllowFlagged: true, BatchSize: 2,
		Progress: func(done, total int) { progress = append(progress, fmt.Sprintf("%d/%d", done, total)) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Notes != 3 || res.Unchanged != 1 || len(res.Flagged) != 1 || res.Record == 0 || res.Compiler != compiler.Rules.Name() {
		t.Fatalf("result %+v", res)
	}
	if strings.Join(progress, " ") != "2/4 4/4" {
		t.Errorf("progress %v", progress)
	}
	r, _ := s.Recall(ctx, "staging key", 10)
	if len(r.Claims) != 1 || !r.Claims[0].Flagged {
		t.Fatalf("flagged claim: %+v", r.Claims)
	}
	if r, _ := s.Recall(ctx, "hidden", 10); len(r.Claims) != 0 {
		t.Fatal("a hidden directory was imported")
	}
	if _, err := s.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if got := counts(t, s); got != empty {
		t.Fatalf("after undo %s", got)
	}
	// A note that is not UTF-8 is rejected before anything is written.
	writeNotes(t, dir, map[string]string{"bad.md": "caf\xe9\n"})
	if _, err := s.ImportNotes(ctx, dir, NotesOptions{Now: t0, AllowFlagged: true}); !errors.Is(err, checkpoint.ErrInput) {
		t.Fatalf("non-UTF-8 note: %v", err)
	}
}

// TestImportNotesOldestFirst: every imported note is stored at the same time, so the files go in oldest
// first by modification time, whatever their names, and recall ranks the newer file's fact first.
func TestImportNotesOldestFirst(t *testing.T) {
	for _, names := range [][2]string{{"a-old.md", "b-new.md"}, {"b-old.md", "a-new.md"}} {
		dir := t.TempDir()
		writeNotes(t, dir, map[string]string{
			names[0]: "The production database runs in us-east-1.\n",
			names[1]: "The production database runs in eu-west-2.\n",
		})
		if err := os.Chtimes(filepath.Join(dir, names[0]), t0.AddDate(-1, 0, 0), t0.AddDate(-1, 0, 0)); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(filepath.Join(dir, names[1]), t0, t0); err != nil {
			t.Fatal(err)
		}
		s := openTemp(t)
		if _, err := s.ImportNotes(context.Background(), dir, NotesOptions{Now: t0}); err != nil {
			t.Fatal(err)
		}
		res, err := s.Recall(context.Background(), "where does the production database run", 5)
		if err != nil {
			t.Fatal(err)
		}
		if got := texts(res.Claims); len(got) != 2 || !strings.Contains(got[0], "eu-west-2") {
			t.Errorf("%v: recall lists %q, want the newer file's eu-west-2 first", names, got)
		}
	}
}
