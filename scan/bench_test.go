package scan

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
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
func BenchmarkJWTHeads64K(b *testing.B) { benchText(b, strings.Repeat("eyJ-", 16<<10)) }

// Addresses to the agent with no demand after them, and addresses each followed by a long sentence.
func BenchmarkAddress64K(b *testing.B) { benchText(b, strings.Repeat("Claude, ", 8<<10)) }
func BenchmarkAddressLine64K(b *testing.B) {
	benchText(b, strings.Repeat("AI: the fixture keeps the old schema and the cache stays warm between runs, ", 64<<10/77))
}

// BenchmarkJWTHeadsTail64K is BenchmarkJWTHeads64K with a token's tail after the run, so that every hit's header
// is judged, not only the run's shape.
func BenchmarkJWTHeadsTail64K(b *testing.B) {
	benchText(b, strings.Repeat("eyJ-", 16<<10-16)+".eyJaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbb")
}
func BenchmarkJWTRun64K(b *testing.B) {
	g := &gen{r: newRand()}
	var t strings.Builder
	for t.Len() < 64<<10 {
		t.WriteString(g.str(base64c, 60) + "-eyJ")
	}
	benchText(b, t.String())
}
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

// cleanNote is a realistic checkpoint note of about 4 KiB without a secret: status lines, paths, commands and
// next steps, with credential words in prose.
func cleanNote() string {
	lines := []string{
		"# Checkpoint 318 — session token refresh",
		"",
		"Status: refresh path works locally; the integration test still flakes on CI.",
		"- edited internal/auth/refresh.go (+112 -40)",
		"- edited internal/auth/refresh_test.go (+64 -3)",
		"- edited docs/runbook.md (+18 -6)",
		"$ go test ./internal/auth/... -run TestRefresh -count 20",
		"    at refresh.go:141 in (*Client).refresh",
		"Decision: keep the token cache in memory; the key rotation job owns persistence.",
		"The secret store is read once at start-up; we do not log the key or the token.",
		"Risk: the task runner retries on 401 and may mask a revoked session.",
		"Asked Dana whether the API key for staging lives in the vault or in 1Password; waiting.",
		"Next: split the handler so the retry policy is testable",
		"Next: benchmark the parser on the 64 KiB fixture",
		"Next: update CHANGELOG and the basic usage section",
		"Blocked: need a user with the admin role on staging to check the authorization flow.",
		"pwd: /home/dev/src/memoree",
		"$ make lint && make test",
		"ok  \tgithub.com/memoree/memoree/internal/auth\t1.204s",
		"--- PASS: TestRefresh (0.31s)",
		"Note: password rules are in docs/security.md; nothing to change there.",
		"Open question: should the desk check skip notes larger than 64 KiB?",
	}
	var sb strings.Builder
	for sb.Len() < 4<<10 {
		for _, l := range lines {
			sb.WriteString(l)
			sb.WriteByte('\n')
		}
	}
	s := sb.String()[:4<<10]
	return s[:strings.LastIndexByte(s, '\n')+1]
}

// BenchmarkColdText4K and BenchmarkColdCleanText4K measure the first call to Text in a process, with every
// lazily built part (rules, expressions, word lists) reset before each call; caches and page tables stay warm.
func BenchmarkColdText4K(b *testing.B)      { benchCold(b, benchNote(b, 4<<10)) }
func BenchmarkColdCleanText4K(b *testing.B) { benchCold(b, cleanNote()) }

// BenchmarkColdAddressedText4K is BenchmarkColdText4K on a checkpoint that speaks to the agent that resumes
// it, as many do: the expressions of demands made of an addressed agent are compiled in its first call.
func BenchmarkColdAddressedText4K(b *testing.B) {
	benchCold(b, "Claude, when you pick this up, rerun the benchmarks and keep the schema at version 3.\n"+benchNote(b, 4<<10))
}

func benchCold(b *testing.B, text string) {
	if fs := Text(cleanNote()); len(fs) != 0 {
		b.Fatalf("cleanNote has findings: %+v", fs)
	}
	b.ReportAllocs()
	for b.Loop() {
		resetLazy()
		Text(text)
	}
}

const childEnv = "SCAN_FIRST_CALL_CHILD"

// BenchmarkProcessFirstText4K runs the first call to Text in a fresh process per iteration, as the CLI does: the
// first-ns/op metric is the time of that call alone, page faults and cold caches included.
func BenchmarkProcessFirstText4K(b *testing.B) {
	var total time.Duration
	n := 0
	for b.Loop() {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFirstCallChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), childEnv+"=1")
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("child: %v\n%s", err, out)
		}
		_, after, ok := strings.Cut(string(out), "first-call-ns ")
		ns, err := strconv.Atoi(strings.Fields(after + " x")[0])
		if !ok || err != nil {
			b.Fatalf("child output: %q", out)
		}
		total += time.Duration(ns)
		n++
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(n), "first-ns/op")
}

// TestFirstCallChild is BenchmarkProcessFirstText4K's child: it times one call to Text on cleanNote.
func TestFirstCallChild(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("run by BenchmarkProcessFirstText4K")
	}
	text := cleanNote()
	start := time.Now()
	Text(text)
	fmt.Printf("first-call-ns %d\n", time.Since(start).Nanoseconds())
}

// BenchmarkCleanText64K scans 64 KiB of an ordinary checkpoint without secrets: the usual note, where
// BenchmarkText64K is the densest.
func BenchmarkCleanText64K(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 64<<10 {
		sb.WriteString(cleanNote())
		sb.WriteByte('\n')
	}
	benchText(b, sb.String()[:64<<10])
}
