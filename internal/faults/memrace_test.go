package faults

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/memoree/memoree/pending"
)

// opsSince returns the operations of the journal entries of h after its first n bytes, and checks that the
// journal verifies without a problem (no command in a race is killed, so none may be cut short).
func opsSince(t *testing.T, r *row, h string, before []byte, what string) []string {
	t.Helper()
	ops, torn := journalCheck(t, r, h, before, what)
	if torn {
		r.fail(t, "%s: log --verify reports a partial entry, and no command was killed", what)
	}
	return ops
}

func countOf(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}

// TestForgetRaces runs forget of one note (kept for undo, or purged) against pending apply, and against
// remember --apply, of another, MEMOREE_FAULTS_RACES times each (default 60). Each command must either exit 0
// with its effect in the store and its entry in the journal, or exit non-zero with nothing changed; a
// completed purge leaves no byte of the forgotten note's word under the data directory, pending/ aside.
func TestForgetRaces(t *testing.T) {
	for _, against := range []string{"pending apply", "remember --apply"} {
		t.Run(strings.Fields(against)[0], func(t *testing.T) {
			r := setup(t, "forget racing "+against)
			rng := rngFor(t)
			h := home(t, "forget-race")
			st := newState(h)
			notes, texts := writeNotes(t, rng, "raced note", 100)
			if res := mem(h, nil, "import", "--notes", notes); res.code != 0 {
				t.Fatalf("import --notes: %v", res)
			}
			for _, text := range texts {
				st.stored[hashOf(text)] = "import --notes"
			}
			refused := 0
			for i := range count("MEMOREE_FAULTS_RACES", 60) {
				word := uniqueWord("zqr", i)
				x := wordNote(rng, fmt.Sprintf("race %d forgotten", i), word)
				remember(t, h, x)
				y := noteText(rng, fmt.Sprintf("race %d applied", i), 300+rng.IntN(2000))
				id := pending.IDFor("S")
				if against == "pending apply" {
					if res := mem(h, []byte(y), "checkpoint", "--session", "S", "-"); res.code != 0 {
						t.Fatalf("checkpoint: %v", res)
					}
				}
				purge := i%2 == 1
				forget := []string{"forget", "artifact:" + hashOf(x)[:12]}
				if purge {
					forget = append(forget, "--purge")
				}
				before := journalBytes(h)
				res := parallel(2, func(k int) result {
					if k == 0 {
						return mem(h, nil, forget...)
					}
					if against == "pending apply" {
						return mem(h, nil, "pending", "apply", id)
					}
					return mem(h, []byte(y), "remember", "--apply", "-")
				})
				f, a := res[0], res[1]
				what := fmt.Sprintf("race %d (forget%s: %v; %s: %v)", i, map[bool]string{true: " --purge"}[purge], f, against, a)
				xIn, yIn := st.inStore(t, hashOf(x)), st.inStore(t, hashOf(y))
				switch {
				case f.code == 0 && xIn:
					r.fail(t, "%s: forget exited 0 and the note is still stored", what)
				case f.code != 0 && !xIn:
					r.fail(t, "%s: forget exited %d and the note is gone", what, f.code)
				case a.code == 0 && !yIn:
					r.lose(t, "%s: %s exited 0 and stored nothing", what, against)
				case a.code != 0 && yIn:
					r.fail(t, "%s: %s exited %d and stored the note", what, against, a.code)
				}
				if f.code != 0 || a.code != 0 {
					refused++
				}
				if xIn {
					st.stored[hashOf(x)] = "remember --apply"
				} else {
					delete(st.stored, hashOf(x))
				}
				if yIn {
					st.stored[hashOf(y)] = against
				}
				st.allowed = map[string][]string{}
				st.check(t, r, what)
				ops := opsSince(t, r, h, before, what)
				if n, want := countOf(ops, "forgot"), map[bool]int{true: 1}[f.code == 0]; n != want {
					r.fail(t, "%s: the journal has %d forgot entries, want %d", what, n, want)
				}
				if n, want := countOf(ops, "applied"), map[bool]int{true: 1}[a.code == 0]; n != want {
					r.fail(t, "%s: the journal has %d applied entries, want %d", what, n, want)
				}
				if purge && f.code == 0 {
					if files := filesHolding(h, word); len(files) > 0 {
						r.fail(t, "%s: the purge completed, and its word is left in %v", what, files)
					}
				}
				r.end()
				mem(h, nil, "pending", "drop", id)
			}
			r.note = fmt.Sprintf("%d races with a command refused", refused)
		})
	}
}

