package recall

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestContext(t *testing.T) {
	s := openTemp(t)
	for i := range 20 {
		a, c := note(fmt.Sprintf("s%d", i%2), fmt.Sprintf("t%d", i%4),
			fmt.Sprintf("Service %02d deploys to region %d through the pipeline", i, i%3))
		if _, err := s.Apply(context.Background(), a, c, t0.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	remember(t, s, t0, "The wiki has the on-call rota")
	now := t0.Add(72 * time.Hour)

	tests := []struct {
		name          string
		opt           ContextOptions
		first         string // expected first claim line prefix
		relevant      int    // Included + LeftOut
		allIncluded   bool
		mustNotInline string
	}{
		{"recent", ContextOptions{Budget: 2000, Now: now}, "- Service 19 deploys", 21, true, ""},
		{"query", ContextOptions{Query: "on-call rota", Budget: 2000, Now: now}, "- The wiki has the on-call rota", 1, true, ""},
		{"session", ContextOptions{Session: "s1", Budget: 2000, Now: now}, "- Service 19 deploys", 11, true, "Service 18"}, // with the rota note
		{"session and task", ContextOptions{Session: "s0", Task: "t2", Budget: 2000, Now: now}, "- Service 18 deploys", 5, true, "Service 16 "},
		{"query and task", ContextOptions{Query: "deploys", Task: "t3", Budget: 2000, Now: now}, "- Service 19 deploys", 5, true, "Service 18"},
		{"tight budget", ContextOptions{Query: "pipeline", Budget: 60, Now: now}, "- Service", 20, false, ""},
		{"no match", ContextOptions{Query: "kubernetes", Budget: 100, Now: now}, "", 0, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := s.Context(context.Background(), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if b.Tokens != Tokens(b.Markdown) || b.Tokens > tt.opt.Budget {
				t.Fatalf("Tokens = %d for %d bytes, budget %d", b.Tokens, len(b.Markdown), tt.opt.Budget)
			}
			lines := strings.Split(strings.TrimSuffix(b.Markdown, "\n"), "\n")
			if lines[0] != strings.TrimSuffix(contextHeader, "\n") {
				t.Errorf("header %q", lines[0])
			}
			// The block ends with a line that counts the relevant claims left out, or that says none is
			// relevant, or with its last claim when it holds every relevant one.
			footer := strings.TrimSuffix(leftOutLine(b.LeftOut), "\n")
			if b.Included+b.LeftOut == 0 {
				footer = strings.TrimSuffix(nothingRelevant, "\n")
			}
			claimLines := len(lines) - 1
			if footer != "" {
				claimLines--
				if lines[len(lines)-1] != footer {
					t.Errorf("last line %q, want %q", lines[len(lines)-1], footer)
				}
			} else if strings.HasPrefix(lines[len(lines)-1], "_") {
				t.Errorf("last line %q: a block that holds every relevant claim has no footer", lines[len(lines)-1])
			}
			if got := claimLines; got != b.Included {
				t.Errorf("%d claim lines, Included = %d", got, b.Included)
			}
			if b.Included+b.LeftOut != tt.relevant {
				t.Errorf("Included %d + LeftOut %d, want %d relevant", b.Included, b.LeftOut, tt.relevant)
			}
			if tt.allIncluded != (b.LeftOut == 0) {
				t.Errorf("LeftOut = %d", b.LeftOut)
			}
			if tt.first != "" && (len(lines) < 2 || !strings.HasPrefix(lines[1], tt.first)) {
				t.Errorf("first line %q, want prefix %q\n%s", lines[1], tt.first, b.Markdown)
			}
			if tt.mustNotInline != "" && strings.Contains(b.Markdown, tt.mustNotInline) {
				t.Errorf("block holds %q, filtered out:\n%s", tt.mustNotInline, b.Markdown)
			}
			for _, l := range lines[1 : len(lines)-1] {
				// Each line cites a short hash of a stored artifact and its age.
				i := strings.LastIndex(l, ", ")
				cite := strings.TrimSuffix(l[i+2:], ")")
				if len(cite) != 8 {
					t.Errorf("line %q cites %q", l, cite)
				} else if _, _, err := s.ArtifactBytes(cite); err != nil {
					t.Errorf("line %q: cited artifact: %v", l, err)
				}
				if !strings.Contains(l, " ago, ") {
					t.Errorf("line %q has no age", l)
				}
			}
		})
	}
	if _, err := s.Context(context.Background(), ContextOptions{Budget: 5, Now: now}); !errors.Is(err, ErrBudget) {
		t.Errorf("Context(budget 5) = %v, want ErrBudget", err)
	}
}

func TestTokens(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 1, 3: 1, 4: 2, 6: 2, 7: 3} {
		if got := Tokens(strings.Repeat("x", n)); got != want {
			t.Errorf("Tokens(%d bytes) = %d, want %d", n, got, want)
		}
	}
}

func TestEmptyContext(t *testing.T) {
	b, err := EmptyContext(ContextOptions{Query: "anything", Budget: 100, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if want := contextHeader + nothingRelevant; b.Markdown != want || b.Included != 0 || b.LeftOut != 0 || b.Tokens != Tokens(want) {
		t.Errorf("EmptyContext = %+v, want %q", b, want)
	}
	// The same as a store with nothing in it.
	s := openTemp(t)
	got, err := s.Context(context.Background(), ContextOptions{Query: "anything", Budget: 100, Now: t0})
	if err != nil || got != b {
		t.Errorf("empty store Context = %+v, %v; want %+v", got, err, b)
	}
	if _, err := EmptyContext(ContextOptions{Budget: 3}); !errors.Is(err, ErrBudget) {
		t.Errorf("EmptyContext(budget 3) = %v, want ErrBudget", err)
	}
}

func TestExplainContext(t *testing.T) {
	s := openTemp(t)
	remember(t, s, t0, "Fernweh production runs in eu-west-1 with three nodes")
	remember(t, s, t0.Add(time.Hour), "Fernweh production runs in eu-central-1 with three nodes")
	remember(t, s, t0.Add(2*time.Hour), "The Fernweh production database is Postgres 16 on a managed instance with nightly backups to a second region")
	remember(t, s, t0.Add(3*time.Hour), "Tomasz owns the Fernweh newsletter")
	remember(t, s, t0.Add(4*time.Hour), "Kestrel runs nightly builds")
	opt := ContextOptions{Query: "which region do Fernweh production nodes run in", Budget: 55, Now: t0.Add(5 * time.Hour)}
	blk, cands, err := s.ExplainContext(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := s.Context(context.Background(), opt)
	if err != nil || plain != blk {
		t.Errorf("Context = %+v, %v; ExplainContext's block %+v", plain, err, blk)
	}
	why := map[string]string{}
	for _, c := range cands {
		if c.Included != (c.Reason == "") || c.Tokens <= 0 {
			t.Errorf("candidate %+v", c)
		}
		if c.Included != strings.Contains(blk.Markdown, c.Text) {
			t.Errorf("candidate %q included %v, block:\n%s", c.Text, c.Included, blk.Markdown)
		}
		why[c.Text] = c.Reason
	}
	want := map[string]string{
		"Fernweh production runs in eu-central-1 with three nodes":                                                     "",
		"Fernweh production runs in eu-west-1 with three nodes":                                                        ReasonRestated,
		"The Fernweh production database is Postgres 16 on a managed instance with nightly backups to a second region": ReasonBudget,
		"Tomasz owns the Fernweh newsletter":                                                                           ReasonFloor,
		"Kestrel runs nightly builds":                                                                                  ReasonFloor,
	}
	for text, reason := range want {
		if got, ok := why[text]; !ok || got != reason {
			t.Errorf("%q: reason %q (listed %v), want %q", text, got, ok, reason)
		}
	}
	// Left out as relevant is only the claim the budget kept out: the restated one and those below the floor
	// are not relevant, and neither are further matches, which rank below the floor.
	if blk.Included != 1 || blk.LeftOut != 1 || !strings.HasSuffix(blk.Markdown, "_1 more relevant claim left out_\n") {
		t.Errorf("block includes %d and leaves out %d of %d candidates:\n%s", blk.Included, blk.LeftOut, len(cands), blk.Markdown)
	}
	// With every candidate below the floor, the block says nothing relevant is stored, whatever the budget.
	for _, budget := range []int{40, 1500} {
		opt = ContextOptions{Query: "payments deployment region of Tomasz", Budget: budget, Now: t0.Add(5 * time.Hour)}
		blk, cands, err = s.ExplainContext(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cands {
			if c.Reason != ReasonFloor && c.Reason != ReasonRestated {
				t.Fatalf("candidate %q: reason %q, want the query to match below the floor only", c.Text, c.Reason)
			}
		}
		if len(cands) == 0 || blk.Included != 0 || blk.LeftOut != 0 || !strings.HasSuffix(blk.Markdown, nothingRelevant) {
			t.Errorf("budget %d: block of %d candidates includes %d, leaves out %d:\n%s", budget, len(cands), blk.Included, blk.LeftOut, blk.Markdown)
		}
	}
}

// TestExplainContextFilters: what the block leaves out because of stored state is explained with that state:
// a claim a stored supersession replaced is "superseded" (and names its successor), a claim of a flagged
// artifact is "flagged" and listed without its text. With History and AllowFlagged both go in.
func TestExplainContextFilters(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	old := remember(t, s, t0, "Sessions live in Redis on the cache cluster")
	oldID, err := column[int64](ctx, s.db, `SELECT id FROM claims`)
	if err != nil || len(oldID) != 1 {
		t.Fatalf("claims %v, %v (%+v)", oldID, err, old)
	}
	a, c := note("s1", "t1", "Sessions live in Memcached on the cache cluster")
	nw, err := s.ApplyWith(ctx, a, c, t0.Add(time.Hour), ApplyOptions{Supersede: SupersedeIDs, IDs: oldID})
	if err != nil || len(nw.Superseded) != 1 {
		t.Fatalf("ApplyWith = %+v, %v", nw, err)
	}
	secret := "Session signing key for the cache cluster is s3cr3t-v4lue"
	a, c = note("s1", "t1", secret)
	a.Flagged = true
	if _, err := s.Apply(ctx, a, c, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	opt := ContextOptions{Query: "sessions cache cluster", Budget: 500, Now: t0.Add(3 * time.Hour)}
	blk, cands, err := s.ExplainContext(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	if plain, err := s.Context(ctx, opt); err != nil || plain != blk {
		t.Errorf("Context = %+v, %v; ExplainContext's block %+v", plain, err, blk)
	}
	if blk.Included != 1 || blk.Flagged != 1 || strings.Contains(blk.Markdown, "Redis") || strings.Contains(blk.Markdown, "s3cr3t") {
		t.Errorf("block %+v", blk)
	}
	var reasons []string
	for _, cd := range cands {
		reasons = append(reasons, cd.Reason)
		switch cd.Reason {
		case ReasonSuperseded:
			if cd.ClaimID != oldID[0] || cd.SupersededBy != nw.Superseded[0].New || cd.Included {
				t.Errorf("superseded candidate %+v", cd)
			}
		case ReasonFlagged:
			if cd.Text != "" || !cd.Flagged || cd.Included {
				t.Errorf("flagged candidate %+v: want no text", cd)
			}
		case "":
			if cd.Text != "Sessions live in Memcached on the cache cluster" {
				t.Errorf("included %+v", cd)
			}
		default:
			t.Errorf("candidate %+v", cd)
		}
	}
	slices.Sort(reasons)
	if want := []string{"", ReasonFlagged, ReasonSuperseded}; !slices.Equal(reasons, want) {
		t.Errorf("reasons %q, want %q", reasons, want)
	}

	opt.History, opt.AllowFlagged = true, true
	blk, cands, err = s.ExplainContext(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	if blk.Included != 3 || blk.Flagged != 0 || len(cands) != 3 || !strings.Contains(blk.Markdown, "Redis on the cache cluster (fact, 3h ago, ") ||
		!strings.Contains(blk.Markdown, ", superseded)") {
		t.Errorf("with history and flagged allowed: %+v, %d candidates", blk, len(cands))
	}
}
