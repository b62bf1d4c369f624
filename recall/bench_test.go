package recall_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/memoree/memoree/recall"
	"github.com/memoree/memoree/recall/internal/gen"
)

// benchSizes are the generated stores' sizes; the 1,000,000-claim store takes about a minute to build
// the first time (cached under the temporary directory) and shows how recall grows with the store.
var benchSizes = []int{1000, 10000, 100000, 1000000}

// openGen opens the cached generated store of n claims.
func openGen(b *testing.B, n int, optimized bool) (*recall.Store, string) {
	b.Helper()
	dir, err := gen.Cached(n, optimized)
	if err != nil {
		b.Fatal(err)
	}
	s, err := recall.OpenExisting(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s, dir
}

// benchRecall times Recall of query on generated stores of each size, with the full-text indexes as the
// writes left them and after Optimize, and reports the store's bytes per claim.
func benchRecall(b *testing.B, query string) {
	for _, opt := range []bool{false, true} {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("optimized=%v/claims=%d", opt, n), func(b *testing.B) {
				s, dir := openGen(b, n, opt)
				r, err := s.Recall(context.Background(), query, 10)
				if err != nil {
					b.Fatal(err)
				}
				if len(r.Claims) == 0 && n >= 10000 {
					b.Fatalf("query %q found nothing", query)
				}
				size, err := gen.Size(dir)
				if err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for b.Loop() {
					if _, err := s.Recall(context.Background(), query, 10); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(size)/float64(n), "store-bytes/claim")
			})
		}
	}
}

func BenchmarkRecallSelective(b *testing.B) { benchRecall(b, gen.SelectiveQuery()) }

func BenchmarkRecallBroad(b *testing.B) { benchRecall(b, gen.BroadQuery()) }

func BenchmarkRecallAnswered(b *testing.B) { benchRecall(b, gen.AnsweredQuery()) }

// BenchmarkOpenRecall is what one command-line recall costs beyond process start: open, one selective
// recall, close.
func BenchmarkOpenRecall(b *testing.B) { benchOpenRecall(b, true, gen.SelectiveQuery()) }

// BenchmarkOpenRecallBroad is BenchmarkOpenRecall for the broad query, on the store as applied: what one
// command-line broad recall costs, with whatever each new connection sets up.
func BenchmarkOpenRecallBroad(b *testing.B) { benchOpenRecall(b, false, gen.BroadQuery()) }

func benchOpenRecall(b *testing.B, optimized bool, query string) {
	dir, err := gen.Cached(100000, optimized)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := recall.OpenExisting(dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Recall(context.Background(), query, 10); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkApplyNote applies one 4 KiB note of about 20 claims to a fresh store each time.
func BenchmarkApplyNote(b *testing.B) {
	batch := gen.Batches(70)[0]
	// Keep about 20 claims: the first lines of the note.
	claims := batch.Claims[:20]
	batch.Artifact.Text = batch.Artifact.Text[:claims[19].Spans[0].End+1]
	for len(batch.Artifact.Text) < 4096 {
		batch.Artifact.Text = append(batch.Artifact.Text, '.')
	}
	s, err := recall.Open(b.TempDir() + "/store")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	i := 0
	for b.Loop() {
		// A different artifact and keys each time, so every apply does the full work.
		i++
		a := batch.Artifact
		a.Text = append([]byte(nil), a.Text...)
		copy(a.Text[len(a.Text)-8:], fmt.Sprintf("%08d", i))
		cs := make([]recall.ClaimInput, len(claims))
		for j, c := range claims {
			c.Key = fmt.Sprintf("%s/%d", c.Key, i)
			cs[j] = c
		}
		r, err := s.Apply(context.Background(), a, cs, time.Unix(int64(i), 0))
		if err != nil {
			b.Fatal(err)
		}
		if r.NewClaims != 20 {
			b.Fatalf("apply = %+v", r)
		}
	}
}

// BenchmarkBuild10k builds a 10,000-claim store through ApplyBatch, as the generator does.
func BenchmarkBuild10k(b *testing.B) {
	for b.Loop() {
		s, err := recall.Open(b.TempDir() + "/store")
		if err != nil {
			b.Fatal(err)
		}
		if err := gen.Build(context.Background(), s, 10000, false); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/10000, "µs/claim")
}

// BenchmarkContextBroad builds a context block for the broad query on the 100,000-claim store, as
// memoree context build --query does.
func BenchmarkContextBroad(b *testing.B) {
	s, _ := openGen(b, 100000, false)
	opt := recall.ContextOptions{Query: gen.BroadQuery(), Budget: 2000, Now: gen.Epoch.Add(24 * time.Hour)}
	for b.Loop() {
		blk, err := s.Context(context.Background(), opt)
		if err != nil {
			b.Fatal(err)
		}
		if blk.Included == 0 {
			b.Fatal("empty block")
		}
	}
}
