package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/memoree/memoree/compiler"
	"time"
)

func TestRecallMatching(t *testing.T) {
	s := openTemp(t)
	remember(t, s, t0,
		"The staging cluster deploys from the release branch",
		"José Álvarez owns the billing service",
		"The user_id column is a UUID",
		"Backups run nightly at 02:00 UTC",
		"The frontend uses React 18",
		"The live blog's refreshIntervalSec is 20",
		"Staging keeps maxConnPool at 40",
		"Søren Madsen runs the on-call rotation",
		"Elif Yıldız reviews the release notes",
		"The billing DB moved to us-east-2",
		"Invoices go out on the 3rd of each month since Feb",
	)
	tests := []struct {
		query string
		want  string // first claim
		pres  Presence
	}{
		// Words a note writes together as one camelCase identifier, asked apart.
		{"refresh interval sec", "The live blog's refreshIntervalSec is 20", PresenceClaim},
		{"max conn pool staging", "Staging keeps maxConnPool at 40", PresenceClaim},
		{"maxConnPool", "Staging keeps maxConnPool at 40", PresenceClaim},
		{"deploying", "The staging cluster deploys from the release branch", PresenceClaim},
		{"deployed", "The staging cluster deploys from the release branch", PresenceClaim},
		{"deploy", "The staging cluster deploys from the release branch", PresenceClaim},
		{"Jose", "José Álvarez owns the billing service", PresenceClaim},
		{"ALVAREZ billing", "José Álvarez owns the billing service", PresenceClaim},
		{"user id", "The user_id column is a UUID", PresenceClaim},
		{"user_id", "The user_id column is a UUID", PresenceClaim},
		{"userid column", "The user_id column is a UUID", PresenceNone},
		{"when do backups run", "Backups run nightly at 02:00 UTC", PresenceClaim},
		{"backup", "Backups run nightly at 02:00 UTC", PresenceClaim},
		{"react vue angular", "The frontend uses React 18", PresenceNone},
		// Letters the index does not fold, typed as their base letter in a name.
		{"Soren on-call", "Søren Madsen runs the on-call rotation", PresenceClaim},
		{"who is soren", "Søren Madsen runs the on-call rotation", PresenceClaim}, // a name typed in lower case
		{"who reviews for Yildiz", "Elif Yıldız reviews the release notes", PresenceClaim},
		// A full word asked of its abbreviation, and the other way round.
		{"where is the billing database", "The billing DB moved to us-east-2", PresenceClaim},
		{"February invoices", "Invoices go out on the 3rd of each month since Feb", PresenceClaim},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r, err := s.Recall(context.Background(), tt.query, 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Claims) == 0 || r.Claims[0].Text != tt.want {
				t.Fatalf("Recall(%q) = %q, want first %q", tt.query, texts(r.Claims), tt.want)
			}
			if r.Presence != tt.pres {
				t.Errorf("Recall(%q).Presence = %s, want %s", tt.query, r.Presence, tt.pres)
			}
		})
	}
}

func TestRecallAnyWord(t *testing.T) {
	s := openTemp(t)
	// Separate notes: a note holding all three would answer the query as an artifact.
	for _, l := range []string{"Postgres runs on port 5432", "Redis caches sessions", "Nginx terminates TLS"} {
		remember(t, s, t0, l)
	}
	r, err := s.Recall(context.Background(), "postgres redis kafka", 10)
	if err != nil {
		t.Fatal(err)
	}
	got := texts(r.Claims)
	slices.Sort(got)
	want := []string{"Postgres runs on port 5432", "Redis caches sessions"}
	if !slices.Equal(got, want) {
		t.Errorf("any-word recall = %q, want %q", got, want)
	}
	if r.HasMore {
		t.Error("HasMore with every hit returned")
	}
	r, err = s.Recall(context.Background(), "postgres redis nginx", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Claims) != 2 || !r.HasMore {
		t.Errorf("limit 2 of 3 hits: got %d claims, HasMore=%v", len(r.Claims), r.HasMore)
	}
}

