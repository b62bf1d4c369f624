package journal

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/memoree/memoree/internal/atomicfile"
)

// BenchmarkAppend measures one Append, synced and with [Options.NoSync], against the atomic write of a 4 KiB
// file (what staging a checkpoint costs at least), alternating the two so that noise falls on both, and
// reports "x-atomic4k": an Append's time divided by the write's. ns/op is one pair.
func BenchmarkAppend(b *testing.B) {
	b.Run("sync", func(b *testing.B) { benchAppend(b, Options{}) })
	b.Run("nosync", func(b *testing.B) { benchAppend(b, Options{NoSync: true}) })
}

func benchAppend(b *testing.B, opt Options) {
	dir := b.TempDir()
	j, err := OpenOptions(filepath.Join(dir, "journal"), opt)
	if err != nil {
		b.Fatal(err)
	}
	files := filepath.Join(dir, "files")
	if err := atomicfile.MkdirPrivate(files); err != nil {
		b.Fatal(err)
	}
	note := bytes.Repeat([]byte("x"), 4096)
	e := Entry{Time: time.Now(), Op: Applied, Session: "s1", Checkpoint: "ck-0123456789ab",
		Artifact: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", NewClaims: 7, KnownClaims: 2,
		Bytes: 4096, Compiler: "rules/1"}
	var tj, tw time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := j.Append(e); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		if err := atomicfile.Write(files, "note", note, 0o600); err != nil {
			b.Fatal(err)
		}
		tj += mid.Sub(start)
		tw += time.Since(mid)
	}
	b.ReportMetric(float64(tj)/float64(tw), "x-atomic4k")
	b.ReportMetric(float64(tj.Microseconds())/float64(b.N), "us-append")
	b.ReportMetric(float64(tw.Microseconds())/float64(b.N), "us-atomic4k")
}
