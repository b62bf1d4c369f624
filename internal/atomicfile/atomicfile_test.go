package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWrite checks the mode whatever the umask, replacement, and that a failed write leaves the destination and
// no temp file behind.
func TestWrite(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := t.TempDir()
	for _, data := range []string{"first", "second"} {
		if err := Write(dir, "note", []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "note"))
		if err != nil || string(got) != data {
			t.Fatalf("after writing %q: read %q, %v", data, got, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "note")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v; want 0600 under umask 0", fi.Mode().Perm(), err)
	}
	// A umask that takes the owner's write bit leaves a temp file 0400; the mode asked for must come back, and
	// the read-only mode artifacts use must hold too. Root ignores modes, so only the bits are checked.
	masked := t.TempDir()
	syscall.Umask(0o277)
	for _, perm := range []os.FileMode{0o600, 0o400} {
		name := fmt.Sprintf("masked-%o", perm)
		if err := Write(masked, name, []byte("x"), perm); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(filepath.Join(masked, name)); err != nil || fi.Mode().Perm() != perm {
			t.Errorf("%s: mode %v, %v; want %v under umask 0277", name, fi.Mode().Perm(), err, perm)
		}
	}
	syscall.Umask(0)

	// A non-empty directory in the way makes the rename fail.
	if err := os.MkdirAll(filepath.Join(dir, "busy", "inside"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, "busy", []byte("x"), 0o600); err == nil {
		t.Fatal("a write over a non-empty directory succeeded")
	}
	for _, name := range []string{"", ".", "..", "a/b", ".hidden", TempPrefix + "x"} {
		if err := Write(dir, name, []byte("x"), 0o600); err == nil || !strings.Contains(err.Error(), "not a plain file name") {
			t.Errorf("Write(%q) = %v, want a refusal", name, err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "busy note" {
		t.Errorf("directory holds %q after the failed writes, want only busy and note", names)
	}
}

// TestMkdirPrivate checks that new directories, parents included, are private whatever the umask, and that an
// existing directory that is a symlink, not a directory or open to others is refused.
func TestMkdirPrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	root := t.TempDir()
	// A umask that takes a parent's write bit would stop its child being created, for any user but root.
	for i, umask := range []int{0, 0o277} {
		syscall.Umask(umask)
		dir := filepath.Join(root, fmt.Sprint(i), "a", "b")
		if err := MkdirPrivate(dir); err != nil {
			t.Fatalf("umask %04o: %v", umask, err)
		}
		for _, d := range []string{filepath.Dir(filepath.Dir(dir)), filepath.Dir(dir), dir} {
			if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
				t.Fatalf("umask %04o: %s: mode %v, %v; want 0700", umask, d, fi.Mode().Perm(), err)
			}
		}
		if err := MkdirPrivate(dir); err != nil {
			t.Fatalf("existing private directory refused: %v", err)
		}
	}
	syscall.Umask(0)
	dir := filepath.Join(root, "0", "a", "b")

	open := filepath.Join(root, "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{open, "open to group or others"}, {file, "is not a directory"}, {link, "is a symlink"},
	} {
		if err := MkdirPrivate(c.dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("MkdirPrivate(%s) = %v, want an error saying %q", c.dir, err, c.want)
		}
	}
}

// TestMkdirPrivateRace creates the same nested directories from several goroutines at once, as concurrent
// processes do: each call succeeds and every level ends up 0700.
func TestMkdirPrivateRace(t *testing.T) {
	for round := 0; round < 50; round++ {
		root := t.TempDir()
		dir := filepath.Join(root, "a", "b", "c")
		errs := make(chan error, 8)
		for range 8 {
			go func() { errs <- MkdirPrivate(dir) }()
		}
		for range 8 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		for d := dir; d != root; d = filepath.Dir(d) {
			if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
				t.Fatalf("%s: mode %v, %v; want 0700", d, fi.Mode().Perm(), err)
			}
		}
	}
}

func TestWriteBatch(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "store")
	d, err := OpenPrivate(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	sub, err := d.Sub("ab")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	files := []File{{d, "one", []byte("1"), 0o400}, {sub, "two", []byte("22"), 0o600}}
	if err := WriteBatch(files); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		fi, err := os.Stat(filepath.Join(f.Dir.Path(), f.Name))
		if err != nil || fi.Mode().Perm() != f.Perm || fi.Size() != int64(len(f.Data)) {
			t.Errorf("%s: %v %v", f.Name, fi, err)
		}
	}
	if err := syncEach(files, map[*Dir]bool{d: true, sub: true}); err != nil {
		t.Fatal(err)
	}
	if err := WriteBatch([]File{{d, "../x", nil, 0o600}}); err == nil {
		t.Error("a path was accepted as a name")
	}
	for _, p := range []string{dir, sub.Path()} {
		ents, _ := os.ReadDir(p)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), TempPrefix) {
				t.Errorf("temp file %s left", e.Name())
			}
		}
	}
}