func TestRecallNewerFirst(t *testing.T) {
	s := openTemp(t)
	// The newer claim is longer, so plain BM25 would rank the older one first.
	remember(t, s, t0, "The API listens on port 8080")
	remember(t, s, t0.Add(48*time.Hour), "The API listens on port 9090 since the proxy move")
	remember(t, s, t0.Add(24*time.Hour), "Unrelated: the docs live in the wiki")
	r, err := s.Recall(context.Background(), "api port", 5)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"The API listens on port 9090 since the proxy move", "The API listens on port 8080"}
	if got := texts(r.Claims); !slices.Equal(got, want) {
		t.Fatalf("Recall(api port) = %q, want %q", got, want)
	}
	if !r.Claims[0].Created.Equal(t0.Add(48 * time.Hour)) {
		t.Errorf("Created = %v, want %v", r.Claims[0].Created, t0.Add(48*time.Hour))
	}
	if r.Claims[0].Score <= 0 || r.Claims[1].Score <= 0 {
		t.Errorf("scores %v, %v: want positive (negated BM25)", r.Claims[0].Score, r.Claims[1].Score)
	}
}

func TestRecallPresence(t *testing.T) {
	s := openTemp(t)
	remember(t, s, t0, "The database is Postgres 16")
	// An artifact with text but no claim about the rotation.
	a := Artifact{Kind: "checkpoint", Source: "pending:ck-1", Session: "s2", Task: "t2",
		Text: []byte("Tried to rotate the vault password for the mailer; the rotation script failed.\n")}
	if _, err := s.Apply(context.Background(), a, nil, t0); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query     string
		pres      Presence
		claims    int
		artifacts int
	}{
		{"is the database postgres", PresenceClaim, 1, 0},
		{"postgres", PresenceClaim, 1, 0},
		{"rotate vault password", PresenceArtifact, 0, 1},
		{"how do we rotate the database password", PresenceArtifact, 1, 2},
		{"how do we shard the database", PresenceNone, 1, 0}, // "database" alone is incidental
		{"kubernetes ingress", PresenceNone, 0, 0},
		{"", PresenceNone, 0, 0},
		{"the", PresenceNone, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r, err := s.Recall(context.Background(), tt.query, 5)
			if err != nil {
				t.Fatal(err)
			}
			if r.Presence != tt.pres || len(r.Claims) != tt.claims || len(r.Artifacts) != tt.artifacts {
				t.Fatalf("Recall(%q) = presence %s, %d claims %q, %d artifacts; want %s, %d, %d",
					tt.query, r.Presence, len(r.Claims), texts(r.Claims), len(r.Artifacts), tt.pres, tt.claims, tt.artifacts)
			}
			if tt.artifacts > 0 {
				if h := r.Artifacts[0]; h.Session != "s2" || h.Kind != "checkpoint" || h.Snippet == "" {
					t.Errorf("artifact hit %+v", h)
				}
			}
		})
	}
}

// TestAnswersOnly checks that ranking artifacts for an answer only skips exactly the queries that no artifact
// answers: whenever it returns nothing, no row of the full ranking reaches the floor either. Otherwise it
// returns the same rows, each scored by its coverage of the query, best first, then newest first.
func TestAnswersOnly(t *testing.T) {
	s := openTemp(t)
	for i, lines := range [][]string{
		{"Alpha ships the beta build", "Gamma reviews it"},
		{"Delta owns the epsilon service"},
		{"Alpha and delta meet on Fridays", "Zeta is retired"},
		{"The beta build is green"},
	} {
		remember(t, s, t0.Add(time.Duration(i)*time.Minute), lines...)
	}
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "kappa", "the", "build"}
	var queries []string
	for i, a := range words {
		queries = append(queries, a)
		for _, b := range words[i+1:] {
			queries = append(queries, a+" "+b, a+" "+b+" kappa")
		}
	}
	skipped, answered := 0, 0
	for _, text := range queries {
		q := parseQuery(text)
		answers := func(h hit) bool { return q.coverage(h.cover) >= artifactFloor }
		full, _, err := s.rank(context.Background(), artifactIndex, &q, 10, allRows)
		if err != nil {
			t.Fatal(err)
		}
		only, _, err := s.rank(context.Background(), artifactIndex, &q, 10, answersOnly)
		if err != nil {
			t.Fatal(err)
		}
		if len(only) == 0 {
			skipped++
			if slices.ContainsFunc(full, answers) {
				t.Errorf("%q: answersOnly found nothing, but an artifact answers", text)
			}
			continue
		}
		answered++
		ids := func(hs []hit) []int64 {
			out := make([]int64, len(hs))
			for i, h := range hs {
				out[i] = h.id
			}
			slices.Sort(out)
			return out
		}
		if !slices.Equal(ids(only), ids(full)) {
			t.Errorf("%q: answersOnly returned rows %v, the full ranking %v", text, ids(only), ids(full))
		}
		for i, h := range only {
			if h.score != q.coverage(h.cover) {
				t.Errorf("%q: row %d scored %v, but it covers %v of the query", text, h.id, h.score, q.coverage(h.cover))
			}
			if i == 0 {
				continue
			}
			p := only[i-1]
			if p.score < h.score || p.score == h.score && p.id < h.id {
				t.Errorf("%q: row %d (score %v) ranks after row %d (score %v)", text, h.id, h.score, p.id, p.score)
			}
		}
	}
	if skipped == 0 || answered == 0 {
		t.Errorf("of %d queries, %d skipped and %d answered: the test covers only one side", len(queries), skipped, answered)
	}
}

