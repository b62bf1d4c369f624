package checkpoint

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

var markerRE = regexp.MustCompile(`\n\[memoree: truncated: kept (\d+) of (\d+) bytes\]\n$`)

// checkCap asserts the contract of Cap for one input.
func checkCap(t *testing.T, in []byte) {
	t.Helper()
	out, kept := Cap(in)
	if len(out) > MaxStored {
		t.Fatalf("stored %d bytes, more than %d", len(out), MaxStored)
	}
	if utf8.Valid(in) && !utf8.Valid(out) {
		t.Fatalf("stored text is not valid UTF-8")
	}
	if len(in) <= MaxStored {
		if !bytes.Equal(out, in) || kept != len(in) {
			t.Fatalf("text that fits was changed: kept %d of %d", kept, len(in))
		}
		return
	}
	if kept >= len(in) || !bytes.HasPrefix(out, in[:kept]) {
		t.Fatalf("stored text does not start with the kept prefix (kept %d)", kept)
	}
	m := markerRE.FindSubmatch(out[kept:])
	if m == nil || len(out[kept:]) != len(m[0]) {
		t.Fatalf("no exact marker after the kept prefix: %q", out[kept:])
	}
	if want := fmt.Sprintf("kept %d of %d bytes", kept, len(in)); !bytes.Contains(m[0], []byte(want)) {
		t.Fatalf("marker %q does not say %q", m[0], want)
	}
	if utf8.Valid(in) && kept > 0 && !norm.NFC.Properties(in[kept:]).BoundaryBefore() {
		// Allowed only inside a run of more than maxMarks combining marks.
		for i, n := 0, kept; i < maxMarks; i++ {
			_, size := utf8.DecodeLastRune(in[:n])
			n -= size
			if n <= 0 || norm.NFC.Properties(in[n:]).BoundaryBefore() {
				t.Fatalf("cut at %d parts a character from its combining marks", kept)
			}
		}
	}
}

func TestCap(t *testing.T) {
	combining := strings.Repeat("e\u0301", 3000) // e + combining acute: the cut must not part them
	tests := []struct {
		name string
		in   string
		cut  bool
	}{
		{"empty", "", false},
		{"short", "hello", false},
		{"exactly the limit", strings.Repeat("a", MaxStored), false},
		{"one over", strings.Repeat("a", MaxStored+1), true},
		{"multibyte at the cut", strings.Repeat("é", 3000), true},
		{"four-byte runes", strings.Repeat("😀", 2000), true},
		{"combining marks", combining, true},
		{"64 KiB", strings.Repeat("0123456789abcdef", 4096), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkCap(t, []byte(tt.in))
			_, kept := Cap([]byte(tt.in))
			if got := kept < len(tt.in); got != tt.cut {
				t.Fatalf("truncated = %v, want %v", got, tt.cut)
			}
		})
	}
	// The cut keeps as much as it can: within one combining sequence of the room left by the marker.
	out, kept := Cap([]byte(strings.Repeat("a", 10000)))
	if len(out) < MaxStored-8 {
		t.Fatalf("kept %d bytes of ASCII, stored %d: the cut wastes room", kept, len(out))
	}
	_, kept = Cap([]byte(combining))
	if kept%3 != 0 {
		t.Fatalf("cut at %d, inside an e + U+0301 pair", kept)
	}
}

func FuzzCap(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.txt")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(strings.Repeat("a\u0301", 2100)))
	f.Add([]byte(strings.Repeat("x", MaxStored+1)))
	f.Fuzz(func(t *testing.T, in []byte) {
		// Grow small inputs past the limit so that the fuzzer explores the cut as well as the pass-through.
		if len(in) > 0 && len(in) < MaxStored {
			in = bytes.Repeat(in, MaxStored/len(in)+1)
		}
		checkCap(t, in)
	})
}
