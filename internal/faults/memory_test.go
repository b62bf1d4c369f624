package faults

// The memory commands under kills: import (an export file and a directory of notes), forget (kept for undo
// and purged), undo and redo. Each is killed at a random moment in the time it takes unkilled, measured on a
// twin: a copy of the data directory in which the same command runs to the end first. The store must then
// be the twin's state before or the twin's state after, nothing in between; the journal must be the one before
// with whole entries appended (a killed command may leave its entry unwritten); and the invariants of check
// must hold.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// copyTree copies the data directory src to dst, which must not exist, keeping every file's mode.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := os.MkdirAll(target, 0o700); err != nil {
				return err
			}
			return os.Chmod(target, info.Mode().Perm())
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(target, data, 0o600); err != nil {
				return err
			}
			return os.Chmod(target, info.Mode().Perm())
		}
		return nil
	})
}

// twin copies the data directory h to a new one and returns its path and what removes it.
func twin(t *testing.T, h string) (string, func()) {
	t.Helper()
	d, err := os.MkdirTemp(workDir, "twin-")
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(d, "home")
	if err := copyTree(h, dst); err != nil {
		t.Fatalf("copy %s: %v", h, err)
	}
	return dst, func() { os.RemoveAll(d) }
}

// snap is a store's state as its user can see it: its export, and its undo history (which operations are
// done, which wait for a redo, and which hold text).
type snap struct {
	export, undo string
}

func (s snap) String() string {
	c := countsOf(s.export)
	return fmt.Sprintf("%d artifacts, %d claims, %d evidence, %d supersessions; undo %s", c[0], c[1], c[2], c[3],
		strings.ReplaceAll(strings.TrimSpace(s.undo), "\n", " "))
}

// snapshot returns the state of the store in h.
func snapshot(t *testing.T, h string) (snap, error) {
	t.Helper()
	res := mem(h, nil, "export")
	if res.code != 0 {
		return snap{}, fmt.Errorf("export: %v", res)
	}
	s := snap{export: res.stdout}
	db := newState(h).openDB(t)
	if db == nil {
		return s, nil
	}
	defer db.Close()
	rows, err := db.Query(`SELECT id, grp, op, state, undone, holds_text FROM undo_log ORDER BY id`)
	if err != nil {
		return s, fmt.Errorf("read undo_log: %w", err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, grp, undone, holds int64
		var op, state string
		if err := rows.Scan(&id, &grp, &op, &state, &undone, &holds); err != nil {
			return s, err
		}
		fmt.Fprintf(&b, "%d/%d %s %s %d %d\n", id, grp, op, state, undone, holds)
	}
	s.undo = b.String()
	return s, rows.Err()
}

// exportLine is the part of an export line that contentOf reads.
type exportLine struct {
	Type     string          `json:"type"`
	ID       int64           `json:"id"`
	Hash     string          `json:"hash"`
	Key      string          `json:"key"`
	Text     string          `json:"text"`
	Context  string          `json:"context"`
	Kind     string          `json:"kind"`
	Compiler string          `json:"compiler"`
	Source   string          `json:"source"`
	Session  string          `json:"session"`
	Task     string          `json:"task"`
	Created  string          `json:"created"`
	Flagged  bool            `json:"flagged"`
	Refs     json.RawMessage `json:"refs"`
	Data     []byte          `json:"data"`
	Claim    int64           `json:"claim"`
	Artifact int64           `json:"artifact"`
	Start    int             `json:"start"`
	End      int             `json:"end"`
	Old      int64           `json:"old"`
	New      int64           `json:"new"`
}

// contentOf returns what an export holds without its ids (artifacts by hash, claims by key), and without its
// times unless times is set, sorted: two stores that hold the same memory under other ids compare equal.
func contentOf(export string, times bool) []string {
	arts, claims := map[int64]string{}, map[int64]string{}
	var out []string
	tm := func(s string) string {
		if times {
			return s
		}
		return ""
	}
	for _, line := range strings.Split(export, "\n") {
		var l exportLine
		if json.Unmarshal([]byte(line), &l) != nil {
			continue
		}
		switch l.Type {
		case "artifact":
			arts[l.ID] = l.Hash
			out = append(out, fmt.Sprintf("artifact %s %q %q %q %q %s %v %s %x", l.Hash, l.Kind, l.Source, l.Session, l.Task,
				tm(l.Created), l.Flagged, l.Refs, sha256Of(l.Data)))
		case "claim":
			claims[l.ID] = l.Key
			out = append(out, fmt.Sprintf("claim %q %q %q %q %q %s", l.Key, l.Text, l.Context, l.Kind, l.Compiler, tm(l.Created)))
		case "evidence":
			out = append(out, fmt.Sprintf("evidence %q %s %d %d", claims[l.Claim], arts[l.Artifact], l.Start, l.End))
		case "supersession":
			out = append(out, fmt.Sprintf("supersession %q %q %s", claims[l.Old], claims[l.New], tm(l.Created)))
		}
	}
	sort.Strings(out)
	return out
}

func sha256Of(b []byte) string { return hashOf(string(b)) }

// countsOf returns the artifacts, claims, evidence and supersession lines of an export.
func countsOf(export string) [4]int {
	var c [4]int
	for _, line := range strings.Split(export, "\n") {
		switch {
		case strings.HasPrefix(line, `{"type":"artifact"`):
			c[0]++
		case strings.HasPrefix(line, `{"type":"claim"`):
			c[1]++
		case strings.HasPrefix(line, `{"type":"evidence"`):
			c[2]++
		case strings.HasPrefix(line, `{"type":"supersession"`):
			c[3]++
		}
	}
	return c
}

// exportHashes returns the artifact hashes of an export.
func exportHashes(export string) []string {
	var out []string
	for _, line := range strings.Split(export, "\n") {
		var l exportLine
		if json.Unmarshal([]byte(line), &l) == nil && l.Type == "artifact" {
			out = append(out, l.Hash)
		}
	}
	return out
}

// journalBytes returns the journal of h: its day files, oldest first, one after the other.
func journalBytes(h string) []byte {
	dir := filepath.Join(h, "journal")
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".jsonl") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var b []byte
	for _, n := range names {
		data, _ := os.ReadFile(filepath.Join(dir, n))
		b = append(b, data...)
	}
	return b
}

