package cmdline

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/app"
)

// storeFields names the Store field that runs each store command of the tree.
func storeFields(s *Store) map[string]*Runner {
	return map[string]*Runner{
		"remember": &s.Remember, "pending preview": &s.PendingPreview, "pending apply": &s.PendingApply,
		"recall": &s.Recall, "search": &s.Search, "context build": &s.ContextBuild,
		"artifact show": &s.ArtifactShow, "artifact gc": &s.ArtifactGC, "optimize": &s.Optimize,
	}
}

// TestStore checks that each store command runs its own runner of the Store, and that a Store without it makes
// the command fail with a message instead of doing nothing.
func TestStore(t *testing.T) {
	var probe Store
	for name := range storeFields(&probe) {
		var called string
		var store Store
		for n, f := range storeFields(&store) {
			*f = func(*cli.Context, *app.Env) error { called = n; return nil }
		}
		args := append([]string{"memoree"}, strings.Fields(name)...)
		var out, errOut strings.Builder
		if code := Run(args, strings.NewReader(""), &out, &errOut, store); code != 0 || called != name {
			t.Errorf("%s: exit %d, ran %q, stderr %q", name, code, called, errOut.String())
		}
		*storeFields(&store)[name] = nil
		called = ""
		if code := Run(args, strings.NewReader(""), &out, &errOut, store); code != 1 || called != "" ||
			!strings.Contains(errOut.String(), "cannot run memoree "+name) {
			t.Errorf("%s without its runner: exit %d, ran %q, stderr %q", name, code, called, errOut.String())
		}
	}
}