// TestScoreNewestMatchesFTS checks the scoring that replaces a second full-text statement: for rare words,
// common words (more rows than matchingRows reads) and mixes, scoreNewest returns the rows and scores that
// FTS5 returns for the OR of the words, newest limit rows, to the last bit.
func TestScoreNewestMatchesFTS(t *testing.T) {
	s := openTemp(t)
	// 1,500 claims: "common" and "frequent" in most of them (more than commonDF), the others in a few.
	var batches []Batch
	for n := 0; n < 1500; n += 100 {
		var lines []string
		for i := n; i < n+100; i++ {
			l := fmt.Sprintf("Claim %d notes", i)
			if i%10 != 0 {
				l += " common"
			}
			if i%4 != 0 {
				l += " frequent frequent"
			}
			if i%97 == 0 {
				l += " rare"
			}
			if i%89 == 0 {
				l += " scarce scarce"
			}
			lines = append(lines, l)
		}
		a, c := note("s", "t", lines...)
		batches = append(batches, Batch{Artifact: a, Claims: c})
	}
	if _, err := s.ApplyBatch(context.Background(), batches, t0); err != nil {
		t.Fatal(err)
	}
	for _, words := range [][]string{
		{"rare"}, {"rare", "scarce"}, {"scarce", "rare"}, {"common"}, {"common", "frequent"}, {"frequent", "common"},
		{"rare", "common"}, {"notes", "scarce"}, {"absent"}, {"rare", "absent", "scarce"},
	} {
		q := parseQuery(strings.Join(words, " "))
		perWord, err := s.matchingRows(context.Background(), claimIndex, &q, commonDF+1, allRows)
		if err != nil {
			t.Fatal(err)
		}
		tier := make([]int, len(words))
		for i := range tier {
			tier[i] = i
		}
		got := scoreNewest(perWord, tier, candidateCap)
		rows, err := s.db.Query(`SELECT rowid, -bm25(claims_fts) FROM claims_fts WHERE claims_fts MATCH ?
			ORDER BY rowid DESC LIMIT ?`, matchExpr(q.terms), candidateCap)
		if err != nil {
			t.Fatal(err)
		}
		var want []hit
		for rows.Next() {
			var h hit
			if err := rows.Scan(&h.id, &h.score); err != nil {
				t.Fatal(err)
			}
			want = append(want, h)
		}
		rows.Close()
		if len(got) != len(want) {
			t.Fatalf("%q: %d rows, FTS5 returns %d", words, len(got), len(want))
		}
		for i := range want {
			if got[i].id != want[i].id || got[i].bm25 != want[i].score {
				t.Fatalf("%q: row %d is %d scored %v, FTS5 says %d scored %v", words, i, got[i].id, got[i].bm25,
					want[i].id, want[i].score)
			}
		}
		if len(want) == 0 && words[0] != "absent" {
			t.Errorf("%q: nothing matched; the store is not what the test means", words)
		}
	}
}

