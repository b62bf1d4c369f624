package journal

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var t0 = time.Date(2025, 3, 1, 23, 59, 0, 0, time.UTC)

func openTemp(t *testing.T) *Journal {
	t.Helper()
	j, err := Open(filepath.Join(t.TempDir(), "journal"))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// fill appends n entries one minute apart from t0, crossing into the next day.
func fill(t *testing.T, j *Journal, n int) []Entry {
	t.Helper()
	var out []Entry
	for i := range n {
		e, err := j.Append(Entry{Time: t0.Add(time.Duration(i) * time.Minute), Op: Applied, Artifact: fmt.Sprintf("%064x", i),
			NewClaims: i, Bytes: int64(100 * i), Compiler: "rules/1"})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

func TestAppendChainsAcrossDays(t *testing.T) {
	j := openTemp(t)
	got := fill(t, j, 3)
	for i, e := range got {
		if e.Seq != int64(i+1) {
			t.Errorf("entry %d: seq %d", i, e.Seq)
		}
	}
	if got[0].Prev != "" || got[1].Prev == "" || got[2].Prev == got[1].Prev {
		t.Errorf("prev links %q %q %q", got[0].Prev, got[1].Prev, got[2].Prev)
	}
	files, _ := dayFiles(j.Dir())
	if strings.Join(files, " ") != "2025-03-01.jsonl 2025-03-02.jsonl" {
		t.Fatalf("files %v", files)
	}
	// The first entry of a day links to the last line of the day before.
	first, err := os.ReadFile(filepath.Join(j.Dir(), "2025-03-01.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if h := lineHash(bytes.TrimSuffix(first, []byte("\n"))); got[1].Prev != h {
		t.Errorf("entry 2 prev %s, want hash of entry 1's line %s", got[1].Prev, h)
	}
	rep, err := Verify(j.Dir())
	if err != nil || !rep.OK() || rep.Entries != 3 || rep.Head.Seq != 3 {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
	// A clock that steps back keeps writing into the newest file.
	e, err := j.Append(Entry{Time: t0.Add(-48 * time.Hour), Op: Dropped})
	if err != nil || e.Seq != 4 {
		t.Fatal(e, err)
	}
	if files, _ := dayFiles(j.Dir()); len(files) != 2 {
		t.Errorf("files after a step back: %v", files)
	}
	if rep, _ := Verify(j.Dir()); !rep.OK() {
		t.Errorf("verify after a step back: %v", rep.Problems)
	}
	// Read filters by the entries' times, wherever they are.
	for since, want := range map[time.Time]int{t0.Add(-49 * time.Hour): 4, t0.Add(-47 * time.Hour): 3, t0.Add(time.Minute): 2} {
		n := 0
		for _, err := range Read(j.Dir(), since) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n != want {
			t.Errorf("since %v: %d entries, want %d", since, n, want)
		}
	}
}

// TestAppendAll checks that the entries of one operation go in together: chained in order after the
// newest entry, in one line each, and that a bad entry among them writes none.
func TestAppendAll(t *testing.T) {
	j := openTemp(t)
	fill(t, j, 1)
	got, err := j.AppendAll([]Entry{{Time: t0, Op: Applied, Artifact: "a1"}, {Time: t0, Op: Superseded, Artifact: "a1", Claims: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Seq != 2 || got[1].Seq != 3 || got[1].Prev == got[0].Prev || got[1].Prev == "" {
		t.Fatalf("entries %+v", got)
	}
	rep, err := Verify(j.Dir())
	if err != nil || !rep.OK() || rep.Entries != 3 || rep.Head.Seq != 3 {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
	if _, err := j.AppendAll([]Entry{{Time: t0, Op: Applied}, {Time: t0, Op: "rewrote"}}); err == nil {
		t.Error("AppendAll with an unknown operation succeeded")
	}
	if rep, err := Verify(j.Dir()); err != nil || rep.Entries != 3 {
		t.Errorf("after a refused AppendAll: %+v, %v", rep, err)
	}
}

func TestAppendRejects(t *testing.T) {
	j := openTemp(t)
	for _, e := range []Entry{{Op: Applied}, {Time: t0, Op: "rewrote"}} {
		if _, err := j.Append(e); err == nil {
			t.Errorf("Append(%+v) succeeded", e)
		}
	}
}

func TestModes(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	for _, mask := range []int{0, 0o022, 0o077} {
		syscall.Umask(mask)
		j, err := Open(filepath.Join(t.TempDir(), "a", "journal"))
		if err != nil {
			t.Fatal(err)
		}
		fill(t, j, 2)
		fi, err := os.Stat(j.Dir())
		if err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("umask %03o: dir mode %v, %v", mask, fi.Mode().Perm(), err)
		}
		ents, _ := os.ReadDir(j.Dir())
		for _, e := range ents {
			fi, err := e.Info()
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("umask %03o: %s mode %v, %v", mask, e.Name(), fi.Mode().Perm(), err)
			}
		}
	}
	// A directory open to others is refused.
	open := filepath.Join(t.TempDir(), "open")
	os.Mkdir(open, 0o755)
	os.Chmod(open, 0o755)
	if _, err := Open(open); err == nil {
		t.Error("Open accepted a directory with mode 0755")
	}
}

func TestRead(t *testing.T) {
	j := openTemp(t)
	fill(t, j, 5) // 23:59, 00:00 … 00:03 the next day
	for _, tc := range []struct {
		since time.Time
		want  []int64
	}{
		{time.Time{}, []int64{1, 2, 3, 4, 5}},
		{t0, []int64{1, 2, 3, 4, 5}},
		{t0.Add(time.Minute), []int64{2, 3, 4, 5}},
		{t0.Add(150 * time.Second), []int64{4, 5}},
		{t0.Add(time.Hour), nil},
	} {
		var got []int64
		for loc, err := range Read(j.Dir(), tc.since) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, loc.Entry.Seq)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("since %v: %v, want %v", tc.since, got, tc.want)
		}
	}
	// Read of a missing directory yields nothing.
	for _, err := range Read(filepath.Join(t.TempDir(), "none"), time.Time{}) {
		t.Errorf("missing dir: %v", err)
	}
}

// TestVerifyTampering damages a journal of six entries over two days (lines 1 in the first file, 1-5 in the
// second) in each way and checks what Verify reports.
func TestVerifyTampering(t *testing.T) {
	day1, day2 := "2025-03-01.jsonl", "2025-03-02.jsonl"
	edit := func(lines []string, i int, f func(string) string) { lines[i] = f(lines[i]) }
	for _, tc := range []struct {
		name   string
		file   string
		damage func(lines []string) []string
		raw    func(data []byte) []byte // instead of damage, for byte-level changes
		want   []string                 // "kind file:line"
	}{
		{name: "intact", file: day2, damage: func(l []string) []string { return l }},
		{name: "edited count", file: day2, damage: func(l []string) []string {
			edit(l, 1, func(s string) string { return strings.Replace(s, `"new_claims":2`, `"new_claims":9`, 1) })
			return l
		}, want: []string{"edited " + day2 + ":2"}},
		{name: "edited into garbage", file: day2, damage: func(l []string) []string {
			l[2] = `{"seq":4, oops`
			return l
		}, want: []string{"edited " + day2 + ":3"}},
		{name: "unknown field", file: day2, damage: func(l []string) []string {
			edit(l, 2, func(s string) string { return strings.Replace(s, `{`, `{"text":"x",`, 1) })
			return l
		}, want: []string{"edited " + day2 + ":3"}},
		{name: "edited newest entry", file: day2, damage: func(l []string) []string {
			// No entry follows it, so only its own sum shows the change.
			edit(l, len(l)-1, func(s string) string { return strings.Replace(s, `"time":"2025-03-02`, `"time":"2025-03-03`, 1) })
			return l
		}, want: []string{"edited " + day2 + ":5"}},
		{name: "edited first entry", file: day1, damage: func(l []string) []string {
			edit(l, 0, func(s string) string { return strings.Replace(s, `"applied"`, `"dropped"`, 1) })
			return l
		}, want: []string{"edited " + day1 + ":1"}},
		{name: "edited prev of first", file: day1, damage: func(l []string) []string {
			edit(l, 0, func(s string) string {
				return strings.Replace(s, `"prev":""`, `"prev":"`+strings.Repeat("0", 64)+`"`, 1)
			})
			return l
		}, want: []string{"edited " + day1 + ":1"}},
		{name: "deleted middle", file: day2, damage: func(l []string) []string {
			return append(l[:1:1], l[2:]...)
		}, want: []string{"deleted " + day2 + ":2"}},
		{name: "deleted two", file: day2, damage: func(l []string) []string {
			return append(l[:1:1], l[3:]...)
		}, want: []string{"deleted " + day2 + ":2"}},
		{name: "deleted first file", file: day1, damage: func(l []string) []string { return nil },
			want: []string{"deleted " + day2 + ":1"}},
		{name: "swapped", file: day2, damage: func(l []string) []string {
			l[1], l[2] = l[2], l[1]
			return l
		}, want: []string{"reordered " + day2 + ":3"}},
		{name: "repeated", file: day2, damage: func(l []string) []string {
			return append(l, l[1])
		}, want: []string{"reordered " + day2 + ":6"}},
		{name: "truncated", file: day2, raw: func(d []byte) []byte { return d[:len(d)-10] },
			want: []string{"truncated " + day2 + ":5"}},
		{name: "newline cut", file: day2, raw: func(d []byte) []byte { return d[:len(d)-1] },
			want: []string{"truncated " + day2 + ":5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := openTemp(t)
			fill(t, j, 6)
			path := filepath.Join(j.Dir(), tc.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if tc.raw != nil {
				data = tc.raw(data)
			} else {
				lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
				lines = tc.damage(lines)
				data = nil
				if len(lines) > 0 {
					data = []byte(strings.Join(lines, "\n") + "\n")
				}
			}
			if data == nil {
				err = os.Remove(path)
			} else {
				err = os.WriteFile(path, data, 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Verify(j.Dir())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range rep.Problems {
				got = append(got, fmt.Sprintf("%s %s:%d", p.Kind, p.File, p.Line))
				if p.Detail == "" {
					t.Errorf("%v has no detail", p)
				}
			}
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Errorf("problems %q, want %q", got, tc.want)
			}
			// An append after a partial last line starts a line of its own and chains past it; Verify still
			// reports the partial line, and nothing else.
			if tc.raw != nil {
				e, err := j.Append(Entry{Time: t0, Op: Applied})
				if err != nil {
					t.Fatalf("Append after a partial line: %v", err)
				}
				rep, err := Verify(j.Dir())
				if err != nil || rep.Head.Seq != e.Seq {
					t.Fatalf("verify after the append: %+v, %v", rep, err)
				}
				if tc.name == "newline cut" {
					// Only the newline was lost: the entry is whole, and the journal is intact again.
					if e.Seq != 7 || !rep.OK() {
						t.Fatalf("after a lost newline: seq %d, %v", e.Seq, rep.Problems)
					}
				} else if e.Seq != 6 || len(rep.Problems) != 1 || rep.Problems[0].Kind != Truncated || rep.Problems[0].Line != 5 {
					t.Fatalf("after a partial line: seq %d, %v", e.Seq, rep.Problems)
				}
			}
		})
	}
}

// TestConcurrentAppend runs writers that each hold their own Journal, as separate processes do, in this
// process and in child processes, and checks that every entry is there once, whole, and chained.
func TestConcurrentAppend(t *testing.T) {
	j := openTemp(t)
	const goroutines, each = 8, 25
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			jj, err := Open(j.Dir())
			if err != nil {
				t.Error(err)
				return
			}
			for i := range each {
				if _, err := jj.Append(Entry{Time: t0, Op: Applied, Session: fmt.Sprintf("g%d-%d", g, i)}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	procs := 0
	if !testing.Short() {
		procs = 3
		for p := range procs {
			wg.Go(func() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAppend$")
				cmd.Env = append(os.Environ(), "JOURNAL_HELPER_DIR="+j.Dir(), "JOURNAL_HELPER_ID=p"+strconv.Itoa(p),
					"JOURNAL_HELPER_N="+strconv.Itoa(each))
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("child: %v\n%s", err, out)
				}
			})
		}
	}
	wg.Wait()
	rep, err := Verify(j.Dir())
	if err != nil {
		t.Fatal(err)
	}
	want := (goroutines + procs) * each
	if !rep.OK() || rep.Entries != want || rep.Head.Seq != int64(want) {
		t.Fatalf("entries %d head %d, want %d; problems %v", rep.Entries, rep.Head.Seq, want, rep.Problems)
	}
	seen := map[string]bool{}
	for loc, err := range Read(j.Dir(), time.Time{}) {
		if err != nil {
			t.Fatal(err)
		}
		if seen[loc.Entry.Session] {
			t.Errorf("entry %s twice", loc.Entry.Session)
		}
		seen[loc.Entry.Session] = true
	}
	if len(seen) != want {
		t.Errorf("%d distinct entries, want %d", len(seen), want)
	}
}

// TestHelperAppend is the child process of TestConcurrentAppend.
func TestHelperAppend(t *testing.T) {
	dir := os.Getenv("JOURNAL_HELPER_DIR")
	if dir == "" {
		t.Skip("child process only")
	}
	n, _ := strconv.Atoi(os.Getenv("JOURNAL_HELPER_N"))
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := j.Append(Entry{Time: t0, Op: Staged, Session: fmt.Sprintf("%s-%d", os.Getenv("JOURNAL_HELPER_ID"), i)}); err != nil {
			t.Fatal(err)
		}
	}
}

func FuzzParse(f *testing.F) {
	j, err := Open(filepath.Join(f.TempDir(), "j"))
	if err != nil {
		f.Fatal(err)
	}
	for i, op := range []Op{Applied, Forgot, Undone} {
		if _, err := j.Append(Entry{Time: t0, Op: op, Artifact: "ab12", NewClaims: i, Purge: i == 1, Target: int64(i)}); err != nil {
			f.Fatal(err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(j.Dir(), "2025-03-01.jsonl"))
	for _, l := range bytes.Split(data, []byte("\n")) {
		f.Add(l)
	}
	f.Add([]byte(`{"seq":1,"time":"2025-03-01T00:00:00Z","op":"applied","prev":""} {}`))
	f.Add([]byte(`{"seq":-1}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := Parse(line)
		if err != nil {
			return
		}
		// What parses is what Append would write again: re-encoding and parsing gives the same entry.
		again, err := Parse(mustMarshal(t, e))
		if err != nil {
			t.Fatalf("re-encoded %+v does not parse: %v", e, err)
		}
		if !again.Time.Equal(e.Time) {
			t.Fatalf("time %v became %v", e.Time, again.Time)
		}
		again.Time = e.Time
		if again != e {
			t.Fatalf("%+v became %+v", e, again)
		}
	})
}

// FuzzLastLine compares lastLine, which reads a file backwards in blocks, with splitting the whole file.
func FuzzLastLine(f *testing.F) {
	f.Add([]byte("a\nb\n"), 0)
	f.Add([]byte("a\nb"), 5000)
	f.Add([]byte(""), 9000)
	f.Add([]byte("\n\n"), 4095)
	f.Fuzz(func(t *testing.T, data []byte, pad int) {
		if pad < 0 || pad > 10000 {
			return
		}
		// Lines around the 4 KiB block size.
		data = append(bytes.Repeat([]byte("x"), pad), data...)
		path := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		line, tail, err := lastLine(path)
		if err != nil {
			t.Fatal(err)
		}
		var wantLine, wantTail []byte
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			wantTail = data[i+1:]
			start := bytes.LastIndexByte(data[:i], '\n') + 1
			wantLine = data[start:i]
		} else {
			wantTail = data
		}
		if !bytes.Equal(line, wantLine) || !bytes.Equal(tail, wantTail) || (wantLine != nil) != (line != nil) {
			t.Fatalf("lastLine = %q, %q; want %q, %q", line, tail, wantLine, wantTail)
		}
	})
}

// TestTornFirstEntry checks that a first entry cut short, then written past by the next Append, is reported
// as truncated, not as an edit, and that the chain starts again after it.
func TestTornFirstEntry(t *testing.T) {
	j := openTemp(t)
	if _, err := j.Append(Entry{Time: t0, Op: Applied, NewClaims: 2}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(j.Dir(), t0.Format("2006-01-02")+".jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)-30], 0o600); err != nil {
		t.Fatal(err)
	}
	e, err := j.Append(Entry{Time: t0, Op: Applied})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(j.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if e.Seq != 1 || len(rep.Problems) != 1 || rep.Problems[0].Kind != Truncated || rep.Problems[0].Line != 1 || rep.Head.Seq != 1 {
		t.Fatalf("after a torn first entry: seq %d, head %d, problems %v; want one truncated line 1", e.Seq, rep.Head.Seq, rep.Problems)
	}
}
