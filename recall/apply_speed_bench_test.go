package recall_test

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memoree/memoree/compiler"
	"github.com/memoree/memoree/internal/benchnote"
	"github.com/memoree/memoree/recall"
)

// BenchmarkApplyNote4K does in one process what one 'remember --apply' of a 4 KiB note does after start-up:
// Open, ApplyWith and Close, on a store that earlier notes restating each other filled with superseded
// history (the store internal/benchproc's BenchmarkRememberApply4K builds). "supersede" runs the candidate
// search, "keep-old" does not.
func BenchmarkApplyNote4K(b *testing.B) {
	for _, mode := range []struct {
		name string
		opt  recall.ApplyOptions
	}{{"supersede", recall.ApplyOptions{Supersede: recall.SupersedeListed}}, {"keep-old", recall.ApplyOptions{Supersede: recall.SupersedeNone}}} {
		b.Run(mode.name, func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "store")
			ctx := context.Background()
			apply := func(pass int) {
				s, err := recall.Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				text := benchnote.Text(4<<10, pass)
				res := compiler.Rules.Compile(text, compiler.Source{Kind: "note"})
				a := recall.Artifact{Kind: "note", Source: "remember", Text: []byte(text)}
				if _, err := s.ApplyWith(ctx, a, recall.ClaimsOf(res), time.Unix(int64(pass), 0), mode.opt); err != nil {
					b.Fatal(err)
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
			const history = 100
			for pass := 1; pass <= history; pass++ {
				apply(pass)
			}
			cpu0 := cpuTime(b)
			n := 0
			for pass := history + 1; b.Loop(); pass++ {
				apply(pass)
				n++
			}
			// The processor time, which other work on the machine slows less than the wall time.
			b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/float64(n), "cpu-us/op")
		})
	}
}

// cpuTime returns the processor time this process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
