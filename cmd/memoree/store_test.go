package main

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/app"
	"github.com/memoree/memoree/internal/cmdline"
)

// TestStoreRuns checks that each entry of storeRuns names a command of the tree, which runs it: a misspelt
// name would leave that command without its runner.
func TestStoreRuns(t *testing.T) {
	if len(storeRuns) != 9 {
		t.Errorf("%d store commands, want 9", len(storeRuns))
	}
	for name := range storeRuns {
		called := false
		store := cmdline.Store{name: func(*cli.Context, *app.Env) error { called = true; return nil }}
		var out, errOut strings.Builder
		args := append([]string{"memoree"}, strings.Fields(name)...)
		if code := cmdline.Run(args, strings.NewReader(""), &out, &errOut, store); code != 0 || !called {
			t.Errorf("memoree %s: exit %d, ran %v, stderr %q", name, code, called, errOut.String())
		}
	}
}
