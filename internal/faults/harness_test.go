package faults

// The suite's policy. Every scenario is a test that counts its trials, the trials that broke a contract
// (failures) and the writes it was told succeeded that are gone (lost); TestMain prints them as one table and
// fails the run if any failure or loss was counted. A refusal the contract allows (a command that exits 1 on a
// full disk and says so) is not a failure. Trial counts come from environment variables, so that CI can run a
// short suite and a person a long one; scenarios that need root or a second user skip with a message elsewhere.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memoree/memoree/pending"

	_ "modernc.org/sqlite"
)

// enableEnv turns the suite on; without it every test skips.
const enableEnv = "MEMOREE_FAULTS"

var (
	bin      string // the memoree binary under test
	buildErr error
	buildMu  sync.Once
	workDir  string // where the binary and the data directories live
)

// row is one line of the table. A trial counts as one failure however many checks it breaks; each lost write
// counts once.
type row struct {
	name                   string
	trials, failures, lost int
	note                   string
	failed                 bool // the current trial broke a check
	logged                 int
}

var (
	tableMu sync.Mutex
	table   []*row
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(swapperEnv); spec != "" {
		swapLoop(spec)
	}
	code := m.Run()
	if os.Getenv(enableEnv) == "" {
		os.Exit(code)
	}
	tableMu.Lock()
	bad := 0
	fmt.Printf("\n%-34s %7s %9s %5s  %s\n", "scenario", "trials", "failures", "lost", "")
	for _, r := range table {
		fmt.Printf("%-34s %7d %9d %5d  %s\n", r.name, r.trials, r.failures, r.lost, r.note)
		bad += r.failures + r.lost
	}
	tableMu.Unlock()
	if workDir != "" && os.Getenv("MEMOREE_FAULTS_KEEP") == "" {
		os.RemoveAll(workDir)
	}
	if bad > 0 && code == 0 {
		code = 1
	}
	os.Exit(code)
}

// setup skips the test unless the suite is on, builds the binary once, and returns the row the test fills in.
func setup(t *testing.T, name string) *row {
	t.Helper()
	build(t)
	r := &row{name: name}
	tableMu.Lock()
	table = append(table, r)
	tableMu.Unlock()
	return r
}

