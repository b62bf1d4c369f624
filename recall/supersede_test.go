package recall

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestSupersedesRule(t *testing.T) {
	for _, tc := range []struct {
		new, old string
		want     bool
	}{
		// The same statement with another value: listed.
		{"The deploy region is eu-west-1", "The deploy region is us-east-1", true},
		{"Go 1.23 is required", "Go 1.22 is required", true},
		{"Timeout is 60s", "Timeout is 30s", true},
		{"The API rate limit is 200 requests per minute", "The API rate limit is 100 requests per minute", true},
		{"Bob owns the billing service", "Alice owns the billing service", true},
		{"Backups run weekly on Sunday", "Backups run nightly at 2am", true},
		{"I prefer short answers", "I prefer detailed answers", true},
		{"Use Postgres for the job queue", "Use Redis for the job queue", true},
		{"Session tokens expire after 1 hour", "Session tokens expire after 24 hours", true},
		{"sessions now live in Memcached", "Sessions live in Redis", true},
		{"VetDesk is now on 4.3.0.", "VetDesk on 4.3.2", true},
		{"Config in `/etc/app/app.conf`", "Config under `/srv/app/app.conf`", true},
		{"Grace period: `grace_days: 14`", "Grace period: `grace_days: 7`", true},
		// Precise rather than eager, since apply supersedes what is listed and a superseded claim drops
		// out of recall: another aspect of one subject, a change in other words, or shared lead words
		// only, are not listed (ranking puts the newer first; a reviewer supersedes by hand).
		{"Sessions expire after 30 minutes", "Sessions live in Redis", false},
		{"Sessions moved to Memcached", "Sessions live in Redis", false},
		{"Decided to use SQLite", "Decided to use Postgres", false},
		// Short claims that share a name and change as many words as they share, or a value only.
		{"clinical director, Harbour Road.", "dental cases Harbour Road", false},
		{"Due 12 June.", "3 June.", false},
		{"I love him already.", "I love her.", false},
		// One that adds detail to the other says the same.
		{"Works for Harbour Road.", "Harbour Road", false},
		{"Priya starts maternity leave on 29 May", "Priya on leave from 29 May.", false},
		{"reception", "All receptions until about 08:40.", false},
		// Different subjects: not listed.
		{"The build uses Bazel", "Sessions live in Redis", false},
		{"Use pnpm for installs", "Use tabs in Makefiles", false},
		{"Alice owns billing", "Bob owns search", false},
		// One value stated of two subjects: what changed holds no value or name, what stays does.
		{"The production cluster runs in region us-east-1.", "The staging cluster runs in region us-east-1.", false},
		{"Max upload size for videos is 10MB.", "Max upload size for images is 10MB.", false},
		{"The search service is owned by Alice.", "The billing service is owned by Alice.", false},
		{"Search runs on Postgres 15", "Payments runs on Postgres 15", false},
		// ... while a changed value or name of one subject is still listed.
		{"The staging cluster runs in region eu-west-2.", "The staging cluster runs in region us-east-1.", true},
		{"The billing service is owned by Bob.", "The billing service is owned by Alice.", true},
		{"The cache is disabled in staging", "The cache is enabled in staging", true},
		{"The database is Postgres", "The API speaks JSON", false},
		{"Always run gofmt", "Never push to main", false},
		// The same statement, or no words to compare: not listed.
		{"Sessions live in Redis", "Sessions live in Redis", false},
		{"Sessions live in Redis.", "sessions LIVE in redis", false},
		{"...", "Sessions live in Redis", false},
		{"Sessions live in Redis", "", false},
	} {
		if got := Supersedes(tc.new, tc.old); got != tc.want {
			t.Errorf("Supersedes(%q, %q) = %v, want %v", tc.new, tc.old, got, tc.want)
		}
		if got := Supersedes(tc.old, tc.new); got != tc.want {
			t.Errorf("not symmetric: Supersedes(%q, %q) = %v", tc.old, tc.new, got)
		}
	}
}

