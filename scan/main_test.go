package scan

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// TestMain checks, before any test scans, that loading the package compiled nothing: commands that never scan
// must not pay for the rules.
func TestMain(m *testing.M) {
	if compiled != nil {
		fmt.Fprintln(os.Stderr, "scan: rules were compiled before the first call to Text")
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func newRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