// journalReport is what log --verify --json prints.
type journalReport struct {
	Entries  int    `json:"entries"`
	HeadHash string `json:"head_hash"`
	Problems []struct {
		Kind   string `json:"kind"`
		File   string `json:"file"`
		Line   int    `json:"line"`
		Detail string `json:"detail"`
	} `json:"problems"`
}

// verifyJournal runs log --verify on h.
func verifyJournal(h string) (journalReport, error) {
	var rep journalReport
	res := mem(h, nil, "log", "--verify", "--json")
	if res.code != 0 && res.code != 1 {
		return rep, fmt.Errorf("log --verify: %v", res)
	}
	if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil {
		return rep, fmt.Errorf("log --verify --json: %v: %q", err, res.stdout)
	}
	if (res.code == 0) != (len(rep.Problems) == 0) {
		return rep, fmt.Errorf("log --verify exited %d and reported %d problem(s)", res.code, len(rep.Problems))
	}
	return rep, nil
}

// journalCheck checks the journal of h after a trial that began when it held before: what it held is still
// there, byte for byte, with entries appended; log --verify finds nothing but, at most, a partial entry. It
// returns the operations of the entries appended, and whether verify reported a partial entry.
func journalCheck(t *testing.T, r *row, h string, before []byte, what string) (ops []string, torn bool) {
	t.Helper()
	after := journalBytes(h)
	if !bytes.HasPrefix(after, before) {
		r.fail(t, "%s: the journal was rewritten: its first %d bytes are not what they were", what, len(before))
		return nil, false
	}
	rep, err := verifyJournal(h)
	if err != nil {
		r.fail(t, "%s: %v", what, err)
	}
	for _, p := range rep.Problems {
		if p.Kind == "truncated" {
			torn = true
			continue
		}
		r.fail(t, "%s: log --verify: %s:%d: %s: %s", what, p.File, p.Line, p.Kind, p.Detail)
	}
	for _, line := range bytes.Split(after[len(before):], []byte("\n")) {
		var e struct {
			Op string `json:"op"`
		}
		if json.Unmarshal(line, &e) == nil && e.Op != "" {
			ops = append(ops, e.Op)
		}
	}
	return ops, torn
}

// killSpec is one killed command of a trial.
type killSpec struct {
	args  []string
	stdin []byte
	op    string // the journal operation it records when it completes
	// want is the state the command leaves when it completes; when it is not set, the command is run on a twin
	// to learn it.
	want   *snap
	window time.Duration // how long it takes unkilled, when want is set
	// same compares two states; nil is equality.
	same func(a, b snap) bool
}

