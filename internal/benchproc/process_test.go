package benchproc

// Timing policy for this file: a benchmark iteration runs memoree once and its floor once, alternating which
// goes first, and times each from fork to exit. Everything else (building commands, writing inputs, resetting
// the stderr file) happens outside the timed span. Every run must exit 0; a failure stops the benchmark with
// the command's stderr. Standard output goes to /dev/null for both sides, as a shell's >/dev/null would.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memoree/memoree/internal/benchnote"
)

// binDir holds the programs under test, built once per test binary by [programs].
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "benchproc-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchproc: error: %v\n", err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var (
	buildOnce sync.Once
	buildErr  error
)

// programs returns the paths of memoree, built as 'make build' builds it, and of the floor program.
func programs(tb testing.TB) (memoree, floor string) {
	tb.Helper()
	memoree, floor = filepath.Join(binDir, "bin", "memoree"), filepath.Join(binDir, "floor")
	buildOnce.Do(func() {
		for _, b := range []struct {
			env  []string
			args []string
		}{
			// As the Makefile builds: static, so neither program pays for the dynamic loader at start-up.
			{[]string{"CGO_ENABLED=0"}, []string{"build", "-trimpath", "-tags", "urfave_cli_no_docs", "-ldflags", "-X main.buildVersion=bench", "-o", memoree, "github.com/memoree/memoree/cmd/memoree"}},
			{[]string{"CGO_ENABLED=0"}, []string{"build", "-trimpath", "-o", floor, "github.com/memoree/memoree/internal/benchproc/floor"}},
			// As a user's plain 'go install' builds: the go command's defaults, cgo and dynamic linking included
			// where a C compiler is found.
			{[]string{"GOBIN=" + filepath.Dir(goInstalled(memoree))}, []string{"install", "github.com/memoree/memoree/cmd/memoree"}},
		} {
			cmd := exec.Command("go", b.args...)
			cmd.Env = append(os.Environ(), b.env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("go %s: %v\n%s", strings.Join(b.args, " "), err, out)
				return
			}
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	// go test caches a result by the files the test process itself reads; the sources above are read by the go
	// command instead. Looking at the binaries, which vanish with binDir, makes every result a cache miss.
	for _, p := range []string{memoree, floor, goInstalled(memoree)} {
		if _, err := os.Stat(p); err != nil {
			tb.Fatal(err)
		}
	}
	return memoree, floor
}

// skipShort skips a test under -short: each of these builds memoree twice and runs it as a whole process,
// which 'make test' leaves to 'make test-full' and 'make bench'.
func skipShort(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-process check: run without -short (make test-full)")
	}
}

// goInstalled returns the path of memoree as a plain 'go install' built it, beside the 'make build' one.
func goInstalled(memoree string) string {
	return filepath.Join(filepath.Dir(filepath.Dir(memoree)), "gobin", "memoree")
}

// harness is the setting of one benchmark or test: the programs, a fresh data directory, and the environment
// both sides of a comparison run with.
type harness struct {
	tb         testing.TB
	memoreeBin string
	floorBin   string
	home       string // MEMOREE_HOME
	floorDir   string // where the floor writes, next to memoree's data
	inputs     string // notes the commands read
	env        []string
	written    map[string]bool // names of the files in inputs
}

func newHarness(tb testing.TB) *harness {
	tb.Helper()
	memoree, floor := programs(tb)
	root := tb.TempDir()
	h := &harness{
		tb: tb, memoreeBin: memoree, floorBin: floor,
		home: filepath.Join(root, "home"), floorDir: filepath.Join(root, "floor"), inputs: filepath.Join(root, "in"),
		written: map[string]bool{},
	}
	for _, d := range []string{h.floorDir, h.inputs} {
		if err := os.Mkdir(d, 0o700); err != nil {
			tb.Fatal(err)
		}
	}
	// Only MEMOREE_HOME may steer memoree: a session or clock from the caller's shell would change what it does.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MEMOREE_") {
			h.env = append(h.env, kv)
		}
	}
	h.env = append(h.env, "MEMOREE_HOME="+h.home)
	return h
}

