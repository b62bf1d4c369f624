// Command recallbench times whole-process recall against the sqlite3 command line on generated stores.
//
// Usage: go run ./recall/internal/recallbench [-n claims] [-runs k]
//
// With -build it instead prints four lines: the directory of the cached generated store of -n claims (built
// first if needed), the selective query, the broad query and the answered query. Benchmarks outside recall, which cannot import
// the generator, get their stores and queries this way.
//
// With -notes it instead prints the directory of the store's notes written as plain files, one per
// artifact (built first if needed), for comparisons with text search tools.
//
// With -query it instead runs one recall in this process and prints the result count, which is the child
// process it times.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/memoree/memoree/recall"
	"github.com/memoree/memoree/recall/internal/gen"
)

var optimized *bool

func main() {
	n := flag.Int("n", 100000, "claims in the generated store")
	runs := flag.Int("runs", 21, "runs per measurement (the median is reported)")
	cpuprofile := flag.String("cpuprofile", "", "with -query, write a CPU profile of the recall to this file")
	trace := flag.Bool("trace", false, "with -query, print where the time goes")
	query := flag.String("query", "", "run one recall on -dir and exit")
	optimized = flag.Bool("optimized", true, "use the generated store with optimized indexes")
	dir := flag.String("dir", "", "store directory (default: the cached generated store of -n claims)")
	build := flag.Bool("build", false, "print the cached generated store's directory and its three queries, and exit")
	notes := flag.Bool("notes", false, "print the directory of the -n claims' notes written as files, and exit")
	flag.Parse()
	if *notes {
		d, err := gen.CachedNotes(*n)
		if err != nil {
			fmt.Fprintln(os.Stderr, "recallbench:", err)
			os.Exit(1)
		}
		fmt.Println(d)
		return
	}
	if *build {
		d, err := gen.Cached(*n, *optimized)
		if err != nil {
			fmt.Fprintln(os.Stderr, "recallbench:", err)
			os.Exit(1)
		}
		fmt.Printf("%s\n%s\n%s\n%s\n", d, gen.SelectiveQuery(), gen.BroadQuery(), gen.AnsweredQuery())
		return
	}
	if *query != "" {
		if *cpuprofile != "" {
			f, err := os.Create(*cpuprofile)
			if err != nil {
				fmt.Fprintln(os.Stderr, "recallbench:", err)
				os.Exit(1)
			}
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
		t0 := time.Now()
		s, err := recall.OpenExisting(*dir)
		t1 := time.Now()
		if err != nil {
			fmt.Fprintln(os.Stderr, "recallbench:", err)
			os.Exit(1)
		}
		r, err := s.Recall(context.Background(), *query, 10)
		if err != nil {
			fmt.Fprintln(os.Stderr, "recallbench:", err)
			os.Exit(1)
		}
		t2 := time.Now()
		if *trace {
			if r, err = s.Recall(context.Background(), *query, 10); err != nil {
				fmt.Fprintln(os.Stderr, "recallbench:", err)
				os.Exit(1)
			}
			fmt.Fprintf(os.Stderr, "open %v, first recall %v, second recall %v\n", t1.Sub(t0), t2.Sub(t1), time.Since(t2))
		}
		fmt.Println(len(r.Claims), r.Presence)
		return
	}
	if err := compare(*dir, *n, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "recallbench:", err)
		os.Exit(1)
	}
}

func compare(d string, n, runs int) error {
	if d == "" {
		var err error
		if d, err = gen.Cached(n, *optimized); err != nil {
			return err
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	db := filepath.Join(d, "recall.db")
	// A query with no words opens the store and returns at once: the floor of any recall.
	start := median(runs, self, "-dir", d, "-query", ".")
	fmt.Printf("startup (open, no search) n=%d: wall median %.2fms min %.2fms\n", n, ms(start.wall), ms(start.min))
	for _, q := range []struct{ name, query string }{
		{"selective", gen.SelectiveQuery()}, {"answered", gen.AnsweredQuery()}, {"broad", gen.BroadQuery()},
	} {
		expr := `"` + strings.Join(strings.Fields(q.query), `" OR "`) + `"`
		ref := median(runs, "/usr/bin/sqlite3", db, `SELECT c.id, c.text, c.created, -bm25(claims_fts) FROM claims_fts
			JOIN claims c ON c.id = claims_fts.rowid WHERE claims_fts MATCH '`+expr+`' ORDER BY rank LIMIT 10`)
		ours := median(runs, self, "-dir", d, "-query", q.query)
		fmt.Printf("%s n=%d: wall median sqlite3 %.2fms recall %.2fms ratio %.2f; wall min sqlite3 %.2fms recall %.2fms ratio %.2f\n",
			q.name, n, ms(ref.wall), ms(ours.wall), ours.wall.Seconds()/ref.wall.Seconds(),
			ms(ref.min), ms(ours.min), ours.min.Seconds()/ref.min.Seconds())
	}
	return nil
}

func ms(d time.Duration) float64 { return d.Seconds() * 1000 }

// timing is the median and minimum wall-clock time of a command; the minimum is the least disturbed by
// other load on the machine.
type timing struct{ wall, min time.Duration }

func median(runs int, name string, args ...string) timing {
	var wall []time.Duration
	for range runs {
		start := time.Now()
		cmd := exec.Command(name, args...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "recallbench: %s: %v: %s\n", name, err, out)
			os.Exit(1)
		}
		wall = append(wall, time.Since(start))
	}
	slices.Sort(wall)
	return timing{wall[len(wall)/2], wall[0]}
}
