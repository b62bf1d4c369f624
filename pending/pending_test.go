package pending

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memoree/memoree/scan"
)

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

func note(session, text string) Note {
	return Note{Session: session, Text: []byte(text), OriginalBytes: len(text)}
}

func TestPutReplaceKeepsCreated(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "pending"))
	if err != nil {
		t.Fatal(err)
	}
	first, prev, err := d.Put(Note{Session: "S1", Task: "t1", Text: []byte("one")}, t0)
	if err != nil || prev != nil {
		t.Fatalf("first Put: prev=%v err=%v", prev, err)
	}
	second, prev, err := d.Put(note("S1", "two"), t0.Add(time.Hour))
	if err != nil || prev == nil || prev.Text != "one" || !prev.Updated.Equal(t0) || !prev.Unapplied() {
		t.Fatalf("second Put: prev=%+v err=%v; want the unapplied first text, updated at %v", prev, err, t0)
	}
	if second.ID != first.ID || !second.Created.Equal(t0) || !second.Updated.Equal(t0.Add(time.Hour)) {
		t.Fatalf("replacement = %+v, want ID %s created %v", second, first.ID, t0)
	}
	if second.Task != "t1" || second.Text != "two" {
		t.Fatalf("replacement task %q text %q, want t1, two", second.Task, second.Text)
	}
}

// TestPutFlags checks the two flags Put derives: Truncated when the text was cut from a longer input (not
// when the input size is left out), Flagged when the scan found something.
func TestPutFlags(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "pending"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n                  Note
		truncated, flagged bool
	}{
		{Note{Session: "whole", Text: []byte("abc"), OriginalBytes: 3}, false, false},
		{Note{Session: "unsized", Text: []byte("abc")}, false, false},
		{Note{Session: "cut", Text: []byte("abc"), OriginalBytes: 9000}, true, false},
		{Note{Session: "secret", Text: []byte("abc"), OriginalBytes: 3, Findings: []scan.Finding{{Rule: "r"}}}, false, true},
	} {
		it, _, err := d.Put(c.n, t0)
		if err != nil {
			t.Fatal(err)
		}
		if it.Truncated != c.truncated || it.Flagged != c.flagged {
			t.Errorf("%s: truncated %v flagged %v, want %v %v", c.n.Session, it.Truncated, it.Flagged, c.truncated, c.flagged)
		}
	}
}

func TestIDIsNotAPath(t *testing.T) {
	for _, s := range []string{"../../x", "/etc/passwd", "a/b", ".", "..", "ck-x.json"} {
		id := IDFor(s)
		if filepath.Base(id) != id || len(id) != len(IDPrefix)+12 {
			t.Errorf("IDFor(%q) = %q, not a short plain name", s, id)
		}
	}
	// The CLI scripts and users' notes name these IDs: they must not change between releases.
	if got := IDFor("S1"); got != "ck-3696ad59777e" {
		t.Fatalf("IDFor(S1) = %s, want ck-3696ad59777e", got)
	}
	if IDFor("S1") == IDFor("S2") {
		t.Fatal("two sessions share an ID")
	}
}

func TestResolve(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "pending"))
	if err != nil {
		t.Fatal(err)
	}
	// s46 and s92 hash to IDs that share "ck-964f"; s0's is ck-ec18eac8d758.
	for _, s := range []string{"s46", "s92", "s0"} {
		if _, _, err := d.Put(note(s, "x"), t0); err != nil {
			t.Fatal(err)
		}
	}
	var amb *AmbiguousError
	if _, err := d.Resolve("ck-964f"); !errors.As(err, &amb) || len(amb.Candidates) != 2 {
		t.Fatalf("Resolve(ck-964f) = %v, want ambiguity between 2", err)
	}
	if id, err := d.Resolve("ec18"); err != nil || id != IDFor("s0") {
		t.Fatalf("Resolve(ec18) = %q, %v", id, err)
	}
	if _, err := d.Resolve("ffff"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Resolve(ffff) = %v, want ErrNotFound", err)
	}
	for _, p := range []string{"ck-", "ck-e", "ck-ec1", "ec1"} {
		if _, err := d.Resolve(p); err == nil {
			t.Fatalf("Resolve accepted %q, under %d hex digits", p, MinPrefix)
		}
	}
}

