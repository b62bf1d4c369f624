package recall

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// childEnv names the store directory when the test binary runs as a child process of
// TestConcurrentProcesses.
const childEnv = "RECALL_TEST_CHILD_DIR"

// TestConcurrentProcesses applies the same notes from several processes at once: none may fail with
// "database is locked", and nothing may be stored twice.
func TestConcurrentProcesses(t *testing.T) {
	if dir := os.Getenv(childEnv); dir != "" {
		applyAsChild(t, dir)
		return
	}
	dir := t.TempDir() + "/store"
	const procs = 4
	var wg sync.WaitGroup
	outs := make([][]byte, procs)
	errs := make([]error, procs)
	for i := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentProcesses$", "-test.count=1")
			cmd.Env = append(os.Environ(), childEnv+"="+dir)
			outs[i], errs[i] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for i := range procs {
		if errs[i] != nil {
			t.Errorf("child %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, want := counts(t, s), "artifacts=10 claims=11 evidence=20 claims_fts=11 artifacts_fts=10"; got != want {
		t.Errorf("after concurrent processes: %s, want %s", got, want)
	}
}

// applyAsChild opens the store (possibly creating it, racing the other children) and applies ten notes that
// share one claim.
func applyAsChild(t *testing.T, dir string) {
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 10 {
		a, c := note("s", "t", "Every note repeats this claim", fmt.Sprintf("Note %d has its own claim", i))
		if _, err := s.Apply(context.Background(), a, c, t0); err != nil {
			t.Fatal(err)
		}
	}
}
