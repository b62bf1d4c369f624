package scan

import (
	"regexp"
	"strings"
	"testing"
)

// benchNote concatenates corpus notes (secrets and hard negatives alike) to size bytes, cut at a line end.
func benchNote(b *testing.B, size int) string {
	b.Helper()
	var sb strings.Builder
	for sb.Len() < size {
		for _, n := range loadCorpus(b) {
			if len(n.text) > 8<<10 {
				continue
			}
			sb.WriteString(n.text)
			if sb.Len() >= size {
				break
			}
		}
	}
	s := sb.String()[:size]
	if i := strings.LastIndexByte(s, '\n'); i > 0 {
		s = s[:i+1]
	}
	return s
}

func benchText(b *testing.B, text string) {
	b.Helper()
	Text(text) // compile the rules outside the timed loop
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Text(text)
	}
}

// BenchmarkText4K and BenchmarkText64K scan notes packed with secrets and hard negatives, about one every
// five lines: the costly case.
func BenchmarkText4K(b *testing.B)  { benchText(b, benchNote(b, 4<<10)) }
func BenchmarkText64K(b *testing.B) { benchText(b, benchNote(b, 64<<10)) }

// BenchmarkText64KLong scans the corpus's long note: 63 KiB of status lines, logs and commands with a secret or
// a hard negative every few lines.
func BenchmarkText64KLong(b *testing.B) {
	for _, n := range loadCorpus(b) {
		if n.name == "big-01.note" {
			benchText(b, n.text)
			return
		}
	}
	b.Fatal("big-01.note not in the corpus")
}

// Pathological inputs: one 64 KiB line each.
func BenchmarkEquals64K(b *testing.B) { benchText(b, strings.Repeat("=", 64<<10)) }
func BenchmarkBase6464K(b *testing.B) {
	g := &gen{r: newRand()}
	benchText(b, g.str(base64c, 64<<10))
}
func BenchmarkColon64K(b *testing.B)    { benchText(b, strings.Repeat("a:", 32<<10)) }
func BenchmarkPassword64K(b *testing.B) { benchText(b, strings.Repeat("password=", 64<<10/9)) }
func BenchmarkName64K(b *testing.B)     { benchText(b, strings.Repeat("pass", 16<<10)) }
func BenchmarkKeyID64K(b *testing.B)    { benchText(b, strings.Repeat("AKIA", 16<<10)) }
func BenchmarkBegin64K(b *testing.B) {
	benchText(b, strings.Repeat("-----BEGIN RSA PRIVATE KEY-----", 64<<10/31))
}

// BenchmarkCompile measures building the rule set, which the first scan of a process pays; expressions compile
// later, on their rule's first hit.
func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		compile(ruleTable())
	}
}

// BenchmarkFirstText4K measures the first scan of a process: building the rules, compiling the expressions the
// note needs, and scanning a 4 KiB note.
func BenchmarkFirstText4K(b *testing.B) {
	text := benchNote(b, 4<<10)
	Text(text) // the process-wide word lists
	b.ResetTimer()
	for b.Loop() {
		compile(ruleTable()).text(text)
	}
}

// BenchmarkReferenceRegexp64K runs one naive case-insensitive credential expression over the same 64 KiB note,
// as a same-run reference for BenchmarkText64K.
func BenchmarkReferenceRegexp64K(b *testing.B) {
	re := regexp.MustCompile(`(?i)(?:password|token|secret|api_?key)\s*[:=]\s*\S+`)
	text := benchNote(b, 64<<10)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		re.FindAllStringIndex(text, -1)
	}
}