func TestConcurrentPuts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pending")
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for s := 0; s < 4; s++ {
		if _, _, err := d.Put(note(fmt.Sprint("S", s), "first"), t0); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A separate Dir per goroutine, as separate processes would have.
			d, err := Open(dir)
			if err == nil {
				_, _, err = d.Put(note(fmt.Sprint("S", i%4), fmt.Sprint("update ", i)), t0.Add(time.Duration(i+1)*time.Minute))
			}
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	items, err := d.List()
	if err != nil || len(items) != 4 {
		t.Fatalf("List = %d items, %v; want 4", len(items), err)
	}
	for _, it := range items {
		if !it.Created.Equal(t0) {
			t.Errorf("%s created %v, want %v", it.ID, it.Created, t0)
		}
	}
}

// TestStrayTempFiles checks that temp files left by dead writes go, whatever their age, as soon as a command
// takes a checkpoint's lock or lists, and that a temp file whose writer is alive (it holds the file's lock)
// stays.
func TestStrayTempFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pending")
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	dead := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("a note's text"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	live := dead(".tmp-ck-111111111111.json-2")
	f, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"checkpoint", func() error { _, _, err := d.Put(note("S1", "x"), t0); return err }},
		{"list", func() error { _, err := d.List(); return err }},
		{"apply", func() error {
			_, err := d.Apply(IDFor("S1"), t0, func(it Item) (string, error) { return TextHash(it.Text), nil })
			return err
		}},
		{"drop", func() error { _, err := d.Drop(IDFor("S1")); return err }},
	} {
		left := dead(".tmp-ck-000000000000.json-1")
		own := dead(".tmp-" + IDFor("S1") + ".json-3")
		if err := c.run(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, p := range []string{left, own} {
			if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s left the dead temp file %s: %v", c.name, filepath.Base(p), err)
			}
		}
		if _, err := os.Stat(live); err != nil {
			t.Errorf("%s removed the temp file of a live write: %v", c.name, err)
		}
	}
	dead(".tmp-ck-000000000000.json-4")
	if n, err := d.SweepTemps(); n != 1 || err != nil {
		t.Errorf("SweepTemps = %d, %v; want 1 (the live write's file kept)", n, err)
	}
}

// TestPutRefusesOtherSession checks that a checkpoint file whose recorded session is not the one its ID is
// derived from is never replaced by another session's checkpoint.
func TestPutRefusesOtherSession(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pending")
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, IDFor("S1")+".json")
	foreign := `{"id":"` + IDFor("S1") + `","session":"X","task":"","created":"2026-01-01T00:00:00Z",` +
		`"updated":"2026-01-01T00:00:00Z","bytes":1,"original_bytes":1,"text":"y"}`
	if err := os.WriteFile(path, []byte(foreign), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Put(note("S1", "x"), t0); err == nil || !strings.Contains(err.Error(), "belongs to another session") {
		t.Fatalf("Put over another session's file = %v, want a refusal", err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != foreign {
		t.Errorf("the other session's file changed: %q, %v", got, err)
	}
}

func TestCorruptFileDoesNotHideOthers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pending")
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Put(note("S1", "x"), t0); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ck-000000000000.json"), []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	items, err := d.List()
	if len(items) != 1 || err == nil {
		t.Fatalf("List = %d items, err %v; want the good item and an error for the torn one", len(items), err)
	}
}

// TestApplyRecordsTheStoredText: Apply records an apply only for the text the store stored, and a
// replacement after it shows as changed.
func TestApplyRecordsTheStoredText(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "pending"))
	if err != nil {
		t.Fatal(err)
	}
	it, _, err := d.Put(note("S1", "one"), t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Apply(it.ID, t0, func(Item) (string, error) { return TextHash("other"), nil }); err == nil {
		t.Fatal("Apply recorded a store that returned the hash of other text")
	}
	if got, _ := d.Get(it.ID); got.Applied != nil {
		t.Fatalf("a mismatched store was recorded: %+v", got.Applied)
	}
	got, err := d.Apply(it.ID, t0, func(it Item) (string, error) { return TextHash(it.Text), nil })
	if err != nil || got.Applied == nil || got.ChangedSinceApply() {
		t.Fatalf("Apply = %+v, %v", got, err)
	}
	it, prev, _ := d.Put(note("S1", "two"), t0)
	if !it.ChangedSinceApply() {
		t.Fatal("replacement after apply does not show as changed")
	}
	if prev == nil || prev.Unapplied() {
		t.Fatalf("the replaced text was applied, but Put reports it as %+v", prev)
	}
	if _, prev, _ := d.Put(note("S1", "three"), t0); prev == nil || !prev.Unapplied() {
		t.Fatalf("the replaced text \"two\" was never applied, but Put reports it as %+v", prev)
	}
	if got, err := d.Get(strings.ToUpper(it.ID[:7])); err != nil || got.ID != it.ID {
		t.Fatalf("Get(%q) = %v, %v; an uppercase prefix must name the checkpoint", strings.ToUpper(it.ID[:7]), got.ID, err)
	}
}

