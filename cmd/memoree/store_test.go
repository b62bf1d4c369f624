//go:build !memoree_lean

package main

import (
	"io"
	"strings"
	"testing"

	"github.com/memoree/memoree/internal/handoff"
	"github.com/urfave/cli/v2"
)

// TestStoreCommand checks that the words the lean build hands off early are exactly the store commands of the
// command tree, and that other command lines stay with the tree.
func TestStoreCommand(t *testing.T) {
	app := newApp(&env{stdout: io.Discard, stderr: io.Discard})
	var walk func(prefix []string, cmds []*cli.Command)
	seen := 0
	walk = func(prefix []string, cmds []*cli.Command) {
		for _, c := range cmds {
			path := append(append([]string{}, prefix...), c.Name)
			name, ok := handoff.Command(append([]string{"memoree"}, append(path, "x")...))
			_, isStore := storeRuns[strings.Join(path, " ")]
			if isStore {
				seen++
			}
			if ok != isStore || ok && name != strings.Join(path, " ") {
				t.Errorf("handoff.Command(%q) = %q, %v; want a store command: %v", path, name, ok, isStore)
			}
			walk(path, c.Subcommands)
		}
	}
	walk(nil, app.Commands)
	if seen != len(storeRuns) {
		t.Errorf("found %d of the %d store commands in the command tree", seen, len(storeRuns))
	}
	for _, args := range [][]string{{"memoree"}, {"memoree", "context"}, {"memoree", "--help", "recall"}, {"memoree", "pending", "--json", "apply"}} {
		if name, ok := handoff.Command(args); ok {
			t.Errorf("handoff.Command(%q) = %q; want none", args, name)
		}
	}
}
