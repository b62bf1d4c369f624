package faults

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/memoree/memoree/checkpoint"
	"github.com/memoree/memoree/pending"
)

// parallel runs n commands at once and returns their results in order.
func parallel(n int, c func(i int) result) []result {
	out := make([]result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); out[i] = c(i) }()
	}
	wg.Wait()
	return out
}

// TestParallelWritersOneSession runs 32 checkpoints of one session at once, MEMOREE_FAULTS_ROUNDS times
// (default 3): every one succeeds, and the session ends up holding one of their texts, whole.
func TestParallelWritersOneSession(t *testing.T) {
	r := setup(t, "32 writers, one session")
	rng := rngFor(t)
	h := home(t, "one-session")
	st := newState(h)
	for round := range count("MEMOREE_FAULTS_ROUNDS", 3) {
		texts := make([]string, 32)
		var want []string
		for i := range texts {
			texts[i] = noteText(rng, fmt.Sprintf("round %d writer %d", round, i), 500+rng.IntN(4000))
			stored, _ := checkpoint.Cap([]byte(texts[i]))
			want = append(want, string(stored))
		}
		st.allowed["S"] = want
		res := parallel(32, func(i int) result { return mem(h, []byte(texts[i]), "checkpoint", "--session", "S", "-") })
		for i, res := range res {
			if res.code != 0 {
				r.fail(t, "round %d writer %d: %v", round, i, res)
			}
			r.end()
		}
		st.check(t, r, fmt.Sprintf("round %d", round))
		if r.failed {
			r.failures++
			r.failed = false
		}
	}
}

// TestParallelWritersManySessions runs checkpoints of 32 sessions at once: every one succeeds and every session
// holds its own text.
func TestParallelWritersManySessions(t *testing.T) {
	r := setup(t, "32 writers, 32 sessions")
	rng := rngFor(t)
	h := home(t, "many-sessions")
	st := newState(h)
	for round := range count("MEMOREE_FAULTS_ROUNDS", 3) {
		texts := make([]string, 32)
		for i := range texts {
			texts[i] = noteText(rng, fmt.Sprintf("round %d session %d", round, i), 500+rng.IntN(4000))
			stored, _ := checkpoint.Cap([]byte(texts[i]))
			st.allowed[fmt.Sprint("S", i)] = []string{string(stored)}
		}
		res := parallel(32, func(i int) result {
			return mem(h, []byte(texts[i]), "checkpoint", "--session", fmt.Sprint("S", i), "-")
		})
		for i, res := range res {
			if res.code != 0 {
				r.fail(t, "round %d session %d: %v", round, i, res)
				st.allowed[fmt.Sprint("S", i)] = nil
			}
			r.end()
		}
		st.check(t, r, fmt.Sprintf("round %d", round))
		if r.failed {
			r.failures++
			r.failed = false
		}
	}
}

// TestApplyRaces runs pending apply against pending drop, and against a checkpoint replacing the text,
// MEMOREE_FAULTS_RACES times each (default 60). An apply must either exit 0 with the text it applied stored
// (and, unless dropped, recorded), or exit non-zero with nothing stored.
func TestApplyRaces(t *testing.T) {
	for _, against := range []string{"drop", "replace"} {
		t.Run(against, func(t *testing.T) {
			r := setup(t, "apply racing "+against)
			rng := rngFor(t)
			h := home(t, "race-"+against)
			st := newState(h)
			id := pending.IDFor("S")
			for i := range count("MEMOREE_FAULTS_RACES", 60) {
				old := noteText(rng, fmt.Sprintf("race %d old", i), 300+rng.IntN(2000))
				if res := mem(h, []byte(old), "checkpoint", "--session", "S", "-"); res.code != 0 {
					t.Fatalf("checkpoint: %v", res)
				}
				repl := noteText(rng, fmt.Sprintf("race %d new", i), 300+rng.IntN(2000))
				res := parallel(2, func(k int) result {
					if k == 0 {
						return mem(h, nil, "pending", "apply", id)
					}
					if against == "drop" {
						return mem(h, nil, "pending", "drop", id)
					}
					return mem(h, []byte(repl), "checkpoint", "--session", "S", "-")
				})
				apply, other := res[0], res[1]
				if other.code != 0 && !(against == "drop" && other.code == 1) {
					r.fail(t, "race %d: %s: %v", i, against, other)
				}
				oldIn, newIn := st.inStore(t, hashOf(old)), st.inStore(t, hashOf(repl))
				switch {
				case apply.code == 0 && !oldIn && !newIn:
					r.lose(t, "race %d: apply exited 0 and stored nothing", i)
				case apply.code != 0 && (oldIn || newIn):
					r.fail(t, "race %d: apply exited %d (%q) but stored the note", i, apply.code, apply.stderr)
				}
				if oldIn {
					st.stored[hashOf(old)] = "apply"
				}
				if newIn {
					st.stored[hashOf(repl)] = "apply"
				}
				// check verifies that a record, when there is one, names an artifact the store holds.
				st.allowed = map[string][]string{}
				st.check(t, r, fmt.Sprintf("race %d", i))
				r.end()
				mem(h, nil, "pending", "drop", id)
			}
		})
	}
}