// input writes text to a file in the inputs directory, once per name, and returns its path.
func (h *harness) input(name, text string) string {
	h.tb.Helper()
	p := filepath.Join(h.inputs, name)
	if !h.written[name] {
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			h.tb.Fatal(err)
		}
		h.written[name] = true
	}
	return p
}

// has reports whether this memoree has the command name (its --help succeeds).
func (h *harness) has(name string) bool {
	return exec.Command(h.memoreeBin, name, "--help").Run() == nil
}

// A proc is one side of a comparison: it returns the command line for iteration i (counted from 0) and the
// file the command reads as standard input, "" for none. A proc that must see new input on every run, such as
// one that stores notes by content, derives it from i.
type proc func(i int) (argv []string, stdin string)

// fixed returns a proc that runs the same command line every time.
func fixed(argv ...string) proc {
	return func(int) ([]string, string) { return argv, "" }
}

// memoree returns a proc running memoree with args.
func (h *harness) memoree(args ...string) proc {
	return fixed(append([]string{h.memoreeBin}, args...)...)
}

// floor returns a proc running the floor program on the note at src ("-" for standard input).
func (h *harness) floor(src string) proc {
	return fixed(h.floorBin, src, h.floorDir, "note")
}

// target is what a comparison should stay within: a ratio to the floor, or a number of milliseconds over it
// (zero: no target of that kind).
type target struct {
	ratio  float64
	overMs float64
}

// compare runs a and floor b.N times each, interleaved, and reports the medians described in the package
// documentation. A median past the target is logged, not failed.
func (h *harness) compare(b *testing.B, a, floor proc, want target) {
	b.Helper()
	h.compareWith(b, a, h, floor, want)
}

// compareWith is [harness.compare] with the floor run in the environment of fh (its MEMOREE_HOME), which
// compares memoree with itself on another data directory.
func (h *harness) compareWith(b *testing.B, a proc, fh *harness, floor proc, want target) {
	b.Helper()
	sa, sf := h.stderrFile("a"), h.stderrFile("floor")
	// One untimed pair first: the page cache and the dynamic state of the machine should not favour either.
	h.time(b, a, 0, sa)
	fh.time(b, floor, 0, sf)

	ta, tf := make([]time.Duration, b.N), make([]time.Duration, b.N)
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			ta[i] = h.time(b, a, i+1, sa)
			tf[i] = fh.time(b, floor, i+1, sf)
		} else {
			tf[i] = fh.time(b, floor, i+1, sf)
			ta[i] = h.time(b, a, i+1, sa)
		}
	}
	b.StopTimer()

	ratios, over := make([]float64, b.N), make([]float64, b.N)
	for i := range b.N {
		ratios[i] = float64(ta[i]) / float64(tf[i])
		over[i] = float64(ta[i]-tf[i]) / float64(time.Millisecond)
	}
	ratio, overMs := median(ratios), median(over)
	b.ReportMetric(ratio, "x-floor")
	b.ReportMetric(overMs, "ms-over-floor")
	b.ReportMetric(medianMicros(ta), "us-memoree")
	b.ReportMetric(medianMicros(tf), "us-floor")
	if b.N == 1 {
		return // the probe run the testing package starts with: one pair is no median
	}
	if want.ratio > 0 && ratio > want.ratio {
		b.Logf("median %.2fx the floor, above the %.1fx target", ratio, want.ratio)
	}
	if want.overMs > 0 && overMs > want.overMs {
		b.Logf("median %.2f ms over the floor, above the %.1f ms target", overMs, want.overMs)
	}
}

// stderrFile returns an empty file for a side's standard error. A file, unlike a buffer, is handed to the child
// as it is, so the harness runs no copying goroutine while a side is timed.
func (h *harness) stderrFile(name string) *os.File {
	f, err := os.Create(filepath.Join(h.tb.TempDir(), name+".stderr"))
	if err != nil {
		h.tb.Fatal(err)
	}
	h.tb.Cleanup(func() { f.Close() })
	return f
}