// TestCorruptFileCanBeDropped checks the way out of an unreadable checkpoint file: every other use fails with
// ErrCorrupt and says to drop it, and Drop removes it, after which the session stages again.
func TestCorruptFileCanBeDropped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pending")
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	id := IDFor("S1")
	path := filepath.Join(dir, id+".json")
	if err := os.WriteFile(path, []byte(`{"id":"`+id+`","sess`), 0o600); err != nil {
		t.Fatal(err)
	}
	hint := "run 'memoree pending drop " + id + "' to discard it"
	if _, _, err := d.Put(note("S1", "x"), t0); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), hint) {
		t.Errorf("Put over a torn file = %v, want ErrCorrupt with %q", err, hint)
	}
	if _, err := d.Get(id); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Get of a torn file = %v, want ErrCorrupt", err)
	}
	it, err := d.Drop(id)
	if err != nil || it.ID != id || it.Session != "" {
		t.Fatalf("Drop of a torn file = %+v, %v; want its ID alone", it, err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the torn file is still there: %v", err)
	}
	if _, prev, err := d.Put(note("S1", "x"), t0); err != nil || prev != nil {
		t.Errorf("Put after Drop = prev %v, %v; want a fresh checkpoint", prev, err)
	}
}

// TestOpenRefusesSharedHome checks the data directory and the directories inside it: each must be the user's,
// the data directory closed to writes by others and the rest to any access; each refusal says how to fix the
// mode. Modes and owners are checked by memoree itself, so this holds for root too.
func TestOpenRefusesSharedHome(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(home string) error
		want  string
	}{
		{"home 0777", func(h string) error { return os.Chmod(h, 0o777) }, "has mode 0777, writable by group or others; run: chmod 700 "},
		{"home 0775", func(h string) error { return os.Chmod(h, 0o775) }, "writable by group or others"},
		{"home of another", func(h string) error { return os.Chown(h, 65534, 65534) }, "is owned by uid 65534, not by you"},
		{"pending 0750", func(h string) error { return os.Chmod(filepath.Join(h, "pending"), 0o750) }, "pending has mode 0750, open to group or others; run: chmod 700 "},
		{"locks of another", func(h string) error { return os.Chown(filepath.Join(h, "pending", "locks"), 65534, 65534) }, "locks is owned by uid 65534"},
		{"locks a symlink", func(h string) error {
			l := filepath.Join(h, "pending", "locks")
			if err := os.Remove(l); err != nil {
				return err
			}
			return os.Symlink(t.TempDir(), l)
		}, "locks is a symlink; refusing to use it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			d, err := Open(filepath.Join(home, "pending"))
			if err != nil {
				t.Fatal(err)
			}
			d.Close()
			if err := c.setup(home); err != nil {
				t.Skipf("cannot set up: %v", err)
			}
			if d, err := Open(filepath.Join(home, "pending")); err == nil || !strings.Contains(err.Error(), c.want) {
				if d != nil {
					d.Close()
				}
				t.Fatalf("Open = %v, want an error saying %q", err, c.want)
			}
		})
	}
	// A data directory that others may read but not write is accepted, as ssh accepts such a home.
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(home, 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := Open(filepath.Join(home, "pending"))
	if err != nil {
		t.Fatalf("Open under a 0755 data directory: %v", err)
	}
	d.Close()
}

// TestSwappedDirectoryRedirectsNothing replaces the pending directory by a symlink to another directory after
// Open, as another user with write access to the parent could: reads and writes still go to the directory
// that was checked.
func TestSwappedDirectoryRedirectsNothing(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, "pending")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, _, err := d.Put(note("S1", "mine"), t0); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "theirs")
	od, err := Open(other)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := od.Put(note("S1", "theirs"), t0); err != nil {
		t.Fatal(err)
	}
	od.Close()
	if err := os.Rename(path, filepath.Join(home, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, path); err != nil {
		t.Fatal(err)
	}
	it, err := d.Get(IDFor("S1"))
	if err != nil || it.Text != "mine" {
		t.Fatalf("Get after the swap = %q, %v; want mine", it.Text, err)
	}
	if _, _, err := d.Put(note("S2", "written after the swap"), t0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(other, IDFor("S2")+".json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a write went through the swapped-in symlink: %v", err)
	}
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "is a symlink") {
		t.Errorf("Open of the swapped-in symlink = %v, want a refusal", err)
	}
}

