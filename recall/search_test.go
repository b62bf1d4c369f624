package recall

import (
	"context"
	"strings"
	"testing"
)

func TestSearch(t *testing.T) {
	s := openTemp(t)
	filler := strings.Repeat("Nothing to see in this line. ", 20)
	notes := []string{
		filler + "The nightly backup job deploys snapshots to the cold bucket. " + filler,
		"Backups are verified every Monday.",
		"The frontend build uses Vite.",
	}
	for _, n := range notes {
		a := Artifact{Kind: "checkpoint", Source: "pending:ck-x", Session: "s", Task: "t", Text: []byte(n)}
		if _, err := s.Apply(context.Background(), a, nil, t0); err != nil {
			t.Fatal(err)
		}
	}
	hits, more, err := s.Search(context.Background(), "backup deployed", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || more {
		t.Fatalf("Search = %d hits (more %v), want 2", len(hits), more)
	}
	// The note with both words ranks first, its snippet cut around them.
	if h := hits[0]; h.Artifact != hashBytes([]byte(notes[0])) || h.Kind != "checkpoint" ||
		!strings.Contains(h.Snippet, "[backup] job [deploys]") || !strings.HasPrefix(h.Snippet, "…") ||
		!strings.HasSuffix(h.Snippet, "…") || len(h.Snippet) > 200 {
		t.Errorf("first hit %+v", h)
	}
	if h := hits[1]; h.Snippet != "[Backups] are verified every Monday." || h.Score <= 0 || h.Score > hits[0].Score {
		t.Errorf("second hit %+v", h)
	}
	hits, more, err = s.Search(context.Background(), "backups", 1)
	if err != nil || len(hits) != 1 || !more {
		t.Errorf("Search(limit 1) = %d hits, more %v, %v; want 1, true", len(hits), more, err)
	}
	if hits, _, err := s.Search(context.Background(), "kubernetes", 10); err != nil || len(hits) != 0 {
		t.Errorf("Search(no match) = %v, %v", hits, err)
	}
}
