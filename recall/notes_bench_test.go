package recall

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/memoree/memoree/compiler"
)

var benchNotes = flag.Int("notes", 1000, "notes for BenchmarkImportNotes")

// BenchmarkImportNotes imports -notes short notes from a directory with ImportNotes, and applies the same
// notes one at a time, each with its own Open, Apply and Close (what one remember --apply process does after
// start-up), into another fresh store, in the same iteration. It reports "x-separate", the import's time
// divided by the separate applies', and each side's time per note.
func BenchmarkImportNotes(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{}
	for i := range *benchNotes {
		files[fmt.Sprintf("n%05d.md", i)] = fmt.Sprintf("# Note %d\n- Service svc%d listens on port %d.\n- Decided to use queue q%d for jobs of team t%d.\n",
			i, i, 1000+i, i%97, i%13)
	}
	writeNotes(b, filepath.Join(dir, "notes"), files)
	ctx := context.Background()
	var tImport, tSeparate time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		s, err := Open(filepath.Join(dir, fmt.Sprintf("import%d", i)))
		if err != nil {
			b.Fatal(err)
		}
		res, err := s.ImportNotes(ctx, filepath.Join(dir, "notes"), NotesOptions{Now: t0})
		if err != nil || res.Notes != *benchNotes {
			b.Fatal(res, err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		sep := filepath.Join(dir, fmt.Sprintf("separate%d", i))
		for name, text := range files {
			s, err := Open(sep)
			if err != nil {
				b.Fatal(err)
			}
			a := Artifact{Kind: "note", Source: "remember", Text: []byte(text)}
			if _, err := s.Apply(ctx, a, ClaimsOf(compiler.Rules.Compile(text, compiler.Source{Kind: "note"})), t0); err != nil {
				b.Fatal(name, err)
			}
			if err := s.Close(); err != nil {
				b.Fatal(err)
			}
		}
		tImport += mid.Sub(start)
		tSeparate += time.Since(mid)
	}
	per := float64(b.N * *benchNotes)
	b.ReportMetric(float64(tImport)/float64(tSeparate), "x-separate")
	b.ReportMetric(float64(tImport.Microseconds())/per, "us/note-import")
	b.ReportMetric(float64(tSeparate.Microseconds())/per, "us/note-separate")
}
