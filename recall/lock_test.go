package recall

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memoree/memoree/internal/lock"
)

// TestWriterGoesBeforeNewReaders checks the gate: once a writer waits for the lock, a reader that comes after it
// waits too, instead of joining the readers already in, so a stream of readers cannot starve the writer.
func TestWriterGoesBeforeNewReaders(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	s := openTemp2(t, dir)
	remember(t, s, t0, "Readers queue behind a waiting writer")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	first, err := OpenExisting(dir)
	if err != nil {
		t.Fatal(err)
	}
	wrote := make(chan error, 1)
	go func() {
		w, err := Open(dir)
		if err == nil {
			_, err = w.Apply(context.Background(), Artifact{Kind: "note", Source: "t", Text: []byte("Written while readers come and go")}, nil, t0)
			err = errors.Join(err, w.Close())
		}
		wrote <- err
	}()
	// Wait until the writer holds the gate, that is waits for the lock.
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	gate, err := lock.Open(root, dir, gateName)
	if err != nil {
		t.Fatal(err)
	}
	defer gate.Close()
	for {
		ok, err := gate.TryLock(false)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		gate.Unlock()
		time.Sleep(time.Millisecond)
	}
	read := make(chan error, 1)
	go func() {
		r, err := OpenExisting(dir)
		if err == nil {
			var res RecallResult
			res, err = r.Recall(context.Background(), "written readers", 5)
			if err == nil && len(res.Claims)+len(res.Artifacts) == 0 {
				err = fmt.Errorf("the reader that came after the writer does not see its write: %+v", res)
			}
			err = errors.Join(err, r.Close())
		}
		read <- err
	}()
	select {
	case err := <-read:
		t.Fatalf("a new reader got in while a writer waited (err %v)", err)
	case <-time.After(100 * time.Millisecond):
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if err := <-read; err != nil {
		t.Fatal(err)
	}
}

func openTemp2(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLockFileModes checks that the store's lock files are 0600 whatever the umask, and that one of mode 0000
// (left by a umask of 0777) is repaired instead of locking its owner out.
func TestLockFileModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	old := syscall.Umask(0o777)
	s, err := Open(dir)
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	remember(t, s, t0, "Lock files are private")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{lockName, gateName} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: mode %v, %v; want 0600 under umask 0777", name, fi.Mode().Perm(), err)
		}
		os.Chmod(p, 0)
	}
	r, err := OpenExisting(dir)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, name := range []string{lockName, gateName} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v; want 0600 repaired", name, fi.Mode().Perm(), err)
		}
	}
}

// TestFullDiskKeepsReads fills a small tmpfs (root only): applies fail with an error that wraps ENOSPC, says
// "no space left on device" and names the store, and recall keeps answering as before they failed.
func TestFullDiskKeepsReads(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a filesystem")
	}
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m"); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root): %v", err)
	}
	defer syscall.Unmount(mnt, syscall.MNT_DETACH)
	dir := filepath.Join(mnt, "home", "store")
	s := openTemp2(t, dir)
	remember(t, s, t0, "The deploy freeze starts on Friday")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Fill the disk but for a little, then apply until the applies fail for lack of space.
	fill, err := os.Create(filepath.Join(mnt, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	fill.Write(make([]byte, 1<<20))
	fill.Close()
	var st syscall.Statfs_t
	for free := int64(64 << 10); free >= 0; free -= 4 << 10 {
		syscall.Statfs(mnt, &st)
		if fi, err := os.Stat(fill.Name()); err == nil {
			os.Truncate(fill.Name(), fi.Size()+int64(st.Bavail)*st.Bsize-free)
		}
		s, err := Open(dir)
		if err == nil {
			var e error
			_, e = s.Apply(context.Background(), Artifact{Kind: "note", Source: "t",
				Text: []byte(fmt.Sprintf("Note %d about %s", free, strings.Repeat("words and more words ", 200)))}, nil, t0)
			err = errors.Join(e, s.Close())
		}
		if err != nil && (!errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left on device") ||
			!strings.Contains(err.Error(), mnt)) {
			t.Errorf("with %d bytes free: %v, want ENOSPC naming the path", free, err)
		}
		r, rerr := OpenExisting(dir)
		if rerr == nil {
			var res RecallResult
			res, rerr = r.Recall(context.Background(), "deploy freeze", 5)
			if rerr == nil && len(res.Claims) == 0 {
				rerr = errors.New("the stored claim is gone")
			}
			r.Close()
		}
		if rerr != nil {
			t.Fatalf("with %d bytes free, after an apply that returned %v, recall fails: %v", free, err, rerr)
		}
	}
}

// TestEmptyLogStillReads checks the state an apply cut short by a full disk leaves, an empty log and a -shm
// file too short to use, on a disk with no space to grow it: reads must still work. It needs root, to mount a
// small tmpfs, and a child process, since in this one SQLite would reuse what it has mapped.
func TestEmptyLogStillReads(t *testing.T) {
	if dir := os.Getenv("RECALL_TEST_EMPTY_LOG"); dir != "" {
		r, err := OpenExisting(dir)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.Recall(context.Background(), "freeze", 5)
		if err != nil || len(res.Claims) == 0 {
			t.Fatalf("recall = %+v, %v", res, err)
		}
		return
	}
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=512k"); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root): %v", err)
	}
	defer syscall.Unmount(mnt, syscall.MNT_DETACH)
	dir := filepath.Join(mnt, "home", "store")
	s := openTemp2(t, dir)
	remember(t, s, t0, "The deploy freeze starts on Friday")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, dbName+"-wal"), nil, 0o600)
	os.WriteFile(filepath.Join(dir, dbName+"-shm"), []byte{0, 0, 0}, 0o600)
	fill, err := os.Create(filepath.Join(mnt, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := fill.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	fill.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestEmptyLogStillReads$", "-test.count=1")
	cmd.Env = append(os.Environ(), "RECALL_TEST_EMPTY_LOG="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("read with an empty log on a full disk: %v\n%s", err, out)
	}
}

// TestOpenExistingChecksTheDataDirectory checks that a reader refuses a data directory others may write even
// when it holds no store yet, instead of answering "nothing stored" from a directory another user controls,
// and that a missing data directory is no store, with nothing created.
func TestOpenExistingChecksTheDataDirectory(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if _, err := OpenExisting(filepath.Join(home, "store")); !errors.Is(err, ErrNoStore) {
		t.Fatalf("OpenExisting with no data directory = %v, want ErrNoStore", err)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Fatalf("OpenExisting created the data directory: %v", err)
	}
	os.Mkdir(home, 0o777)
	os.Chmod(home, 0o777)
	if _, err := OpenExisting(filepath.Join(home, "store")); err == nil || !strings.Contains(err.Error(), "writable by group or others") {
		t.Fatalf("OpenExisting under a 0777 data directory = %v, want a refusal", err)
	}
}
