package journal_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/memoree/memoree/journal"
	"github.com/memoree/memoree/recall"
)

// BenchmarkAppendVsApply measures one Append (synced, and with NoSync) against what memoree does to apply a
// short note after start-up: open the store, apply, close it. It alternates the two and reports
// "x-apply": an Append's time divided by the apply's.
func BenchmarkAppendVsApply(b *testing.B) {
	for _, tc := range []struct {
		name string
		opt  journal.Options
	}{{"sync", journal.Options{}}, {"nosync", journal.Options{NoSync: true}}} {
		b.Run(tc.name, func(b *testing.B) {
			dir := b.TempDir()
			j, err := journal.OpenOptions(filepath.Join(dir, "journal"), tc.opt)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var tj, ta time.Duration
			for i := 0; b.Loop(); i++ {
				text := fmt.Sprintf("- Service svc%d listens on port %d\n- Decided to use queue q%d\n", i, 1000+i, i)
				claims := []recall.ClaimInput{{Key: fmt.Sprintf("k%d", i), Text: text[2 : len(text)-1], Kind: "fact", Compiler: "test/1",
					Spans: []recall.Span{{Start: 2, End: len(text) - 1}}}}
				start := time.Now()
				s, err := recall.Open(filepath.Join(dir, "store"))
				if err != nil {
					b.Fatal(err)
				}
				r, err := s.Apply(ctx, recall.Artifact{Kind: "note", Source: "remember", Text: []byte(text)}, claims, start)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
				mid := time.Now()
				if _, err := j.Append(journal.Entry{Time: mid, Op: journal.Applied, Artifact: r.Artifact, NewClaims: r.NewClaims,
					Bytes: int64(len(text)), Compiler: "test/1"}); err != nil {
					b.Fatal(err)
				}
				ta += mid.Sub(start)
				tj += time.Since(mid)
			}
			b.ReportMetric(float64(tj)/float64(ta), "x-apply")
		})
	}
}
