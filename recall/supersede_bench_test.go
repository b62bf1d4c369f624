package recall_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/memoree/memoree/recall"
	"github.com/memoree/memoree/recall/internal/gen"
)

// BenchmarkApplySupersede applies a note of 20 claims to a store of 10,000 generated claims, in turn with
// [recall.SupersedeListed] (candidate search for every claim) and with [recall.SupersedeNone], and reports
// "x-none": the first's time divided by the second's.
func BenchmarkApplySupersede(b *testing.B) {
	s, err := recall.Open(b.TempDir() + "/store")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := gen.Build(ctx, s, 10000, false); err != nil {
		b.Fatal(err)
	}
	batch := gen.Batches(70)[0]
	claims := batch.Claims[:20]
	text := batch.Artifact.Text[:claims[19].Spans[0].End+1]
	var tList, tNone time.Duration
	for i := 0; b.Loop(); i++ {
		for _, mode := range []recall.SupersedeMode{recall.SupersedeListed, recall.SupersedeNone} {
			a := batch.Artifact
			a.Text = append(append([]byte(nil), text...), fmt.Sprintf("\n%d-%d\n", i, mode)...)
			cs := make([]recall.ClaimInput, len(claims))
			for j, c := range claims {
				c.Key = fmt.Sprintf("%s/%d/%d", c.Key, i, mode)
				cs[j] = c
			}
			start := time.Now()
			if _, err := s.ApplyWith(ctx, a, cs, time.Unix(int64(i), 0), recall.ApplyOptions{Supersede: mode}); err != nil {
				b.Fatal(err)
			}
			if mode == recall.SupersedeNone {
				tNone += time.Since(start)
			} else {
				tList += time.Since(start)
			}
		}
	}
	b.ReportMetric(float64(tList)/float64(tNone), "x-none")
}
