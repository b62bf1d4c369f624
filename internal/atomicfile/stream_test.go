package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestStream checks that a stream leaves the destination untouched until Commit, then replaces it with the
// mode asked for whatever the umask, and that Abort leaves no temp file.
func TestStream(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "export.jsonl")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := CreateStream(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write([]byte("new content")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("before Commit the destination holds %q", got)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("after Commit: %v, %v; want mode 0600", fi.Mode(), err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new content" {
		t.Fatalf("after Commit the destination holds %q", got)
	}
	s, err = CreateStream(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	s.Write([]byte("half"))
	s.Abort()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), TempPrefix) {
			t.Fatalf("Abort left %s", e.Name())
		}
	}
	if got, _ := os.ReadFile(path); string(got) != "new content" {
		t.Fatalf("after Abort the destination holds %q", got)
	}
}