// TestAnswersOnlyCountsEveryTier checks that an artifact's score in answersOnly is its coverage of the query
// when one of the words is common: candidates are chosen a tier at a time, but counted across both.
func TestAnswersOnlyCountsEveryTier(t *testing.T) {
	s := openTemp(t)
	var batches []Batch
	for i := 0; i <= commonDF; i++ {
		a, c := note("s", "t", fmt.Sprintf("Walrus sighting %d on the shore", i))
		batches = append(batches, Batch{Artifact: a, Claims: c})
	}
	if _, err := s.ApplyBatch(context.Background(), batches, t0); err != nil {
		t.Fatal(err)
	}
	remember(t, s, t0.Add(time.Minute), "The walrus met a narwhal once")
	remember(t, s, t0.Add(2*time.Minute), "A narwhal swam by alone")
	q := parseQuery("walrus narwhal")
	hits, _, err := s.rank(context.Background(), artifactIndex, &q, 10, answersOnly)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) < 2 || hits[0].score != 1 || hits[1].score != 0.5 {
		var got []float64
		for _, h := range hits {
			got = append(got, h.score)
		}
		t.Fatalf("scores %v, want the answering artifact first with 1, then halves", got)
	}
}

// rememberCompiled applies text at time at the way memoree remember --apply does: compiled by the current
// compiler, context and all.
func rememberCompiled(t *testing.T, s *Store, at time.Time, text string) ApplyResult {
	t.Helper()
	r := compiler.Rules.Compile(text, compiler.Source{Kind: "note"})
	res, err := s.Apply(context.Background(), Artifact{Kind: "note", Source: "remember", Text: []byte(text)}, ClaimsOf(r), at)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRecallRanking covers the failure classes of the answer tiers: context the claim text lacks, content-free
// claims that share a name, possessives, old facts above their updates, and incidental matches counted as
// answers.
func TestRecallRanking(t *testing.T) {
	s := openTemp(t)
	rememberCompiled(t, s, t0, "#random, week 10\n\nPriya (3 March 2026): We adopted a beagle last week! His name is Biscuit.\n"+
		"Tomasz (3 March 2026): Sounds good, Priya, go ahead with the photos.\n"+
		"Mateo (4 March 2026): Priya, the standup moves to ten tomorrow.\n")
	rememberCompiled(t, s, t0.Add(time.Hour), "Ops note, 2 March: Fernweh production runs in eu-west-1 (Ireland), with three nodes.\n")
	rememberCompiled(t, s, t0.Add(48*time.Hour), "Ops note, 20 March: the region migration is done; Fernweh production now runs in eu-central-1 (Frankfurt), with three nodes.\n")
	rememberCompiled(t, s, t0.Add(72*time.Hour), "## Ledger reconciliation\n\n- runs nightly at 02:00 UTC\n- mismatches under one euro are written off\n")
	tests := []recallCase{
		{"what did Priya adopt", "We adopted a beagle last week!", PresenceClaim},
		{"Priya's beagle", "We adopted a beagle last week!", PresenceClaim},
		// "dog" is stored nowhere: the user's own word, which weighs a little more than one the store holds
		// but not more than the name and the person together, which answer.
		{"what is the name of Priya's dog", "His name is Biscuit.", PresenceClaim},
		{"which region does Fernweh production run in", "Fernweh production now runs in eu-central-1", PresenceClaim},
		{"Fernweh production nodes", "Fernweh production now runs in eu-central-1", PresenceClaim},
		{"when does ledger reconciliation run", "runs nightly at 02:00 UTC", PresenceClaim},
		{"What is Priya's favourite film?", "", PresenceNone},
		{"How much does the Fernweh cluster cost per month?", "", PresenceNone},
	}
	checkRecall(t, s, tests)
	r, err := s.Recall(context.Background(), "Priya beagle", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Claims) == 0 || r.Claims[0].Context != "#random, week 10 > Priya (3 March 2026)" {
		t.Errorf("first claim %+v: want the speaker's context", r.Claims)
	}
}

// TestRecallAskedContact: a question for an email address, a phone number or a URL is answered by a claim
// that states one. A newer claim about the same person that states none does not move ahead of it, and
// where no claim states one, presence is none however much of the question the claims hold.
func TestRecallAskedContact(t *testing.T) {
	s := openTemp(t)
	rememberCompiled(t, s, t0, "Supplier contacts: from 1 March Katrin Vogel is our account manager at Schliesswerk (k.vogel@schliesswerk.example, +49 40 555 0192).\n")
	rememberCompiled(t, s, t0.Add(24*time.Hour), "Supplier contacts: Katrin Vogel is our account manager at Schliesswerk now, and she confirmed the delivery.\n")
	rememberCompiled(t, s, t0.Add(48*time.Hour), "Marcus Webb at Harvest Table is our catering account manager; he prefers calls to email.\n")
	tests := []recallCase{
		{"What is Katrin Vogel's email address?", "from 1 March Katrin Vogel", PresenceClaim},
		{"Katrin Vogel phone number", "from 1 March Katrin Vogel", PresenceClaim},
		{"What is Marcus Webb's phone number?", "", PresenceNone},
		{"What is Marcus Webb's email address?", "", PresenceNone},
	}
	checkRecall(t, s, tests)
}

// TestQueryPast checks which questions count as asked in the past tense, which keeps newer claims from
// moving ahead (see updatesFirst).
func TestRecencySignal(t *testing.T) {
	const day = int64(24 * time.Hour)
	now := parseQuery("which port does the API listen on")
	past := parseQuery("which port did the API listen on")
	tests := []struct {
		name     string
		q        *query
		created  int64
		coverage float64
		want     float64
	}{
		{"newest, holds the whole query", &now, 10 * day, 1, 1},
		{"oldest, holds the whole query", &now, 0, 1, 0},
		{"halfway, holds the whole query", &now, 5 * day, 1, 0.5},
		{"newest, holds half the query", &now, 10 * day, 0.5, 0.125},
		{"newest, holds nothing of it", &now, 10 * day, 0, 0},
		{"newest, a question in the past tense", &past, 10 * day, 1, 0},
	}
	for _, tt := range tests {
		h := hit{created: tt.created, coverage: tt.coverage}
		if got := recencySignal(tt.q, &h, 0, 10*day); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	h := hit{created: day, coverage: 1}
	if got := recencySignal(&now, &h, day, day); got != 0 {
		t.Errorf("candidates all of one time: %v, want 0", got)
	}
}

func TestQueryPast(t *testing.T) {
	tests := []struct {
		query string
		past  bool
	}{
		{"where did Zoë adopt Toffee?", true},
		{"what was the ledger's old version", true},
		{"Who asked Zoë whether she is a vet?", true},
		{"what caused the ledger to stop accepting writes?", true},
		{"who approved HOP-431 and when?", true},
		{"where does José work now?", false},
		{"what breed is Pixel?", false},    // -ed, but no verb in the past
		{"what need does it meet?", false}, // likewise
		{"which ledger version is deployed", false},
		{"deployed ledger version", false},
	}
	for _, tt := range tests {
		if got := parseQuery(tt.query).past; got != tt.past {
			t.Errorf("%q: past %v, want %v", tt.query, got, tt.past)
		}
	}
}

// recallCase is a query, the text its first claim starts with ("" for any) and its presence.
type recallCase struct {
	query, first string
	presence     Presence
}

// checkRecall runs each case's query on s and checks its presence, first claim, and confidences.
func checkRecall(t *testing.T, s *Store, tests []recallCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r, err := s.Recall(context.Background(), tt.query, 5)
			if err != nil {
				t.Fatal(err)
			}
			if r.Presence != tt.presence {
				t.Errorf("presence %s (confidence %.2f), want %s: %q", r.Presence, r.Confidence, tt.presence, texts(r.Claims))
			}
			if r.Confidence < 0 || r.Confidence > 1 {
				t.Errorf("confidence %v outside 0-1", r.Confidence)
			}
			if tt.first != "" && (len(r.Claims) == 0 || !strings.HasPrefix(r.Claims[0].Text, tt.first)) {
				t.Errorf("claims %q, want %q first", texts(r.Claims), tt.first)
			}
			for _, c := range r.Claims {
				if c.Confidence < 0 || c.Confidence > 1 || len(c.ScoreParts()) != len(SignalNames()) {
					t.Errorf("claim %q: confidence %v, score parts %v", c.Text, c.Confidence, c.ScoreParts())
				}
			}
		})
	}
}