// time runs iteration i of p and returns how long the process took from start to exit.
func (h *harness) time(b *testing.B, p proc, i int, stderr *os.File) time.Duration {
	b.Helper()
	argv, stdin := p(i)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = h.env
	cmd.Stderr = stderr
	if err := stderr.Truncate(0); err != nil {
		b.Fatal(err)
	}
	if _, err := stderr.Seek(0, 0); err != nil {
		b.Fatal(err)
	}
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		msg, _ := os.ReadFile(stderr.Name())
		b.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, msg)
	}
	return d
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func medianMicros(ds []time.Duration) float64 {
	us := make([]float64, len(ds))
	for i, d := range ds {
		us[i] = float64(d) / float64(time.Microsecond)
	}
	return median(us)
}

const (
	note4K  = 4 << 10  // a note memoree stores whole
	note64K = 64 << 10 // the largest note memoree accepts; it stores the first 4 KiB
)

// BenchmarkCheckpoint4K runs memoree as 'make build' builds it and as a plain 'go install' builds it, each
// against the floor in the same run. The bound of 2x is a guard against regressions, not a goal.
func BenchmarkCheckpoint4K(b *testing.B) {
	h := newHarness(b)
	note := h.input("note-4k.md", benchnote.Text(note4K, 1))
	args := []string{"checkpoint", "--session", "bench", "--file", note}
	b.Run("make-build", func(b *testing.B) { h.compare(b, h.memoree(args...), h.floor(note), target{ratio: 2}) })
	b.Run("go-install", func(b *testing.B) {
		h.compare(b, fixed(append([]string{goInstalled(h.memoreeBin)}, args...)...), h.floor(note), target{ratio: 2})
	})
}

func BenchmarkCheckpoint64K(b *testing.B) {
	h := newHarness(b)
	note := h.input("note-64k.md", benchnote.Text(note64K, 1))
	h.compare(b, h.memoree("checkpoint", "--session", "bench", "--file", note), h.floor(note), target{ratio: 2})
}

func BenchmarkScan64K(b *testing.B) {
	h := newHarness(b)
	if !h.has("scan") {
		b.Skip("memoree has no scan command")
	}
	note := h.input("note-64k.md", benchnote.Text(note64K, 1))
	h.compare(b, h.memoree("scan", "--file", note), fixed("/bin/cat", note), target{overMs: 3})
}

// BenchmarkRememberApply4K times remember --apply of a 4 KiB note against the floor writing the same note.
// Every note restates the one before it, so that a default apply supersedes most of the last one's claims
// and the store fills with superseded history. The keep-old run applies the same notes with --keep-old: no
// candidate search, and the split between supersession and the rest of an apply.
func BenchmarkRememberApply4K(b *testing.B) {
	for _, mode := range []struct {
		name  string
		flags []string
	}{{"supersede", nil}, {"keep-old", []string{"--keep-old"}}} {
		b.Run(mode.name, func(b *testing.B) {
			h := newHarness(b)
			if !h.has("remember") {
				b.Skip("memoree has no remember command")
			}
			// A new note every run, so that every run really stores: the same text twice could be found already
			// stored.
			note := func(i int) string { return h.input(fmt.Sprintf("note-%d.md", i), benchnote.Text(note4K, i)) }
			remember := func(i int) ([]string, string) {
				return append(append([]string{h.memoreeBin, "remember", "--apply"}, mode.flags...), "-"), note(i)
			}
			floor := func(i int) ([]string, string) { return []string{h.floorBin, "-", h.floorDir, "note"}, note(i) }
			h.compare(b, remember, floor, target{ratio: 4})
		})
	}
}

// run runs p's first command line outside any benchmark and returns its standard output; it fails the test
// unless the command exits 0 with nothing on standard error.
func (h *harness) run(t testing.TB, p proc) []byte {
	t.Helper()
	argv, stdin := p(0)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = h.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\nstderr:\n%s", strings.Join(argv, " "), err, stderr.Bytes())
	}
	if stderr.Len() > 0 {
		t.Fatalf("%s: exit status 0, but stderr:\n%s", strings.Join(argv, " "), stderr.Bytes())
	}
	return stdout.Bytes()
}