// TestUndoRace runs undo against remember --apply, MEMOREE_FAULTS_RACES times (default 60), right after another
// remember --apply: undo takes back the newest operation when it runs, which is either; the store must be what
// the two in one order or the other leave, given which exited 0.
func TestUndoRace(t *testing.T) {
	r := setup(t, "undo racing remember --apply")
	rng := rngFor(t)
	h := home(t, "undo-race")
	st := newState(h)
	notes, texts := writeNotes(t, rng, "undo race note", 50)
	if res := mem(h, nil, "import", "--notes", notes); res.code != 0 {
		t.Fatalf("import --notes: %v", res)
	}
	for _, text := range texts {
		st.stored[hashOf(text)] = "import --notes"
	}
	type remembered struct {
		Record int64 `json:"record"`
	}
	var undidZ, undidY, refused int
	for i := range count("MEMOREE_FAULTS_RACES", 60) {
		z := noteText(rng, fmt.Sprintf("undo race %d first", i), 200+rng.IntN(1500))
		zr := mem(h, []byte(z), "remember", "--apply", "--json", "-")
		var zrec remembered
		if zr.code != 0 || json.Unmarshal([]byte(zr.stdout), &zrec) != nil {
			t.Fatalf("remember: %v", zr)
		}
		y := noteText(rng, fmt.Sprintf("undo race %d second", i), 200+rng.IntN(1500))
		before := journalBytes(h)
		res := parallel(2, func(k int) result {
			if k == 0 {
				return mem(h, nil, "undo", "--json")
			}
			return mem(h, []byte(y), "remember", "--apply", "--json", "-")
		})
		u, a := res[0], res[1]
		what := fmt.Sprintf("race %d (undo: %v; remember: %v)", i, u, a)
		var urec, yrec remembered
		if u.code == 0 && json.Unmarshal([]byte(u.stdout), &urec) != nil {
			r.fail(t, "%s: undo --json: %q", what, u.stdout)
		}
		if a.code == 0 && json.Unmarshal([]byte(a.stdout), &yrec) != nil {
			r.fail(t, "%s: remember --json: %q", what, a.stdout)
		}
		// What each outcome must leave: Z stored unless undone, Y stored if remembered and not undone.
		wantZ, wantY := true, a.code == 0
		switch {
		case u.code != 0:
		case urec.Record == zrec.Record:
			wantZ = false
			undidZ++
		case a.code == 0 && urec.Record == yrec.Record:
			wantY = false
			undidY++
		default:
			r.fail(t, "%s: undo took back record %d, neither the first note's (%d) nor the second's (%d)", what, urec.Record, zrec.Record, yrec.Record)
		}
		if u.code != 0 || a.code != 0 {
			refused++
		}
		zIn, yIn := st.inStore(t, hashOf(z)), st.inStore(t, hashOf(y))
		if zIn != wantZ || yIn != wantY {
			r.fail(t, "%s: the store holds the first note: %v, the second: %v; want %v, %v", what, zIn, yIn, wantZ, wantY)
		}
		for _, c := range []struct {
			text string
			in   bool
		}{{z, zIn}, {y, yIn}} {
			if c.in {
				st.stored[hashOf(c.text)] = "remember --apply"
			} else {
				delete(st.stored, hashOf(c.text))
			}
		}
		st.check(t, r, what)
		ops := opsSince(t, r, h, before, what)
		if n, want := countOf(ops, "undone"), map[bool]int{true: 1}[u.code == 0]; n != want {
			r.fail(t, "%s: the journal has %d undone entries, want %d", what, n, want)
		}
		if want := a.code == 0; slices.Contains(ops, "applied") != want {
			r.fail(t, "%s: the journal has applied entries: %v, want %v", what, !want, want)
		}
		r.end()
	}
	r.note = fmt.Sprintf("undo took back the first note %d times, the second %d; %d races with a command refused", undidZ, undidY, refused)
}