// killOutcome is what a killed trial did.
type killOutcome struct {
	res             result
	before, after   snap // the states the store may be in
	got             snap
	happened, valid bool // the store is in after; valid: in before or after
	torn            bool
	delay           time.Duration // when the kill was due
}

// killTrial runs sp in h killed at a random moment, then checks that the store is in the state before or the
// state after, that the journal agrees, and the invariants of st.
func killTrial(t *testing.T, r *row, st *state, rng *rand.Rand, sp killSpec, what string) killOutcome {
	t.Helper()
	var o killOutcome
	same := sp.same
	if same == nil {
		same = func(a, b snap) bool { return a == b }
	}
	var err error
	if o.before, err = snapshot(t, st.home); err != nil {
		r.fail(t, "%s: before: %v", what, err)
		return o
	}
	window := sp.window
	if sp.want != nil {
		o.after = *sp.want
	} else {
		th, remove := twin(t, st.home)
		res := mem(th, sp.stdin, sp.args...)
		if res.code != 0 {
			remove()
			r.fail(t, "%s: on the twin, unkilled: %s: %v", what, strings.Join(sp.args, " "), res)
			return o
		}
		o.after, err = snapshot(t, th)
		remove()
		if err != nil {
			r.fail(t, "%s: twin: %v", what, err)
			return o
		}
		window = res.took
	}
	jb := journalBytes(st.home)
	// Past the window a bit, so that some commands finish and are checked as completed; half the kills in its
	// second half, where commits and the work after them are.
	delay := time.Duration(rng.Int64N(int64(window)*11/10 + 1))
	if rng.IntN(2) == 0 {
		delay = window/2 + time.Duration(rng.Int64N(int64(window)*6/10+1))
	}
	o.res, o.delay = run(cmd(st.home, sp.stdin, sp.args...), delay), delay
	what = fmt.Sprintf("%s (%v)", what, o.res)
	if !o.res.killed && o.res.code != 0 {
		r.fail(t, "%s: failed unkilled", what)
	}
	st.check(t, r, what)
	if o.got, err = snapshot(t, st.home); err != nil {
		r.fail(t, "%s: after: %v", what, err)
		return o
	}
	switch {
	case same(o.got, o.after):
		o.happened, o.valid = true, true
	case same(o.got, o.before):
		o.valid = true
	default:
		r.fail(t, "%s: the store is neither as before (%v) nor as after (%v): %v", what, o.before, o.after, o.got)
	}
	if o.res.code == 0 && o.valid && !o.happened {
		r.lose(t, "%s: exited 0 and the store is as before", what)
	}
	ops, torn := journalCheck(t, r, st.home, jb, what)
	o.torn = torn
	switch recorded := slices.Contains(ops, sp.op); {
	case o.res.code == 0 && !recorded:
		r.fail(t, "%s: exited 0 and the journal has no %q entry (new entries: %v)", what, sp.op, ops)
	case recorded && o.valid && !o.happened:
		r.fail(t, "%s: the journal records %q and the store is as before", what, sp.op)
	}
	return o
}

// kinds counts outcomes for a row's note.
type kinds struct {
	killed, before, after, completed, torn int
}

func (k *kinds) add(o killOutcome) {
	switch {
	case !o.res.killed:
		k.completed++
	case o.happened:
		k.killed++
		k.after++
	case o.valid:
		k.killed++
		k.before++
	default:
		k.killed++
	}
	if o.torn {
		k.torn++
	}
}

func (k kinds) String() string {
	s := fmt.Sprintf("%d kills (%d left it undone, %d done), %d completed", k.killed, k.before, k.after, k.completed)
	if k.torn > 0 {
		s += fmt.Sprintf("; %d with a partial journal entry", k.torn)
	}
	return s
}

// memoryTrials is how many trials each memory scenario runs: a share of MEMOREE_FAULTS_KILLS.
func memoryTrials(div int) int { return max(2, count("MEMOREE_FAULTS_KILLS", 400)/div) }