// apply applies a note of lines with opt.
func applyWith(t *testing.T, s *Store, opt ApplyOptions, lines ...string) ApplyResult {
	t.Helper()
	a, c := note("s1", "t1", lines...)
	r, err := s.ApplyWith(context.Background(), a, c, t0, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func claimID(t *testing.T, s *Store, text string) int64 {
	t.Helper()
	var id int64
	if err := s.db.QueryRow(`SELECT id FROM claims WHERE text = ?`, text).Scan(&id); err != nil {
		t.Fatalf("claim %q: %v", text, err)
	}
	return id
}

func TestApplySupersedes(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	applyWith(t, s, ApplyOptions{}, "Sessions live in Redis", "The build uses Bazel")
	redis := claimID(t, s, "Sessions live in Redis")

	// Preview lists what apply will supersede.
	_, claims := note("s1", "t1", "Sessions live in Memcached", "Docs live in the wiki")
	cands, err := s.Candidates(ctx, claims)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 2 || len(cands[0]) != 1 || cands[0][0].ClaimID != redis || cands[0][0].Artifact == "" || cands[0][0].Flagged ||
		len(cands[1]) != 0 {
		t.Fatalf("candidates %+v", cands)
	}
	before := counts(t, s)
	r := applyWith(t, s, ApplyOptions{Supersede: SupersedeListed}, "Sessions live in Memcached", "Docs live in the wiki")
	mem := claimID(t, s, "Sessions live in Memcached")
	if len(r.Superseded) != 1 || r.Superseded[0] != (Supersession{Old: redis, New: mem}) {
		t.Fatalf("superseded %+v", r.Superseded)
	}
	got, err := s.Recall(ctx, "sessions redis memcached", 10)
	if err != nil {
		t.Fatal(err)
	}
	if texts := texts(got.Claims); len(texts) != 1 || texts[0] != "Sessions live in Memcached" {
		t.Fatalf("recall shows %q, want only the new claim", texts)
	}
	hist, err := s.RecallWith(ctx, "sessions redis memcached", RecallOptions{History: true})
	if err != nil {
		t.Fatal(err)
	}
	var by int64
	for _, c := range hist.Claims {
		if c.ID == redis {
			by = c.SupersededBy
		}
	}
	if by != mem {
		t.Fatalf("history: superseded_by %d, want %d (%+v)", by, mem, hist.Claims)
	}
	blk, err := s.Context(ctx, ContextOptions{Budget: 500, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(blk.Markdown, "Redis") {
		t.Fatalf("context serves the superseded claim:\n%s", blk.Markdown)
	}
	blk, _ = s.Context(ctx, ContextOptions{Query: "sessions", Budget: 500, Now: t0})
	if strings.Contains(blk.Markdown, "Redis") || !strings.Contains(blk.Markdown, "Memcached") {
		t.Fatalf("context for a query:\n%s", blk.Markdown)
	}
	blk, _ = s.Context(ctx, ContextOptions{Query: "sessions", Budget: 500, Now: t0, History: true})
	if !strings.Contains(blk.Markdown, "Redis (fact, ") || !strings.Contains(blk.Markdown, ", superseded)") || blk.Included != 2 {
		t.Fatalf("context with history:\n%s", blk.Markdown)
	}

	// Undo of the apply removes what it added and lifts its supersession.
	u, err := s.Undo(ctx)
	if err != nil || u.Op != opApply || u.Lifted != 1 {
		t.Fatalf("undo %+v, %v", u, err)
	}
	if after := counts(t, s); after != before {
		t.Fatalf("after undo %s, want %s", after, before)
	}
	if got, _ := s.Recall(ctx, "redis", 10); len(got.Claims) != 1 {
		t.Fatal("undo did not make the old claim current")
	}
	// Redo brings the apply back, supersession included, with the same ids.
	if _, err := s.Redo(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Recall(ctx, "redis", 10); len(got.Claims) != 0 {
		t.Fatal("redo did not supersede again")
	}
	if claimID(t, s, "Sessions live in Memcached") != mem {
		t.Fatal("redo changed the claim id")
	}
	// Stating the old claim again makes it current and supersedes the one that replaced it.
	r = applyWith(t, s, ApplyOptions{Supersede: SupersedeListed}, "Sessions live in Redis")
	if len(r.Revived) != 1 || r.Revived[0] != redis || len(r.Superseded) != 1 || r.Superseded[0].Old != mem {
		t.Fatalf("restated: %+v", r)
	}
}

func TestApplyKeepOldAndExplicit(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	applyWith(t, s, ApplyOptions{}, "Sessions live in Redis", "The build uses Bazel")
	bazel := claimID(t, s, "The build uses Bazel")
	r := applyWith(t, s, ApplyOptions{Supersede: SupersedeNone}, "Sessions live in Memcached")
	if len(r.Superseded) != 0 {
		t.Fatalf("keep-old superseded %+v", r.Superseded)
	}
	if got, _ := s.Recall(ctx, "sessions", 10); len(got.Claims) != 2 {
		t.Fatalf("keep-old: %q", texts(got.Claims))
	}
	r = applyWith(t, s, ApplyOptions{Supersede: SupersedeIDs, IDs: []int64{bazel}}, "The build moved to Make")
	if len(r.Superseded) != 1 || r.Superseded[0].Old != bazel {
		t.Fatalf("explicit: %+v", r.Superseded)
	}
	a, c := note("s1", "t1", "Something else entirely")
	for _, tc := range []struct {
		ids  []int64
		want error
	}{{[]int64{999}, ErrNoClaim}, {[]int64{bazel}, ErrSuperseded}} {
		before := counts(t, s)
		_, err := s.ApplyWith(ctx, a, c, t0, ApplyOptions{Supersede: SupersedeIDs, IDs: tc.ids})
		if !errors.Is(err, tc.want) {
			t.Errorf("ids %v: %v, want %v", tc.ids, err, tc.want)
		}
		if after := counts(t, s); after != before {
			t.Errorf("failed apply changed the store")
		}
	}
	// By hand, as its own operation, undoable.
	redis := claimID(t, s, "Sessions live in Redis")
	mem := claimID(t, s, "Sessions live in Memcached")
	if _, err := s.Supersede(ctx, redis, mem, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Supersede(ctx, redis, mem, t0); !errors.Is(err, ErrSuperseded) {
		t.Fatalf("twice: %v", err)
	}
	if u, err := s.Undo(ctx); err != nil || u.Op != opSupersede {
		t.Fatalf("undo %+v %v", u, err)
	}
	if got, _ := s.Recall(ctx, "redis", 10); len(got.Claims) != 1 {
		t.Fatal("undo of supersede")
	}
}

// FuzzSupersedes checks that the rule is deterministic and symmetric, and that no statement supersedes itself.
func FuzzSupersedes(f *testing.F) {
	f.Add("Sessions live in Redis", "Sessions live in Memcached")
	f.Add("Use pnpm", "Use tabs")
	f.Add("Timeout is 30s", "timeout IS 30s.")
	f.Fuzz(func(t *testing.T, a, b string) {
		ab := Supersedes(a, b)
		if ab != Supersedes(b, a) || ab != Supersedes(a, b) {
			t.Fatalf("Supersedes(%q, %q) is not symmetric or not deterministic", a, b)
		}
		if Supersedes(a, a) {
			t.Fatalf("%q supersedes itself", a)
		}
	})
}

// TestCandidatesSearchText: candidates are searched by claim text. Newer claims whose context alone shares
// the subject (claims under a "Sessions" heading) must not crowd the stored claim out of the search.
func TestCandidatesSearchText(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	remember(t, s, t0, "Sessions live in Redis")
	var b strings.Builder
	b.WriteString("Sessions notes\n")
	var claims []ClaimInput
	for i := range candidateSearch + 1 {
		line := fmt.Sprintf("Filler claim number %d", i)
		start := b.Len()
		b.WriteString(line + "\n")
		claims = append(claims, ClaimInput{Key: "k:" + line, Text: line, Kind: "fact", Compiler: "test/1",
			Context: "Sessions notes", Spans: []Span{{start, start + len(line)}}})
	}
	if _, err := s.Apply(ctx, Artifact{Kind: "note", Source: "remember", Text: []byte(b.String())}, claims, t0.Add(1)); err != nil {
		t.Fatal(err)
	}
	_, c := note("s1", "t1", "Sessions live in Memcached")
	got, err := s.Candidates(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(got[0]) != 1 || got[0][0].Text != "Sessions live in Redis" {
		t.Errorf("candidates %+v, want the Redis claim", got[0])
	}
}

// TestCandidateProvenance: a candidate names the newest artifact that holds evidence for it and whether any
// of its artifacts is flagged, the same for every new claim that lists it.
func TestCandidateProvenance(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	remember(t, s, t0, "Sessions live in Redis", "The build uses Bazel")
	newer := remember(t, s, t0.Add(time.Hour), "Sessions live in Redis", "Docs live in the wiki")
	_, claims := note("s2", "t2", "Sessions live in Memcached", "Sessions now live in Valkey")
	cands, err := s.Candidates(ctx, claims)
	if err != nil {
		t.Fatal(err)
	}
	redis := claimID(t, s, "Sessions live in Redis")
	for i, list := range cands {
		if len(list) != 1 || list[0].ClaimID != redis || list[0].Artifact != newer.Artifact || list[0].Flagged {
			t.Fatalf("candidates of %q = %+v; want claim %d from artifact %s, not flagged", claims[i].Text, list, redis, newer.Artifact[:12])
		}
	}
	// An older, flagged artifact that states it flags it, and leaves the newest artifact as it was.
	a, c := note("s3", "t3", "Sessions live in Redis")
	a.Flagged = true
	if _, err := s.Apply(ctx, a, c, t0.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	cands, err = s.Candidates(ctx, claims)
	if err != nil {
		t.Fatal(err)
	}
	for i, list := range cands {
		if len(list) != 1 || list[0].Artifact != newer.Artifact || !list[0].Flagged {
			t.Fatalf("candidates of %q = %+v; want artifact %s, flagged", claims[i].Text, list, newer.Artifact[:12])
		}
	}
}

// TestApplySupersedesWhatPreviewLists: with as many matching stored claims as the search reads, apply
// supersedes exactly what Candidates listed before it; the note's own claims never take a place in the
// search.
func TestApplySupersedesWhatPreviewLists(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	var lines []string
	for i := range candidateSearch {
		lines = append(lines, fmt.Sprintf("The nightly build timeout is %d minutes", i+1))
	}
	a, c := note("s1", "t1", lines...)
	if _, err := s.Apply(ctx, a, c, t0); err != nil {
		t.Fatal(err)
	}
	_, newClaims := note("s2", "t2", "The nightly build timeout is 999 minutes", "The nightly build timeout is 998 minutes")
	listed, err := s.Candidates(ctx, newClaims)
	if err != nil {
		t.Fatal(err)
	}
	if len(listed[0]) != candidateSearch {
		t.Fatalf("Candidates listed %d claims, want all %d", len(listed[0]), candidateSearch)
	}
	a2, c2 := note("s2", "t2", "The nightly build timeout is 999 minutes", "The nightly build timeout is 998 minutes")
	r, err := s.ApplyWith(ctx, a2, c2, t0.Add(time.Hour), ApplyOptions{Supersede: SupersedeListed})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]bool{}
	for _, list := range listed {
		for _, cd := range list {
			want[cd.ClaimID] = true
		}
	}
	got := map[int64]bool{}
	for _, sp := range r.Superseded {
		got[sp.Old] = true
	}
	if len(got) != len(want) {
		t.Errorf("apply superseded %d claims, Candidates listed %d", len(got), len(want))
	}
	for id := range want {
		if !got[id] {
			t.Errorf("listed claim %d was not superseded", id)
		}
	}
}
