//go:build !urfave_cli_no_docs

package main

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestManPage fails when man/memoree.1 no longer matches the command definitions; go test -run TestManPage -update
// regenerates it.
func TestManPage(t *testing.T) {
	app := newApp(&env{getenv: os.Getenv})
	page, err := app.ToManWithSection(1)
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
		t.Fatalf("%s is stale: run 'go test ./cmd/memoree -run TestManPage -update' and commit it", path)
	}
}
