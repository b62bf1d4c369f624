package compiler

import (
	"slices"
	"strings"
	"testing"
)

// note4K returns about 4 KiB of realistic note text, whole lines only.
func note4K(tb testing.TB) string {
	m := notes(tb)
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	var b strings.Builder
	for b.Len() < 4096 {
		for _, name := range names {
			for line := range strings.SplitAfterSeq(m[name], "\n") {
				if b.Len()+len(line) > 4096 {
					return b.String()
				}
				b.WriteString(line)
			}
		}
	}
	return b.String()
}

func BenchmarkCompile4K(b *testing.B) {
	text := note4K(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Rules.Compile(text, Source{Kind: "checkpoint"})
	}
}

func BenchmarkKey(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Key("We decided to use SQLite FTS5 instead of a hand-rolled index.")
		Key("José prefers tabs over spaces in Go files.")
	}
}
