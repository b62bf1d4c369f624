package pending

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	// s0 and s21 hash to IDs that share "ck-ec".
	for _, s := range []string{"s0", "s21"} {
		if _, _, err := d.Put(note(s, "x"), t0); err != nil {
			t.Fatal(err)
		}
	}
	var amb *AmbiguousError
	if _, err := d.Resolve("ck-ec"); !errors.As(err, &amb) || len(amb.Candidates) != 2 {
		t.Fatalf("Resolve(ck-ec) = %v, want ambiguity between 2", err)
	}
	if id, err := d.Resolve("ec18"); err != nil || id != IDFor("s0") {
		t.Fatalf("Resolve(ec18) = %q, %v", id, err)
	}
	if _, err := d.Resolve("ffff"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Resolve(ffff) = %v, want ErrNotFound", err)
	}
	if _, err := d.Resolve("ck-"); err == nil {
		t.Fatal("Resolve accepted a 3-character prefix")
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

func TestStrayTempFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pending")
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, ".tmp-ck-000000000000.json-1")
	fresh := filepath.Join(dir, ".tmp-ck-111111111111.json-2")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("{torn"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Either side of the ten-minute threshold the documentation gives.
	for p, age := range map[string]time.Duration{stale: 11 * time.Minute, fresh: 9 * time.Minute} {
		at := time.Now().Add(-age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := d.Put(note("S1", "x"), t0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Fatalf("checkpoint, the hot path, touched the temp files: %v", err)
	}
	if items, err := d.List(); err != nil || len(items) != 1 {
		t.Fatalf("List = %v, %v; want the one checkpoint and no temp file", items, err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale temp file not removed: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a temp file that may belong to a live write was removed: %v", err)
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

func TestMarkAppliedRefusesChangedText(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "pending"))
	if err != nil {
		t.Fatal(err)
	}
	it, _, err := d.Put(note("S1", "one"), t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.MarkApplied(it.ID, TextHash("other"), t0); err == nil {
		t.Fatal("MarkApplied accepted a hash of other text")
	}
	got, err := d.MarkApplied(it.ID, TextHash("one"), t0)
	if err != nil || got.Applied == nil || got.ChangedSinceApply() {
		t.Fatalf("MarkApplied = %+v, %v", got, err)
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
