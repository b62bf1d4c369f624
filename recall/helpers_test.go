package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// t0 is the clock of the tests: every write and age is relative to it.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// note builds an artifact whose lines are each one claim, keyed by its text.
func note(session, task string, lines ...string) (Artifact, []ClaimInput) {
	text := strings.Join(lines, "\n") + "\n"
	a := Artifact{Kind: "note", Source: "remember", Session: session, Task: task, Text: []byte(text)}
	var claims []ClaimInput
	off := 0
	for _, l := range lines {
		claims = append(claims, ClaimInput{
			Key: "k:" + strings.ToLower(l), Text: l, Kind: "fact", Compiler: "test/1",
			Spans: []Span{{off, off + len(l)}},
		})
		off += len(l) + 1
	}
	return a, claims
}

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.TempDir() + "/store")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// remember applies one note of lines at time at.
func remember(t *testing.T, s *Store, at time.Time, lines ...string) ApplyResult {
	t.Helper()
	a, c := note("s1", "t1", lines...)
	r, err := s.Apply(context.Background(), a, c, at)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// counts returns the number of rows of each table, to compare store states.
func counts(t *testing.T, s *Store) string {
	t.Helper()
	var parts []string
	for _, tbl := range []string{"artifacts", "claims", "evidence", "claims_fts", "artifacts_fts"} {
		var n int
		if err := s.db.QueryRow(`SELECT count(*) FROM ` + tbl).Scan(&n); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, fmt.Sprintf("%s=%d", tbl, n))
	}
	return strings.Join(parts, " ")
}

func texts(hits []ClaimHit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Text)
	}
	return out
}

func itoa(n int64) string { return fmt.Sprint(n) }