// build skips the test unless the suite is on and builds the binary once, for a test that needs it before its
// rows are set up.
func build(t *testing.T) {
	t.Helper()
	if os.Getenv(enableEnv) == "" {
		t.Skipf("fault suite: set %s=1 (or run make faults) to run it", enableEnv)
	}
	buildMu.Do(func() {
		workDir, buildErr = os.MkdirTemp("", "memoree-faults-")
		if buildErr != nil {
			return
		}
		// Others must be able to enter it for the shared-home scenario; each data directory inside is private.
		os.Chmod(workDir, 0o755)
		bin = filepath.Join(workDir, "memoree")
		if b := os.Getenv("MEMOREE_FAULTS_BIN"); b != "" {
			// A binary built elsewhere, for example from an older commit to compare.
			data, err := os.ReadFile(b)
			if err == nil {
				err = os.WriteFile(bin, data, 0o755)
			}
			buildErr = err
			return
		}
		out, err := exec.Command("go", "build", "-o", bin, "github.com/memoree/memoree/cmd/memoree").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
		os.Chmod(bin, 0o755)
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
}

// skip records a skipped scenario in the table and skips the test.
func (r *row) skip(t *testing.T, format string, args ...any) {
	t.Helper()
	r.note = "skipped: " + fmt.Sprintf(format, args...)
	t.Skipf(format, args...)
}

// fail marks the current trial failed and logs why (the first few reasons only).
func (r *row) fail(t *testing.T, format string, args ...any) {
	t.Helper()
	r.failed = true
	r.log(t, format, args...)
}

// lose counts a lost write and logs which.
func (r *row) lose(t *testing.T, format string, args ...any) {
	t.Helper()
	r.lost++
	r.log(t, "lost: "+format, args...)
}

func (r *row) log(t *testing.T, format string, args ...any) {
	t.Helper()
	if r.logged++; r.logged <= 20 {
		t.Errorf(format, args...)
	} else {
		t.Fail()
	}
}

// end closes a trial: it counts it, and counts it failed if a check broke.
func (r *row) end() {
	r.trials++
	if r.failed {
		r.failures++
	}
	r.failed = false
}

// count returns the integer in the environment variable name, or def.
func count(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v >= 0 {
		return v
	}
	return def
}

// home makes a fresh data directory path (not created: memoree creates it).
func home(t *testing.T, name string) string {
	t.Helper()
	d, err := os.MkdirTemp(workDir, name+"-")
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(d, "home")
}

// result is what one run of the binary did.
type result struct {
	code           int  // exit status; -1 when killed
	killed         bool // by the suite's SIGKILL, before it exited
	stdout, stderr string
	took           time.Duration
}

func (r result) String() string {
	return fmt.Sprintf("exit %d killed %v stderr %q", r.code, r.killed, r.stderr)
}

// cmd returns a command running the binary with the data directory h.
func cmd(h string, stdin []byte, args ...string) *exec.Cmd {
	c := exec.Command(bin, args...)
	c.Env = []string{"MEMOREE_HOME=" + h, "PATH=/usr/bin:/bin", "MEMOREE_SESSION=", "NO_COLOR=1"}
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	return c
}

// run runs c; with kill > 0 it sends SIGKILL after that long unless the command finished first.
func run(c *exec.Cmd, kill time.Duration) result {
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	start := time.Now()
	if err := c.Start(); err != nil {
		return result{code: -2, stderr: err.Error()}
	}
	var timer *time.Timer
	if kill > 0 {
		timer = time.AfterFunc(kill, func() { c.Process.Signal(syscall.SIGKILL) })
	}
	c.Wait()
	if timer != nil {
		timer.Stop()
	}
	r := result{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	ws := c.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		r.code, r.killed = -1, true
	} else {
		r.code = ws.ExitStatus()
	}
	return r
}

// mem runs the binary with the data directory h and no kill.
func mem(h string, stdin []byte, args ...string) result { return run(cmd(h, stdin, args...), 0) }

func hashOf(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// words is the vocabulary of generated notes: plain words, which the secret scan never flags.
var words = strings.Fields(`the release branch deploy freeze starts friday cache tokens index review migrate
schema recall store claim evidence artifact session checkpoint note verify regression corpus build test pipeline
owner decision because after before never always keep drop apply window budget query`)

// noteText returns a note of about n bytes that starts with a unique tag.
func noteText(rng *rand.Rand, tag string, n int) string {
	var b strings.Builder
	b.WriteString(tag)
	b.WriteString(": ")
	for b.Len() < n {
		b.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(12) == 0 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	s := b.String()
	return s[:n]
}

// state is what the suite knows a data directory must hold.
type state struct {
	home    string
	allowed map[string][]string // session -> texts its checkpoint may hold (none: it may be missing)
	stored  map[string]string   // artifact hash -> what said it was stored
}

func newState(h string) *state {
	return &state{home: h, allowed: map[string][]string{}, stored: map[string]string{}}
}

// check verifies the invariants of the data directory and counts what breaks them in r: every pending file
// parses, each session holds one of the texts it may hold, whole; the database passes SQLite's and FTS5's
// integrity checks; every claim has an artifact whose file exists and hashes to its name; every write reported
// as stored is there; and after artifact gc and a pending listing no orphan artifact file and no temp file is
// left. It returns the texts the sessions now hold.
func (s *state) check(t *testing.T, r *row, what string) map[string]string {
	t.Helper()
	now := map[string]string{}
	pdir := filepath.Join(s.home, "pending")
	// Temp files go first: gc and list sweep them, and reading them is not the contract.
	if res := mem(s.home, nil, "artifact", "gc", "--grace", "0s"); res.code != 0 {
		r.fail(t, "%s: artifact gc: %v", what, res)
	}
	if res := mem(s.home, nil, "pending", "list", "--all"); res.code != 0 && !strings.Contains(res.stderr, "unreadable") {
		r.fail(t, "%s: pending list: %v", what, res)
	}
	entries, _ := os.ReadDir(pdir)
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, ".tmp-"):
			r.fail(t, "%s: temp file %s left in pending/ after a listing", what, name)
		case strings.HasSuffix(name, ".json"):
			data, err := os.ReadFile(filepath.Join(pdir, name))
			var it pending.Item
			if err == nil {
				err = json.Unmarshal(data, &it)
			}
			if err != nil || it.ID+".json" != name {
				r.fail(t, "%s: %s does not parse as its checkpoint: %v", what, name, err)
				continue
			}
			now[it.Session] = it.Text
			if it.Applied != nil {
				if _, ok := s.stored[it.Applied.Artifact]; !ok && !s.inStore(t, it.Applied.Artifact) {
					r.fail(t, "%s: %s records an apply of %s, which the store does not hold", what, it.ID, it.Applied.Artifact[:12])
				}
			}
		}
	}
	for session, texts := range s.allowed {
		got, ok := now[session]
		if !ok {
			if len(texts) > 0 {
				r.lose(t, "%s: session %s has no checkpoint, want one of %d texts", what, session, len(texts))
			}
			continue
		}
		if !contains(texts, got) {
			r.fail(t, "%s: session %s holds a text (%d bytes) that is neither its old nor its new one, whole", what, session, len(got))
		}
	}
	s.checkStore(t, r, what)
	return now
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (s *state) openDB(t *testing.T) *sql.DB {
	path := filepath.Join(s.home, "store", "recall.db")
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return nil
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	return db
}

// inStore reports whether the store holds an artifact of that hash.
func (s *state) inStore(t *testing.T, hash string) bool {
	db := s.openDB(t)
	if db == nil {
		return false
	}
	defer db.Close()
	var n int
	db.QueryRow(`SELECT count(*) FROM artifacts WHERE hash = ?`, hash).Scan(&n)
	return n == 1
}

func (s *state) checkStore(t *testing.T, r *row, what string) {
	t.Helper()
	db := s.openDB(t)
	if db == nil {
		for h, by := range s.stored {
			r.lose(t, "%s: %s reported artifact %s stored, and there is no store", what, by, h[:12])
			delete(s.stored, h)
		}
		return
	}
	defer db.Close()
	var ok string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		r.fail(t, "%s: integrity_check: %q, %v", what, ok, err)
	}
	for _, q := range []string{
		`INSERT INTO claims_fts (claims_fts, rank) VALUES ('integrity-check', 1)`,
		`INSERT INTO artifacts_fts (artifacts_fts) VALUES ('integrity-check')`,
	} {
		if _, err := db.Exec(q); err != nil {
			r.fail(t, "%s: FTS5 integrity-check: %v", what, err)
		}
	}
	hashes := map[string]bool{}
	rows, err := db.Query(`SELECT hash FROM artifacts`)
	if err != nil {
		r.fail(t, "%s: read artifacts: %v", what, err)
		return
	}
	for rows.Next() {
		var h string
		rows.Scan(&h)
		hashes[h] = true
	}
	rows.Close()
	var orphanClaims, badEvidence int
	db.QueryRow(`SELECT count(*) FROM claims WHERE id NOT IN (SELECT claim FROM evidence)`).Scan(&orphanClaims)
	db.QueryRow(`SELECT count(*) FROM evidence WHERE artifact NOT IN (SELECT id FROM artifacts)`).Scan(&badEvidence)
	if orphanClaims+badEvidence > 0 {
		r.fail(t, "%s: %d claims without evidence, %d evidence rows without an artifact", what, orphanClaims, badEvidence)
	}
	for h := range hashes {
		data, err := os.ReadFile(filepath.Join(s.home, "store", "cas", h[:2], h))
		if err != nil || hashOf(string(data)) != h {
			r.fail(t, "%s: artifact %s: file missing or corrupt: %v", what, h[:12], err)
		}
	}
	for h, by := range s.stored {
		if !hashes[h] {
			r.lose(t, "%s: %s reported artifact %s stored; the store does not hold it", what, by, h[:12])
			delete(s.stored, h)
		}
	}
	// After gc: every file under cas/ is a stored artifact, and no temp file is left.
	filepath.WalkDir(filepath.Join(s.home, "store", "cas"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if !hashes[d.Name()] {
			r.fail(t, "%s: %s left under cas/ after artifact gc", what, d.Name())
		}
		return nil
	})
}

// withTimeout runs f and reports an error if it takes longer than d (a hang is a failure, not a stuck suite).
func withTimeout(d time.Duration, f func()) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return errors.New("timed out")
	}
}