// TestFloorWritesWhatMemoreeStores checks that each checkpoint benchmark compares equal work: the floor keeps
// the bytes memoree keeps, with the mode memoree uses, and memoree finds nothing to flag in the notes.
func TestFloorWritesWhatMemoreeStores(t *testing.T) {
	skipShort(t)
	for _, size := range []int{note4K, note64K} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			h := newHarness(t)
			text := benchnote.Text(size, 1)
			if len(text) != size {
				t.Fatalf("note is %d bytes, want %d", len(text), size)
			}
			note := h.input("note.md", text)

			h.run(t, h.floor(note))
			floorOut, err := os.ReadFile(filepath.Join(h.floorDir, "note"))
			if err != nil {
				t.Fatal(err)
			}
			if want := text[:min(size, 4<<10)]; string(floorOut) != want {
				t.Fatalf("floor stored %d bytes that differ from the first %d of its input", len(floorOut), len(want))
			}
			checkFiles(t, h.floorDir, []string{"note"})
			// BenchmarkRememberApply4K gives the floor its note on standard input.
			h.run(t, func(int) ([]string, string) { return []string{h.floorBin, "-", h.floorDir, "stdin"}, note })
			if fromStdin, err := os.ReadFile(filepath.Join(h.floorDir, "stdin")); err != nil || !bytes.Equal(fromStdin, floorOut) {
				t.Fatalf("floor stored %d bytes from standard input, %d from the file (%v)", len(fromStdin), len(floorOut), err)
			}
			checkFiles(t, h.floorDir, []string{"note", "stdin"})

			out := h.run(t, h.memoree("checkpoint", "--session", "bench", "--file", note, "--json"))
			var res struct {
				ID       string            `json:"id"`
				Flagged  bool              `json:"flagged"`
				Findings []json.RawMessage `json:"findings"`
			}
			if err := json.Unmarshal(out, &res); err != nil {
				t.Fatalf("checkpoint --json: %v\n%s", err, out)
			}
			if res.Flagged || len(res.Findings) > 0 {
				t.Fatalf("memoree flags the benchmark note: %s", out)
			}
			pendingDir := filepath.Join(h.home, "pending")
			data, err := os.ReadFile(filepath.Join(pendingDir, res.ID+".json"))
			if err != nil {
				t.Fatal(err)
			}
			checkFiles(t, pendingDir, []string{res.ID + ".json"})
			var item struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(data, &item); err != nil {
				t.Fatal(err)
			}
			stored := item.Text
			if size > 4<<10 {
				// memoree ends a cut note with a marker line where the floor keeps more of the text: the byte
				// counts match, and the text before the marker is the floor's.
				i := strings.LastIndex(stored, "\n[memoree: truncated:")
				if i < 0 || len(stored) != len(floorOut) {
					t.Fatalf("memoree stored %d bytes (marker at %d), the floor %d", len(stored), i, len(floorOut))
				}
				stored, floorOut = stored[:i], floorOut[:i]
			}
			if stored != string(floorOut) {
				t.Fatalf("memoree stored text that differs from the floor's:\n%q\nfloor:\n%q", stored, floorOut)
			}

			if h.has("scan") {
				h.run(t, h.memoree("scan", "--file", note))
			}
		})
	}
}

// checkFiles fails unless the regular files in dir are exactly names, each with mode 0600 (no temp file left).
func checkFiles(t *testing.T, dir string, names []string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		got = append(got, e.Name())
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", e.Name(), fi.Mode().Perm())
		}
	}
	if !slices.Equal(got, names) {
		t.Fatalf("files in %s: %q, want %q", dir, got, names)
	}
}

// TestRememberInputsDiffer checks that the notes BenchmarkRememberApply4K feeds memoree differ from run to run
// while keeping their size.
func TestRememberInputsDiffer(t *testing.T) {
	skipShort(t)
	a, b := benchnote.Text(note4K, 1), benchnote.Text(note4K, 2)
	if a == b || len(a) != note4K || len(b) != note4K {
		t.Fatalf("notes of passes 1 and 2: equal %v, sizes %d and %d", a == b, len(a), len(b))
	}
}
