//go:build unix

package lock

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestModes checks that a lock file is 0600 whatever the umask, that one of the user's with another mode (0000
// under umask 0777, which would lock its owner out) is given 0600 back, and that another user's is refused.
// Root ignores modes, so the modes are read back rather than relied on.
func TestModes(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	old := syscall.Umask(0o777)
	l, err := Open(root, dir, "new.lock")
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	for _, name := range []string{"zero.lock", "open.lock"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(dir, "zero.lock"), 0)
	os.Chmod(filepath.Join(dir, "open.lock"), 0o666)
	for _, c := range []struct {
		name string
		open func(*os.Root, string, string) (*File, error)
	}{{"new.lock", Open}, {"zero.lock", Open}, {"open.lock", OpenExisting}} {
		l, err := c.open(root, dir, c.name)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		l.Close()
		if fi, err := os.Stat(filepath.Join(dir, c.name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600", c.name, fi.Mode().Perm(), err)
		}
	}
	if _, err := OpenExisting(root, dir, "missing.lock"); !os.IsNotExist(err) {
		t.Errorf("OpenExisting of a missing file = %v, want not-exist", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.lock")); !os.IsNotExist(err) {
		t.Errorf("OpenExisting created the file: %v", err)
	}
	if os.Geteuid() == 0 {
		theirs := filepath.Join(dir, "theirs.lock")
		os.WriteFile(theirs, nil, 0o600)
		os.Chown(theirs, 65534, 65534)
		if _, err := Open(root, dir, "theirs.lock"); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
			t.Errorf("Open of another user's lock file = %v, want a refusal", err)
		}
	}
	os.Symlink("new.lock", filepath.Join(dir, "link.lock"))
	if _, err := Open(root, dir, "link.lock"); err == nil {
		t.Error("Open followed a symlink")
	}
}

// TestExclusion checks that two Files on one lock file exclude each other as processes do, and that Lock
// with a deadline gives up with the context's error.
func TestExclusion(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	a, _ := Open(root, dir, "x.lock")
	b, _ := Open(root, dir, "x.lock")
	defer a.Close()
	defer b.Close()
	if err := a.Lock(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	if ok, err := b.TryLock(false); !ok || err != nil {
		t.Fatalf("second shared lock: %v, %v", ok, err)
	}
	b.Unlock()
	if ok, err := b.TryLock(true); ok || err != nil {
		t.Fatalf("exclusive lock beside a shared one: %v, %v", ok, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := b.Lock(ctx, true); err != context.DeadlineExceeded {
		t.Fatalf("Lock past its deadline = %v", err)
	}
	a.Unlock()
	if err := b.Lock(context.Background(), true); err != nil {
		t.Fatal(err)
	}
}