// writeNotes writes n generated notes into a new directory (as n000.md, n001.txt, …) and returns it and
// their texts.
func writeNotes(t *testing.T, rng *rand.Rand, name string, n int) (string, []string) {
	t.Helper()
	dir, err := os.MkdirTemp(workDir, name+"-")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for i := range n {
		text := noteText(rng, fmt.Sprintf("%s %d", name, i), 150+rng.IntN(300))
		ext := ".md"
		if i%5 == 0 {
			ext = ".txt"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%03d%s", i, ext)), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, text)
	}
	return dir, texts
}

// remember applies text in h and fails the test if it does not.
func remember(t *testing.T, h, text string) {
	t.Helper()
	if res := mem(h, []byte(text), "remember", "--apply", "-"); res.code != 0 {
		t.Fatalf("remember: %v", res)
	}
}

// TestKillImport kills import of an export file (of a store of 400 notes) and of a directory of 600 notes (more
// than one transaction of import --notes takes), MEMOREE_FAULTS_KILLS/16 and /20 times (default 25 and 20): an
// import is all or nothing, and run again it completes. Each trial starts from the same small store, which
// shares one note with each import.
func TestKillImport(t *testing.T) {
	build(t)
	rng := rngFor(t)
	// The source: a store of some hundreds of notes, exported.
	src := home(t, "import-src")
	notes, texts := writeNotes(t, rng, "exported note", 400)
	if res := mem(src, nil, "import", "--notes", notes); res.code != 0 {
		t.Fatalf("import --notes: %v", res)
	}
	res := mem(src, nil, "export", "--output", filepath.Join(workDir, "export.jsonl"))
	if res.code != 0 {
		t.Fatalf("export: %v", res)
	}
	exportFile := filepath.Join(workDir, "export.jsonl")
	// More notes than one transaction of import --notes takes.
	notesDir, notesTexts := writeNotes(t, rng, "imported note", 600)
	// The store imported into: notes of its own, and one of each import's.
	base := home(t, "import-base")
	var baseTexts []string
	for i := range 3 {
		baseTexts = append(baseTexts, noteText(rng, fmt.Sprintf("base note %d", i), 300))
	}
	baseTexts = append(baseTexts, texts[7], notesTexts[11])
	for _, text := range baseTexts {
		remember(t, base, text)
	}
	timeFree := func(a, b snap) bool {
		return a.undo == b.undo && slices.Equal(contentOf(a.export, false), contentOf(b.export, false))
	}
	for _, c := range []struct {
		name, sub string
		args      []string
		same      func(a, b snap) bool
		n         int
	}{
		{"SIGKILL during import FILE", "file", []string{"import", exportFile}, nil, memoryTrials(16)},
		// Notes take the time of the import as theirs: compare without times.
		{"SIGKILL during import --notes", "notes", []string{"import", "--notes", notesDir}, timeFree, memoryTrials(20)},
	} {
		t.Run(c.sub, func(t *testing.T) {
			r := setup(t, c.name)
			th, remove := twin(t, base)
			unkilled := mem(th, nil, c.args...)
			if unkilled.code != 0 {
				t.Fatalf("%s unkilled: %v", strings.Join(c.args, " "), unkilled)
			}
			want, err := snapshot(t, th)
			remove()
			if err != nil {
				t.Fatal(err)
			}
			same := c.same
			if same == nil {
				same = func(a, b snap) bool { return a == b }
			}
			var k kinds
			partial := 0
			window := unkilled.took
			for i := range c.n {
				h, remove := twin(t, base)
				st := newState(h)
				for _, text := range baseTexts {
					st.stored[hashOf(text)] = "base note"
				}
				what := fmt.Sprintf("trial %d", i)
				o := killTrial(t, r, st, rng, killSpec{args: c.args, op: "imported", want: &want, window: window, same: same}, what)
				k.add(o)
				// The time an import takes varies with the load of the machine: follow it, as TestKills does, so
				// that the kills keep landing across the whole of it.
				switch {
				case !o.res.killed:
					window = (3*window + o.res.took) / 4
				case o.delay > window*9/10:
					window = window * 9 / 8
				}
				if !o.valid {
					partial++
				}
				if o.happened {
					r.end()
					remove()
					continue
				}
				// Run again, it completes: the store then holds what the import adds, whatever the ids.
				again := mem(h, nil, c.args...)
				if again.code != 0 {
					r.fail(t, "%s: import run again: %v", what, again)
				} else {
					for _, hash := range exportHashes(want.export) {
						st.stored[hash] = "import"
					}
				}
				st.check(t, r, what+", run again")
				if got, err := snapshot(t, h); err != nil {
					r.fail(t, "%s: run again: %v", what, err)
				} else if !slices.Equal(contentOf(got.export, c.same == nil), contentOf(want.export, c.same == nil)) {
					r.fail(t, "%s: run again, the import leaves %v, want %v", what, got, want)
				}
				r.end()
				remove()
			}
			r.note = k.String()
			if partial > 0 {
				r.note += fmt.Sprintf("; %d left part of the import", partial)
			}
		})
	}
}

// uniqueWord returns a word that no generated note holds, for trial i.
func uniqueWord(prefix string, i int) string {
	var b strings.Builder
	b.WriteString(prefix)
	for n := i + 26*26; n > 0; n /= 26 {
		b.WriteByte(byte('a' + n%26))
	}
	return b.String()
}

// wordNote returns a note that holds word in two claims.
func wordNote(rng *rand.Rand, tag, word string) string {
	return fmt.Sprintf("%s: the %s owner decision keep.\nalways verify %s before the release.\n%s", tag, word, word,
		noteText(rng, "and", 100+rng.IntN(200)))
}

// recallOf returns the claims and artifacts recall --history finds for word in h.
func recallOf(t *testing.T, h, word string) (claims []int64, artifacts []string, err error) {
	t.Helper()
	res := mem(h, nil, "recall", "--history", "--limit", "100", "--json", word)
	if res.code != 0 {
		return nil, nil, fmt.Errorf("recall %s: %v", word, res)
	}
	var out struct {
		Results []struct {
			ClaimID int64 `json:"claim_id"`
		} `json:"results"`
		Artifacts []struct {
			Artifact string `json:"artifact"`
		} `json:"artifacts"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
		return nil, nil, fmt.Errorf("recall --json: %v", err)
	}
	for _, c := range out.Results {
		claims = append(claims, c.ClaimID)
	}
	// In id order: recall ranks them, and ties may come either way.
	slices.Sort(claims)
	for _, a := range out.Artifacts {
		artifacts = append(artifacts, a.Artifact)
	}
	return claims, artifacts, nil
}

// filesHolding returns the files under h, pending/ aside, that hold word.
func filesHolding(h, word string) []string {
	var out []string
	filepath.WalkDir(h, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "pending" && filepath.Dir(p) == h {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte(word)) {
			rel, _ := filepath.Rel(h, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// TestKillForget kills forget, by artifact and by claim, kept for undo and purged, in a store of some hundreds
// of notes, MEMOREE_FAULTS_KILLS/10 times each (default 40): a forget happened or did not (its target fully in
// recall, or absent from it); and once a purge has happened, no byte of a word only the forgotten note held is
// left under the data directory, pending/ aside.
func TestKillForget(t *testing.T) {
	for _, purge := range []bool{false, true} {
		name := "SIGKILL during forget"
		if purge {
			name = "SIGKILL during forget --purge"
		}
		t.Run(fmt.Sprint("purge=", purge), func(t *testing.T) {
			r := setup(t, name)
			rng := rngFor(t)
			h := home(t, "forget")
			st := newState(h)
			notes, texts := writeNotes(t, rng, "stored note", 300)
			if res := mem(h, nil, "import", "--notes", notes); res.code != 0 {
				t.Fatalf("import --notes: %v", res)
			}
			for _, text := range texts {
				st.stored[hashOf(text)] = "import --notes"
			}
			var k kinds
			left, leftDone := 0, 0 // purges that left the word on disk: killed, completed
			for i := range memoryTrials(10) {
				word := uniqueWord("zqf", i)
				text := wordNote(rng, fmt.Sprintf("forget trial %d", i), word)
				remember(t, h, text)
				hash := hashOf(text)
				args := []string{"forget"}
				if purge {
					args = append(args, "--purge")
				}
				byClaim := !purge && i%3 == 2
				was, _, err := recallOf(t, h, word)
				if err != nil || len(was) == 0 {
					t.Fatalf("trial %d: recall of the note just remembered: %v %v", i, was, err)
				}
				var claim int64
				if byClaim {
					claim = was[0]
					args = append(args, fmt.Sprintf("claim:%d", claim))
				} else {
					args = append(args, "artifact:"+hash[:12])
					// It may go: check must not count it lost.
					delete(st.stored, hash)
				}
				what := fmt.Sprintf("trial %d (%s)", i, strings.Join(args, " "))
				o := killTrial(t, r, st, rng, killSpec{args: args, op: "forgot"}, what)
				k.add(o)
				claims, arts, err := recallOf(t, h, word)
				switch {
				case err != nil:
					r.fail(t, "%s: %v", what, err)
				case byClaim && o.happened && slices.Contains(claims, claim):
					r.fail(t, "%s: forgot claim %d, and recall still finds it", what, claim)
				case byClaim && !o.happened && !slices.Contains(claims, claim):
					r.fail(t, "%s: did not forget claim %d, and recall does not find it", what, claim)
				case !byClaim && o.happened && len(claims)+len(arts) > 0:
					r.fail(t, "%s: forgot the artifact, and recall still finds %d claim(s), %d artifact(s) with its word", what, len(claims), len(arts))
				case !byClaim && !o.happened && !slices.Equal(claims, was):
					r.fail(t, "%s: did not forget the artifact, and recall finds claims %v of its word, not %v", what, claims, was)
				}
				if !byClaim && o.valid && !o.happened {
					st.stored[hash] = "remember --apply"
				}
				if purge && o.happened {
					if files := filesHolding(h, word); len(files) > 0 {
						if o.res.killed {
							left++
							r.fail(t, "%s: the purge was killed after it took effect, and its word is left in %v", what, files)
						} else {
							leftDone++
							r.fail(t, "%s: the purge completed, and its word is left in %v", what, files)
						}
					}
				}
				r.end()
			}
			r.note = k.String()
			if purge {
				r.note += fmt.Sprintf("; word left on disk after %d killed, %d completed purges", left, leftDone)
			}
		})
	}
}

// TestKillUndoRedo kills undo and then redo of an apply, a forget and an import of notes, in turn,
// MEMOREE_FAULTS_KILLS/10 times each (default 40): each leaves the store as it was before or as it is after.
func TestKillUndoRedo(t *testing.T) {
	rng := rngFor(t)
	ru := setup(t, "SIGKILL during undo")
	rr := setup(t, "SIGKILL during redo")
	h := home(t, "undo")
	st := newState(h)
	notes, _ := writeNotes(t, rng, "first note", 20)
	if res := mem(h, nil, "import", "--notes", notes); res.code != 0 {
		t.Fatalf("import --notes: %v", res)
	}
	var live []string // artifacts remembered and still stored, that a forget may take
	var ku, kr kinds
	for i := range memoryTrials(10) {
		var op []string
		var stdin []byte
		switch i % 3 {
		case 0, 1:
			if i%3 == 1 && len(live) > 0 {
				j := rng.IntN(len(live))
				op = []string{"forget", "artifact:" + live[j][:12]}
				live = slices.Delete(live, j, j+1)
				break
			}
			text := noteText(rng, fmt.Sprintf("undo trial %d", i), 200+rng.IntN(1500))
			op, stdin = []string{"remember", "--apply", "-"}, []byte(text)
			live = append(live, hashOf(text))
		case 2:
			dir, _ := writeNotes(t, rng, fmt.Sprintf("undo trial %d note", i), 5)
			op = []string{"import", "--notes", dir}
		}
		if res := mem(h, stdin, op...); res.code != 0 {
			t.Fatalf("trial %d: %s: %v", i, strings.Join(op, " "), res)
		}
		what := fmt.Sprintf("trial %d (undo of %s)", i, op[0])
		o := killTrial(t, ru, st, rng, killSpec{args: []string{"undo"}, op: "undone"}, what)
		ku.add(o)
		if o.valid && !o.happened {
			// Undo it to the end, so that there is something to redo.
			if res := mem(h, nil, "undo"); res.code != 0 {
				ru.fail(t, "%s: undo after the kill: %v", what, res)
			}
		}
		ok := o.valid && !ru.failed
		ru.end()
		if !ok {
			// Start the next trial from what the store holds.
			live = nil
			continue
		}
		what = fmt.Sprintf("trial %d (redo of %s)", i, op[0])
		o = killTrial(t, rr, st, rng, killSpec{args: []string{"redo"}, op: "redone"}, what)
		kr.add(o)
		// Redo what the kill left undone, so that the next trial starts with the operation done.
		if o.valid && !o.happened {
			if res := mem(h, nil, "redo"); res.code != 0 {
				rr.fail(t, "%s: redo after the kill: %v", what, res)
			}
		}
		if !o.valid || rr.failed {
			live = nil
		}
		rr.end()
	}
	ru.note, rr.note = ku.String(), kr.String()
}

// TestJournalCut cuts the newest journal entry short, as an append that a crash interrupted leaves it: log
// --verify must call it truncated and nothing else, and the next command's entry must continue the chain from
// the last whole entry. The first entry ever is cut in data directories of its own, since what verify says of
// it stays in every later report. Each runs MEMOREE_FAULTS_ROUNDS*4 times (default 12).
func TestJournalCut(t *testing.T) {
	for _, first := range []bool{false, true} {
		name := "journal cut mid-entry"
		if first {
			name = "journal cut, first entry ever"
		}
		t.Run(fmt.Sprint("first=", first), func(t *testing.T) {
			r := setup(t, name)
			rng := rngFor(t)
			h := home(t, "journal-cut")
			if !first {
				remember(t, h, noteText(rng, "journal seed", 300))
			}
			truncated, chained := 0, 0
			for i := range count("MEMOREE_FAULTS_ROUNDS", 3) * 4 {
				if first {
					h = home(t, "journal-first")
				}
				tr, ch := cutTrial(t, r, rng, h, fmt.Sprintf("trial %d", i))
				if tr {
					truncated++
				}
				if ch {
					chained++
				}
				r.end()
			}
			r.note = fmt.Sprintf("verify: %d called truncated; after the next command %d chained past with no other problem", truncated, chained)
		})
	}
}

// cutTrial remembers a note in h, cuts the newest journal entry, and checks what log --verify says of it and
// that the next command's entry chains to the last whole entry. It reports whether verify called the cut entry
// truncated, and whether after the next command the journal verified with no other problem and chained.
func cutTrial(t *testing.T, r *row, rng *rand.Rand, h, what string) (truncated, chained bool) {
	t.Helper()
	remember(t, h, noteText(rng, what, 200+rng.IntN(500)))
	dir := filepath.Join(h, "journal")
	entries, _ := os.ReadDir(dir)
	var newest string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".jsonl") && e.Name() > newest {
			newest = e.Name()
		}
	}
	path := filepath.Join(dir, newest)
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 {
		t.Fatalf("journal: %v", err)
	}
	// The last line, newline included; cut 1 (the newline only) to all of it but its first byte.
	start := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
	last := data[start : len(data)-1]
	cut := 1 + rng.IntN(len(last))
	if err := os.Truncate(path, int64(len(data)-cut)); err != nil {
		t.Fatal(err)
	}
	// The last whole entry: the cut one if only its newline went.
	whole := data[:start]
	if cut == 1 {
		whole = data[:len(data)-1]
	}
	wantPrev := ""
	if line := lastLineOf(whole); len(line) > 0 {
		wantPrev = hashOf(string(line))
	}
	what = fmt.Sprintf("%s (cut %d of %d bytes of entry %d)", what, cut, len(last)+1, bytes.Count(data, []byte("\n")))
	rep, err := verifyJournal(h)
	switch {
	case err != nil:
		r.fail(t, "%s: %v", what, err)
	case len(rep.Problems) == 0 || rep.Problems[len(rep.Problems)-1].Kind != "truncated":
		r.fail(t, "%s: log --verify does not report the cut entry as truncated: %+v", what, rep.Problems)
	default:
		truncated = true
	}
	failed := r.failed
	before := journalBytes(h)
	text := noteText(rng, "after the cut", 300)
	if res := mem(h, []byte(text), "remember", "--apply", "-"); res.code != 0 {
		r.fail(t, "%s: remember after the cut: %v", what, res)
	}
	if ops, _ := journalCheck(t, r, h, before, what+", next command"); !slices.Contains(ops, "applied") {
		r.fail(t, "%s: the next command's entry is missing: %v", what, ops)
	}
	after, _ := os.ReadFile(path)
	rest := bytes.TrimPrefix(after[len(data)-cut:], []byte("\n"))
	next, _, _ := bytes.Cut(rest, []byte("\n"))
	var e struct {
		Prev string `json:"prev"`
	}
	if err := json.Unmarshal(next, &e); err != nil || e.Prev != wantPrev {
		r.fail(t, "%s: the entry after the cut does not chain to the last whole entry: %v, prev %.12s want %.12s", what, err, e.Prev, wantPrev)
	}
	return truncated, !failed && !r.failed
}

// lastLineOf returns the last line of b, without its newline.
func lastLineOf(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return b[bytes.LastIndexByte(b, '\n')+1:]
}
