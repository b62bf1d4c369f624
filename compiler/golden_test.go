package compiler

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current compiler output")

// notes returns the realistic notes under testdata/notes, by file name.
func notes(tb testing.TB) map[string]string {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "notes", "*"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no notes under testdata/notes: %v", err)
	}
	m := make(map[string]string, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		m[filepath.Base(p)] = string(b)
	}
	return m
}

// render prints a Result the way a reviewer reads it: one claim or skip a line, spans as start-end.
func render(r Result) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "compiler %s\n", r.Compiler)
	for _, c := range r.Claims {
		spans := make([]string, len(c.Spans))
		for i, sp := range c.Spans {
			spans[i] = fmt.Sprintf("%d-%d", sp.Start, sp.End)
		}
		fmt.Fprintf(&b, "claim %-10s %s %s", c.Kind, strings.Join(spans, ","), strconv.Quote(c.Text))
		if c.Context != "" {
			fmt.Fprintf(&b, " context %s", strconv.Quote(c.Context))
		}
		b.WriteByte('\n')
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skip  %q %d-%d %s\n", s.Reason, s.Span.Start, s.Span.End, strconv.Quote(s.Text))
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	for name, text := range notes(t) {
		t.Run(name, func(t *testing.T) {
			r := Rules.Compile(text, Source{Kind: "checkpoint"})
			checkResult(t, text, Source{}, r)
			got := render(r)
			path := filepath.Join("testdata", "golden", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the compiler output (go test -update refreshes it):\ngot:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}
}