// TestApplyIsOneDecision checks Apply's two outcomes: stored and recorded, or nothing stored. A drop or a
// replacement racing it waits for it, a record that cannot be written stops it before store is called, and an
// error from store leaves the record as it was.
func TestApplyIsOneDecision(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pending")
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	id := IDFor("S1")
	if _, _, err := d.Put(note("S1", "old"), t0); err != nil {
		t.Fatal(err)
	}
	stored := ""
	storeText := func(it Item) (string, error) { stored = it.Text; return TextHash(it.Text), nil }

	// A failing store: no record.
	boom := errors.New("store failed")
	if _, err := d.Apply(id, t0, func(Item) (string, error) { return "", boom }); !errors.Is(err, boom) {
		t.Fatalf("Apply with a failing store = %v, want its error", err)
	}
	if it, _ := d.Get(id); it.Applied != nil {
		t.Fatal("a failed store was recorded as applied")
	}

	// Racing: inside store, a replacement and a drop from other Dirs (other processes) must wait for the apply.
	other, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	it, err := d.Apply(id, t0, func(it Item) (string, error) {
		go func() { _, _, err := other.Put(note("S1", "new"), t0.Add(time.Minute)); done <- err }()
		go func() { _, err := other.Drop(id); done <- err }()
		time.Sleep(50 * time.Millisecond) // long enough for either to get in, were the lock not held
		return storeText(it)
	})
	if err != nil || stored != "old" || it.Applied == nil || it.Applied.Artifact != TextHash("old") {
		t.Fatalf("Apply = %+v, %v, stored %q; want old applied and recorded", it, err, stored)
	}
	for range 2 {
		if err := <-done; err != nil && !errors.Is(err, ErrNotFound) {
			t.Fatal(err)
		}
	}
	// Dropped, or replaced after the apply (ChangedSinceApply): never a record of text that was not stored.
	if got, err := d.Get(id); err == nil && got.Applied != nil && !got.ChangedSinceApply() && got.Text != "old" {
		t.Fatalf("record %+v describes text that was not stored", got)
	}

	// A directory where the record cannot be written (full, read-only): store is never called. Root ignores
	// modes, so the directory is made unwritable by replacing the temp file's place with a read-only mount
	// when possible; otherwise by a mode, for other users.
	if _, _, err := d.Put(note("S3", "three"), t0); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if err := syscall.Mount(dir, dir, "", syscall.MS_BIND, ""); err != nil {
			t.Skipf("cannot bind-mount to make the directory read-only: %v", err)
		}
		defer syscall.Unmount(dir, syscall.MNT_DETACH)
		if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
			t.Skipf("cannot remount read-only: %v", err)
		}
		// The bind mount is a new directory at the path: reopen it.
		d, err = Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
	} else {
		os.Chmod(dir, 0o500)
		defer os.Chmod(dir, 0o700)
	}
	called := false
	if _, err := d.Apply(IDFor("S3"), t0, func(it Item) (string, error) { called = true; return storeText(it) }); err == nil || called {
		t.Fatalf("Apply into an unwritable directory = %v, store called %v; want an error and no store", err, called)
	} else if !strings.Contains(err.Error(), "nothing stored") {
		t.Errorf("Apply error %q does not say nothing was stored", err)
	}
}

// TestRefsRoundTrip checks that a checkpoint's refs are stored and read back, and that a replacement's refs
// replace the earlier ones.
func TestRefsRoundTrip(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "pending"))
	if err != nil {
		t.Fatal(err)
	}
	refs := []Ref{{"window", "W12"}, {"issue", "FW-233"}}
	n := note("S1", "one")
	n.Refs = refs
	it, _, err := d.Put(n, t0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.Get(it.ID)
	if err != nil || !slices.Equal(got.Refs, refs) {
		t.Fatalf("Get = %v, %v; want refs %v", got.Refs, err, refs)
	}
	if _, _, err := d.Put(note("S1", "two"), t0); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.Get(it.ID); len(got.Refs) != 0 {
		t.Fatalf("a replacement without refs kept %v", got.Refs)
	}
}
