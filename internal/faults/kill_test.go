package faults

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/memoree/memoree/checkpoint"
	"github.com/memoree/memoree/pending"
)

// rngFor returns the suite's random source, seeded from MEMOREE_FAULTS_SEED when set so that a failing run can
// be repeated, and logs the seed.
func rngFor(t *testing.T) *rand.Rand {
	seed, err := strconv.ParseUint(os.Getenv("MEMOREE_FAULTS_SEED"), 10, 64)
	if err != nil {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (MEMOREE_FAULTS_SEED)", seed)
	return rand.New(rand.NewPCG(seed, 0x6d656d6f726565))
}

// killOp is one kind of command the kill scenario interrupts. start prepares trial i: the command's arguments
// and input, and what to record when it exits 0.
type killOp struct {
	name  string
	start func(i int) (args []string, stdin []byte, done func())
}

// TestKills interrupts checkpoint (4 KiB and 64 KiB inputs), pending apply and remember --apply with SIGKILL at
// random moments, at least MEMOREE_FAULTS_KILLS times in all (default 400), and checks the invariants after
// every trial.
func TestKills(t *testing.T) {
	r := setup(t, "SIGKILL at random moments")
	kills := count("MEMOREE_FAULTS_KILLS", 400)
	rng := rngFor(t)
	h := home(t, "kills")
	st := newState(h)
	sessions := []string{"S0", "S1", "S2", "S3"}
	current := map[string]string{}
	for _, s := range sessions {
		text := noteText(rng, "seed "+s, 2000)
		if res := mem(h, []byte(text), "checkpoint", "--session", s, "-"); res.code != 0 {
			t.Fatalf("seed checkpoint: %v", res)
		}
		current[s] = text
		st.allowed[s] = []string{text}
	}
	seed := noteText(rng, "seed note", 500)
	if res := mem(h, []byte(seed), "remember", "--apply", "-"); res.code != 0 {
		t.Fatalf("seed remember: %v", res)
	}
	st.stored[hashOf(seed)] = "seed remember"

	checkpointOp := func(size int) func(i int) ([]string, []byte, func()) {
		return func(i int) ([]string, []byte, func()) {
			s := sessions[rng.IntN(len(sessions))]
			input := noteText(rng, fmt.Sprintf("trial %d", i), size)
			stored, _ := checkpoint.Cap([]byte(input))
			want := string(stored)
			st.allowed[s] = []string{current[s], want}
			return []string{"checkpoint", "--session", s, "-"}, []byte(input), func() { st.allowed[s] = []string{want} }
		}
	}
	ops := []killOp{
		{"checkpoint 4 KiB", checkpointOp(4 << 10)},
		{"checkpoint 64 KiB", checkpointOp(checkpoint.MaxInput)},
		{"pending apply", func(i int) ([]string, []byte, func()) {
			s := sessions[rng.IntN(len(sessions))]
			text := current[s]
			return []string{"pending", "apply", pending.IDFor(s)}, nil,
				func() { st.stored[hashOf(text)] = fmt.Sprintf("pending apply (trial %d)", i) }
		}},
		{"remember --apply", func(i int) ([]string, []byte, func()) {
			text := noteText(rng, fmt.Sprintf("remembered in trial %d", i), 200+rng.IntN(3000))
			return []string{"remember", "--apply", "-"}, []byte(text),
				func() { st.stored[hashOf(text)] = fmt.Sprintf("remember --apply (trial %d)", i) }
		}},
	}
	// How long each op takes unkilled: the kills land uniformly in that window.
	window := make([]time.Duration, len(ops))
	for k, op := range ops {
		args, stdin, done := op.start(-1 - k)
		res := mem(h, stdin, args...)
		if res.code != 0 {
			t.Fatalf("%s unkilled: %v", op.name, res)
		}
		done()
		window[k] = res.took
		for s, text := range st.check(t, r, "calibration") {
			current[s] = text
			st.allowed[s] = []string{text}
		}
		r.end()
	}
	killed := map[string]int{}
	total := 0
	for i := 0; total < kills && i < 3*kills+10; i++ {
		k := i % len(ops)
		op := ops[k]
		args, stdin, done := op.start(i)
		delay := time.Duration(rng.Int64N(int64(window[k]) + 1))
		res := run(cmd(h, stdin, args...), delay)
		switch {
		case res.killed:
			killed[op.name]++
			total++
		case res.code == 0:
			done()
			window[k] = (3*window[k] + res.took) / 4
		default:
			r.fail(t, "trial %d: %s failed unkilled: %v", i, op.name, res)
		}
		for s, text := range st.check(t, r, fmt.Sprintf("trial %d (%s, %v)", i, op.name, res)) {
			current[s] = text
			st.allowed[s] = []string{text}
		}
		r.end()
	}
	r.note = fmt.Sprintf("kills: %d checkpoint 4 KiB, %d checkpoint 64 KiB, %d apply, %d remember",
		killed["checkpoint 4 KiB"], killed["checkpoint 64 KiB"], killed["pending apply"], killed["remember --apply"])
	if total < kills {
		r.fail(t, "only %d kills landed in %d trials, want %d", total, r.trials, kills)
		r.end()
	}
}
