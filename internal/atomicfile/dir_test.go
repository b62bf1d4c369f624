//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSweepTemps checks that a sweep removes the temp files of dead writes and keeps the one a live write holds,
// and that a prepared write's temp file counts as live until it is committed or aborted.
func TestSweepTemps(t *testing.T) {
	d, err := OpenPrivate(filepath.Join(t.TempDir(), "d"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, n := range []string{".tmp-a-1", ".tmp-b-2", "a"} {
		if err := os.WriteFile(filepath.Join(d.Path(), n), []byte("text"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tmp, err := d.Prepare("a", []byte("new"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := d.SweepTemps("b"); n != 1 || err != nil {
		t.Fatalf("SweepTemps(b) = %d, %v; want 1", n, err)
	}
	if n, err := d.SweepTemps(""); n != 1 || err != nil {
		t.Fatalf("SweepTemps = %d, %v; want 1: the prepared write's file is live", n, err)
	}
	if err := tmp.Commit(); err != nil {
		t.Fatal(err)
	}
	tmp, err = d.Prepare("a", []byte("newer"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	tmp.Abort()
	entries, _ := d.ReadDir()
	if len(entries) != 1 || entries[0].Name() != "a" {
		t.Fatalf("directory holds %v, want only a", entries)
	}
	if got, err := d.ReadFile("a"); err != nil || string(got) != "new" {
		t.Fatalf("a = %q, %v; want the committed content", got, err)
	}
	os.Symlink("a", filepath.Join(d.Path(), "link"))
	if _, err := d.ReadFile("link"); err == nil {
		t.Error("ReadFile followed a symlink")
	}
}

// TestOpenChecks checks the two trust levels: OpenOwned accepts a directory others may read and refuses one
// they may write, OpenPrivate and Sub refuse any access by others; both refuse a symlink and another user's
// directory, and say how to fix a mode.
func TestOpenChecks(t *testing.T) {
	base := t.TempDir()
	mk := func(name string, mode os.FileMode) string {
		p := filepath.Join(base, name)
		if err := os.Mkdir(p, mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
		return p
	}
	readable, writable := mk("readable", 0o755), mk("writable", 0o757)
	link := filepath.Join(base, "link")
	os.Symlink(readable, link)
	for _, c := range []struct {
		open func(string) (*Dir, error)
		path string
		want string // "" for success
	}{
		{OpenOwned, readable, ""},
		{OpenOwned, writable, "has mode 0757, writable by group or others; run: chmod 700 " + writable},
		{OpenPrivate, readable, "has mode 0755, open to group or others; run: chmod 700 " + readable},
		{OpenOwned, link, "is a symlink"},
		{OpenOwned, filepath.Join(base, "new", "er"), ""},
	} {
		d, err := c.open(c.path)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("open %s = %v, want %q", c.path, err, c.want)
		}
		if d != nil {
			d.Close()
		}
	}
	if fi, err := os.Stat(filepath.Join(base, "new")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("created parent: %v, %v; want 0700", fi.Mode().Perm(), err)
	}
	d, err := OpenOwned(readable)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	old := syscall.Umask(0o277)
	sub, err := d.Sub("sub")
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	sub.Close()
	if fi, err := os.Stat(filepath.Join(readable, "sub")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("Sub under umask 0277: mode %v, %v; want 0700", fi.Mode().Perm(), err)
	}
	if os.Geteuid() == 0 {
		theirs := mk("theirs", 0o700)
		os.Chown(theirs, 65534, 65534)
		if _, err := OpenOwned(theirs); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
			t.Errorf("OpenOwned of another user's directory = %v", err)
		}
	}
}

// TestNoSpace fills a small tmpfs (root only): the error of a write that runs out of space wraps ENOSPC, says
// so, names the path, and leaves no temp file.
func TestNoSpace(t *testing.T) {
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root): %v", err)
	}
	defer syscall.Unmount(mnt, syscall.MNT_DETACH)
	d, err := OpenPrivate(filepath.Join(mnt, "d"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	err = d.Write("big", make([]byte, 1<<20), 0o600)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left on device") ||
		!strings.Contains(err.Error(), filepath.Join(mnt, "d")) {
		t.Fatalf("Write on a full disk = %v, want ENOSPC naming the path", err)
	}
	if entries, _ := d.ReadDir(); len(entries) != 0 {
		t.Errorf("left %v behind", entries)
	}
}

// TestAncestors checks the directories above a data directory: one that others may write refuses it unless it
// is sticky, as /tmp is, and one of another user (other than root) refuses it.
func TestAncestors(t *testing.T) {
	base := t.TempDir()
	for _, c := range []struct {
		mode  os.FileMode
		owner int
		want  string
	}{
		{0o777, -1, "has mode 0777: others could replace what is inside it; refusing to use it: run: chmod go-w "},
		{0o775, -1, "has mode 0775"},
		{0o777 | os.ModeSticky, -1, ""},
		{0o755, -1, ""},
		{0o755, 65534, "is owned by uid 65534, who could replace what is inside it"},
	} {
		parent, err := os.MkdirTemp(base, "p")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(parent, c.mode); err != nil {
			t.Fatal(err)
		}
		if c.owner >= 0 {
			if err := os.Chown(parent, c.owner, c.owner); err != nil {
				t.Skipf("cannot chown (needs root): %v", err)
			}
		}
		// The data directory two levels down, the level between it and parent not made yet.
		d, err := OpenOwned(filepath.Join(parent, "new", "home"))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("parent %v owner %d: %v, want %q", c.mode, c.owner, err, c.want)
		}
		if d != nil {
			d.Close()
		}
		if _, err := os.Lstat(filepath.Join(parent, "new")); c.want != "" && err == nil {
			t.Errorf("parent %v owner %d: created a directory in a parent it refused", c.mode, c.owner)
		}
	}
}
