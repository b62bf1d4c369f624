package pending

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkPut measures staging one 4 KiB note, in a directory holding only that session's checkpoint and in
// one holding a thousand others: every Put sweeps the directory for dead temp files, which costs a read of it.
func BenchmarkPut(b *testing.B) {
	text := strings.Repeat("a checkpoint note ", 4096/18)
	for _, others := range []int{0, 1000} {
		b.Run(fmt.Sprintf("others=%d", others), func(b *testing.B) {
			d, err := Open(filepath.Join(b.TempDir(), "pending"))
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			for i := range others {
				if _, _, err := d.Put(note(fmt.Sprint("other", i), "x"), t0); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, _, err := d.Put(note("S1", text), t0.Add(time.Duration(i))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
