package cmdline

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/app"
)

// storeCommands are the commands of the tree that run through the Store.
var storeCommands = []string{"remember", "recall", "search", "context build", "artifact show", "artifact gc", "optimize", "pending preview", "pending apply"}

// TestStore checks that each store command runs through the Store under its own name, and that a Store
// without it makes the command fail with a message instead of doing nothing.
func TestStore(t *testing.T) {
	for _, name := range storeCommands {
		var called string
		store := Store{}
		for _, n := range storeCommands {
			store[n] = func(*cli.Context, *app.Env) error { called = n; return nil }
		}
		args := append([]string{"memoree"}, strings.Fields(name)...)
		var out, errOut strings.Builder
		if code := Run(args, strings.NewReader(""), &out, &errOut, store); code != 0 || called != name {
			t.Errorf("%s: exit %d, ran %q, stderr %q", name, code, called, errOut.String())
		}
		delete(store, name)
		called = ""
		if code := Run(args, strings.NewReader(""), &out, &errOut, store); code != 1 || called != "" ||
			!strings.Contains(errOut.String(), "cannot run memoree "+name) {
			t.Errorf("%s without its store entry: exit %d, ran %q, stderr %q", name, code, called, errOut.String())
		}
	}
}
