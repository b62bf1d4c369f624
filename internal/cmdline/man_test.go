//go:build !urfave_cli_no_docs

package cmdline

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/memoree/memoree/internal/app"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestManPage fails when man/memoree.1 no longer matches the command definitions; go test -run TestManPage -update
// regenerates it.
func TestManPage(t *testing.T) {
	page, err := newApp(app.NewEnv(os.Stdin, os.Stdout, os.Stderr), Store{}).ToManWithSection(1)
	if err != nil {
		t.Fatal(err)
	}
	const path = "../../man/memoree.1"
	if *update {
		if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, []byte(page)) {
		t.Fatalf("%s is stale: run 'go test ./internal/cmdline -run TestManPage -update' and commit it", path)
	}
}
