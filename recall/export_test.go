package recall

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func export(t testing.TB, s *Store) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := s.Export(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sampleStore holds every kind of row: flagged and referenced artifacts, a supersession, known claims with
// evidence in two artifacts, and gaps in the ids left by a forget.
func sampleStore(t *testing.T) *Store {
	s := openTemp(t)
	ctx := context.Background()
	remember(t, s, t0, "Sessions live in Redis", "The build uses Bazel")
	gone := remember(t, s, t0.Add(1), "A claim to forget")
	a, c := note("s2", "t2", "Sessions live in Memcached", "The build uses Bazel")
	a.Flagged = true
	a.Refs = []Ref{{"window", "W12"}, {"item", "I-1"}}
	if _, err := s.ApplyWith(ctx, a, c, t0.Add(2), ApplyOptions{Supersede: SupersedeListed}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Forget(ctx, []string{gone.Artifact}, ForgetOptions{Now: t0}); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestExportImportRoundTrip(t *testing.T) {
	src := sampleStore(t)
	first := export(t, src)
	for _, want := range []string{`"type":"supersession"`, `"flagged":true`, `"key":"window","value":"W12"`, `"type":"end"`} {
		if !bytes.Contains(first, []byte(want)) {
			t.Errorf("export lacks %s:\n%s", want, first)
		}
	}
	for _, batch := range []int{1, 3, 0} {
		dst := openTemp(t)
		res, err := dst.Import(context.Background(), bytes.NewReader(first), ImportOptions{Now: t0, BatchSize: batch})
		if err != nil {
			t.Fatal(err)
		}
		if res.Artifacts != 2 || res.Claims != 3 || res.Supersessions != 1 || res.Record == 0 {
			t.Fatalf("batch %d: imported %+v", batch, res)
		}
		if second := export(t, dst); !bytes.Equal(first, second) {
			t.Fatalf("batch %d: export after import differs:\n%s\nwant\n%s", batch, second, first)
		}
		// The same again adds nothing.
		again, err := dst.Import(context.Background(), bytes.NewReader(first), ImportOptions{Now: t0})
		if err != nil || again.Counts != (Counts{}) {
			t.Fatalf("second import: %+v, %v", again, err)
		}
		// Undo takes the whole import out, whatever its batches.
		if _, err := dst.Undo(context.Background()); err != nil { // the empty second import recorded nothing
			t.Fatal(err)
		}
		if got := counts(t, dst); got != counts(t, openTemp(t)) {
			t.Fatalf("after undo of the import: %s", got)
		}
	}
	// Into a store that holds other rows, ids are new and known rows are matched.
	dst := openTemp(t)
	remember(t, dst, t0, "An older claim", "The build uses Bazel")
	res, err := dst.Import(context.Background(), bytes.NewReader(first), ImportOptions{Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if res.Claims != 2 || res.Artifacts != 2 {
		t.Fatalf("merge import: %+v", res)
	}
	r, _ := dst.Recall(context.Background(), "sessions", 10)
	if got := texts(r.Claims); len(got) != 1 || got[0] != "Sessions live in Memcached" || !r.Claims[0].Flagged {
		t.Fatalf("after merge import: %+v", r.Claims)
	}
}

func TestImportRejects(t *testing.T) {
	good := export(t, sampleStore(t))
	lines := strings.SplitAfter(string(good), "\n")
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		data string
	}{
		{"empty", ""},
		{"cut", strings.Join(lines[:len(lines)-2], "")},
		{"no newline", strings.TrimSuffix(string(good), "\n")},
		{"no header", strings.Join(lines[1:], "")},
		{"edited bytes", strings.Replace(string(good), `"data":"`, `"data":"AAAA`, 1)},
		{"claim text not in artifact", strings.Replace(string(good), `"text":"Sessions live in Redis"`, `"text":"Invented claim"`, 1)},
		{"span outside", strings.Replace(string(good), `"end":22`, `"end":9999`, 1)},
		{"unknown field", strings.Replace(string(good), `{"type":"claim",`, `{"type":"claim","x":1,`, 1)},
		{"out of order", lines[0] + strings.Join(lines[2:len(lines)-2], "") + lines[1] + lines[len(lines)-2]},
		{"after end", string(good) + lines[1]},
	} {
		s := openTemp(t)
		before := counts(t, s)
		_, err := s.Import(ctx, strings.NewReader(tc.data), ImportOptions{Now: t0, BatchSize: 1})
		if !errors.Is(err, ErrImport) {
			t.Errorf("%s: %v, want ErrImport", tc.name, err)
		}
		if after := counts(t, s); after != before {
			t.Errorf("%s: the failed import left %s", tc.name, after)
		}
		if h, _ := s.UndoHistory(ctx); len(h) != 0 {
			t.Errorf("%s: the failed import left undo records %+v", tc.name, h)
		}
		if files := casFiles(t, s); len(files) != 0 {
			t.Errorf("%s: the failed import left artifact files %v", tc.name, files)
		}
	}
}

// casFiles lists the files under the store's artifact directory.
func casFiles(t *testing.T, s *Store) []string {
	t.Helper()
	var files []string
	err := fs.WalkDir(s.root.Root().FS(), casDir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == casDir {
			return fs.SkipDir
		}
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestImportCancelled: an import cancelled part way returns the context's error (memoree exits 130 for it),
// not an undo conflict, and leaves neither rows nor artifact files behind.
func TestImportCancelled(t *testing.T) {
	src := openTemp(t)
	for i := range 40 {
		remember(t, src, t0.Add(time.Duration(i)), fmt.Sprintf("Service svc%d listens on port %d", i, 9000+i))
	}
	data := export(t, src)
	for _, at := range []int{len(data) / 4, len(data) / 2, len(data) - 200} {
		ctx, cancel := context.WithCancel(context.Background())
		s := openTemp(t)
		before := counts(t, s)
		_, err := s.Import(ctx, &cancelAfter{r: bytes.NewReader(data), n: at, cancel: cancel}, ImportOptions{Now: t0, BatchSize: 7})
		cancel()
		if !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "undo") {
			t.Errorf("cancelled after %d bytes: %v, want context.Canceled alone", at, err)
		}
		if after := counts(t, s); after != before {
			t.Errorf("cancelled after %d bytes: the import left %s", at, after)
		}
		if files := casFiles(t, s); len(files) != 0 {
			t.Errorf("cancelled after %d bytes: the import left artifact files %v", at, files)
		}
	}
}

// cancelAfter reads r and calls cancel once n bytes have been read.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p[:min(len(p), max(c.n, 1))])
	if c.n -= k; c.n <= 0 {
		c.cancel()
	}
	return k, err
}

// FuzzExportImport builds a store from the lines of the input (each line a claim, every third note applied
// with supersession), exports it, imports it into an empty store and exports again: the same bytes.
func FuzzExportImport(f *testing.F) {
	f.Add("Sessions live in Redis\nThe build uses Bazel\nSessions live in Memcached\nnaïve café\n")
	f.Add("# Heading > with separator\nunder it\n")
	f.Add("a b c\n\n\"quoted\" and \\ back\tslash\n日本語のテキスト\n")
	f.Fuzz(func(t *testing.T, input string) {
		if !utf8.ValidString(input) || len(input) > 2000 {
			return
		}
		var lines []string
		seen := map[string]bool{}
		for _, l := range strings.Split(input, "\n") {
			if strings.TrimSpace(l) != l || l == "" || seen[strings.ToLower(l)] {
				continue
			}
			seen[strings.ToLower(l)] = true
			lines = append(lines, l)
		}
		if len(lines) == 0 {
			return
		}
		src := openTemp(t)
		ctx := context.Background()
		for i := 0; i < len(lines); i += 2 {
			a, c := note("s", "t", lines[i:min(i+2, len(lines))]...)
			if len(c) == 2 {
				// The first line as the second claim's context, as a heading would be.
				c[1].Context = c[0].Text
			}
			if i%3 == 0 {
				a.Refs = []Ref{{"n", strings.Repeat("x", i+1)}}
			}
			a.Flagged = i%4 == 0
			mode := SupersedeNone
			if i%3 == 1 {
				mode = SupersedeListed
			}
			if _, err := src.ApplyWith(ctx, a, c, t0.Add(1), ApplyOptions{Supersede: mode}); err != nil {
				t.Fatal(err)
			}
		}
		first := export(t, src)
		dst := openTemp(t)
		if _, err := dst.Import(ctx, bytes.NewReader(first), ImportOptions{Now: t0, BatchSize: 2}); err != nil {
			t.Fatal(err)
		}
		if second := export(t, dst); !bytes.Equal(first, second) {
			t.Fatalf("round trip differs:\n%s\nwant\n%s", second, first)
		}
	})
}

// TestExportReadOnly: memoree export opens the store read-only.
func TestExportReadOnly(t *testing.T) {
	dir := t.TempDir() + "/store"
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	remember(t, s, t0, "A claim to export")
	want := export(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenExisting(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if got := export(t, ro); !bytes.Equal(got, want) {
		t.Fatalf("read-only export differs:\n%s\nwant\n%s", got, want)
	}
	// Dry runs and candidates work read-only too.
	if _, err := ro.Forget(context.Background(), []string{"1"}, ForgetOptions{DryRun: true}); err != nil {
		t.Fatal(err)
	}
	_, c := note("s", "t", "A claim to import")
	if _, err := ro.Candidates(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if _, err := ro.Forget(context.Background(), []string{"1"}, ForgetOptions{}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("forget on a read-only store: %v", err)
	}
}

// TestExportEmpty checks that ExportEmpty writes exactly what Export writes for a new store.
func TestExportEmpty(t *testing.T) {
	s := openTemp(t)
	var want, got bytes.Buffer
	if _, err := s.Export(context.Background(), &want); err != nil {
		t.Fatal(err)
	}
	if _, err := ExportEmpty(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("ExportEmpty wrote %q, Export of a new store %q", got.String(), want.String())
	}
}