// TestReadersAgainstWriter runs 16 processes recalling in a loop while applies go in, MEMOREE_FAULTS_WRITES
// times (default 12, half remember --apply, half pending apply): each must succeed within
// MEMOREE_FAULTS_WRITE_LIMIT (default 2s).
func TestReadersAgainstWriter(t *testing.T) {
	r := setup(t, "16 readers against a writer")
	rng := rngFor(t)
	h := home(t, "readers")
	st := newState(h)
	for i := range 30 {
		text := noteText(rng, fmt.Sprintf("base note %d", i), 300)
		if res := mem(h, []byte(text), "remember", "--apply", "-"); res.code != 0 {
			t.Fatalf("seed: %v", res)
		}
		st.stored[hashOf(text)] = "seed"
	}
	limit := 2 * time.Second
	if d, err := time.ParseDuration(os.Getenv("MEMOREE_FAULTS_WRITE_LIMIT")); err == nil {
		limit = d
	}
	var stop atomic.Bool
	var reads, readFails atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				res := mem(h, nil, "recall", "deploy", "branch")
				reads.Add(1)
				if res.code != 0 {
					readFails.Add(1)
				}
			}
		}()
	}
	time.Sleep(300 * time.Millisecond)
	var slowest time.Duration
	for i := range count("MEMOREE_FAULTS_WRITES", 12) {
		text := noteText(rng, fmt.Sprintf("written under readers %d", i), 300+rng.IntN(1000))
		var res result
		if i%2 == 0 {
			res = mem(h, []byte(text), "remember", "--apply", "-")
		} else {
			if c := mem(h, []byte(text), "checkpoint", "--session", "W", "-"); c.code != 0 {
				r.fail(t, "checkpoint under readers: %v", c)
			}
			res = mem(h, nil, "pending", "apply", pending.IDFor("W"))
		}
		slowest = max(slowest, res.took)
		switch {
		case res.code != 0:
			r.fail(t, "write %d under 16 readers: %v", i, res)
		case res.took > limit:
			r.fail(t, "write %d under 16 readers took %v, more than %v", i, res.took.Round(time.Millisecond), limit)
		default:
			st.stored[hashOf(text)] = fmt.Sprintf("write %d", i)
		}
		r.end()
	}
	stop.Store(true)
	wg.Wait()
	if n := readFails.Load(); n > 0 {
		r.fail(t, "%d of %d reads failed", n, reads.Load())
		r.end()
	}
	st.check(t, r, "after the readers")
	r.note = fmt.Sprintf("slowest write %v; %d reads meanwhile", slowest.Round(time.Millisecond), reads.Load())
}

// TestApplyReadOnlyPending applies a checkpoint whose pending directory cannot be written (a read-only bind
// mount; root only): the record of the apply cannot be written, so the apply must store nothing and say why.
func TestApplyReadOnlyPending(t *testing.T) {
	r := setup(t, "apply, pending/ read-only")
	if os.Geteuid() != 0 {
		r.skip(t, "needs root, to bind-mount pending/ read-only")
	}
	rng := rngFor(t)
	h := home(t, "ro-pending")
	st := newState(h)
	pdir := filepath.Join(h, "pending")
	for i := range count("MEMOREE_FAULTS_ROUNDS", 3) * 4 {
		text := noteText(rng, fmt.Sprintf("read-only trial %d", i), 300+rng.IntN(2000))
		if res := mem(h, []byte(text), "checkpoint", "--session", "S", "-"); res.code != 0 {
			t.Fatalf("checkpoint: %v", res)
		}
		if err := syscall.Mount(pdir, pdir, "", syscall.MS_BIND, ""); err != nil {
			r.skip(t, "cannot bind-mount: %v", err)
		}
		if err := syscall.Mount("", pdir, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
			syscall.Unmount(pdir, syscall.MNT_DETACH)
			r.skip(t, "cannot remount read-only: %v", err)
		}
		res := mem(h, nil, "pending", "apply", pending.IDFor("S"))
		syscall.Unmount(pdir, syscall.MNT_DETACH)
		stored := st.inStore(t, hashOf(text))
		switch {
		case res.code == 0:
			r.fail(t, "trial %d: apply exited 0 with pending/ read-only: %v", i, res)
		case stored:
			r.fail(t, "trial %d: apply exited %d (%q) and stored the note", i, res.code, res.stderr)
		case res.stderr == "":
			r.fail(t, "trial %d: apply failed without saying why", i)
		}
		if stored {
			st.stored[hashOf(text)] = "apply"
		}
		st.allowed = map[string][]string{"S": {text}}
		st.check(t, r, fmt.Sprintf("trial %d", i))
		r.end()
	}
}
