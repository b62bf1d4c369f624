package recall

import (
	"context"
	"strings"
	"testing"
)

func TestFlaggedVisible(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	remember(t, s, t0, "The staging host is alpha")
	a, c := note("s1", "t1", "The staging password is hunter2", "The staging region is eu")
	a.Flagged = true
	if _, err := s.Apply(ctx, a, c, t0.Add(1)); err != nil {
		t.Fatal(err)
	}
	r, err := s.Recall(ctx, "staging", 10)
	if err != nil {
		t.Fatal(err)
	}
	flagged := 0
	for _, h := range r.Claims {
		if h.Flagged != strings.Contains(a.String(), h.Text) {
			t.Errorf("%q: flagged %v", h.Text, h.Flagged)
		}
		if h.Flagged {
			flagged++
		}
	}
	if flagged != 2 {
		t.Fatalf("recall marks %d flagged claims, want 2: %+v", flagged, r.Claims)
	}
	_, nc := note("s1", "t1", "The staging password is rotated", "The staging host is beta")
	cands, err := s.Candidates(ctx, nc)
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range cands {
		for _, cd := range list {
			if cd.Flagged != strings.Contains(a.String(), cd.Text) {
				t.Errorf("candidate %q: flagged %v", cd.Text, cd.Flagged)
			}
		}
	}
	if len(cands[0]) != 1 || !cands[0][0].Flagged || len(cands[1]) != 1 || cands[1][0].Flagged {
		t.Errorf("candidates %+v, want the flagged password and the unflagged host", cands)
	}
	hits, _, err := s.Search(ctx, "staging", 10)
	if err != nil || len(hits) != 2 || hits[0].Flagged == hits[1].Flagged {
		t.Fatalf("search marks %+v, %v", hits, err)
	}
	for _, q := range []string{"staging", ""} {
		blk, err := s.Context(ctx, ContextOptions{Query: q, Budget: 500, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(blk.Markdown, "hunter2") || blk.Flagged != 2 || blk.Included != 1 {
			t.Fatalf("query %q: flagged %d included %d:\n%s", q, blk.Flagged, blk.Included, blk.Markdown)
		}
		blk, err = s.Context(ctx, ContextOptions{Query: q, Budget: 500, Now: t0, AllowFlagged: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(blk.Markdown, "hunter2") || blk.Flagged != 0 || blk.Included != 3 {
			t.Fatalf("query %q allowed: flagged %d included %d:\n%s", q, blk.Flagged, blk.Included, blk.Markdown)
		}
	}
}

func (a Artifact) String() string { return string(a.Text) }

func TestRefs(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	a, c := note("s1", "t1", "Deploys go through the canary")
	w12, _ := ParseRef("window=W12")
	a.Refs = []Ref{w12, {Key: "item", Value: "I-3481"}}
	if _, err := s.Apply(ctx, a, c, t0); err != nil {
		t.Fatal(err)
	}
	remember(t, s, t0.Add(1), "Deploys happen on Fridays")
	r, err := s.RecallWith(ctx, "deploys", RecallOptions{Ref: &w12})
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(r.Claims); len(got) != 1 || got[0] != "Deploys go through the canary" {
		t.Fatalf("recall --ref: %q", got)
	}
	if refs := r.Claims[0].Refs; len(refs) != 2 || refs[0].String() != "item=I-3481" || refs[1].String() != "window=W12" {
		t.Fatalf("refs %v", refs)
	}
	if r, _ := s.RecallWith(ctx, "deploys", RecallOptions{Ref: &Ref{"window", "W13"}}); len(r.Claims) != 0 {
		t.Fatalf("another window: %q", texts(r.Claims))
	}
	blk, err := s.Context(ctx, ContextOptions{Budget: 500, Now: t0, Ref: &w12})
	if err != nil {
		t.Fatal(err)
	}
	if blk.Included != 1 || !strings.Contains(blk.Markdown, "canary") {
		t.Fatalf("context --ref:\n%s", blk.Markdown)
	}
	for _, bad := range []string{"window", "=W1", "Window=W1", "w=", "w= x", "w=a\x01b", strings.Repeat("k", 40) + "=v"} {
		if _, err := ParseRef(bad); err == nil {
			t.Errorf("ParseRef(%q) accepted", bad)
		}
	}
	// Undo of the apply takes its refs too.
	if _, err := s.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	s.db.QueryRow(`SELECT count(*) FROM refs`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d refs after undo", n)
	}
}
