package recall

import (
	"context"
	"slices"
	"testing"
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
	)
	tests := []struct {
		query string
		want  string // first claim
		pres  Presence
	}{
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
// answers: whenever it returns nothing, the full ranking's best row does not answer either, and otherwise the
// two agree row for row.
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
		full, _, err := s.rank(context.Background(), artifactIndex, q, 10, allRows)
		if err != nil {
			t.Fatal(err)
		}
		only, _, err := s.rank(context.Background(), artifactIndex, q, 10, answersOnly)
		if err != nil {
			t.Fatal(err)
		}
		if len(only) == 0 {
			skipped++
			if len(full) > 0 && q.answers(full[0]) {
				t.Errorf("%q: answersOnly found nothing, but the best artifact answers", text)
			}
			continue
		}
		answered++
		if !slices.EqualFunc(only, full, func(a, b hit) bool { return a.id == b.id && a.score == b.score }) {
			t.Errorf("%q: answersOnly ranked %v, the full ranking %v", text, only, full)
		}
	}
	if skipped == 0 || answered == 0 {
		t.Errorf("of %d queries, %d skipped and %d answered: the test covers only one side", len(queries), skipped, answered)
	}
}
