package recall

import (
	"context"
	"testing"
	"time"

	"github.com/memoree/memoree/compiler"
)

func TestSpeakerLabel(t *testing.T) {
	tests := []struct {
		context string
		name    string
		dated   bool
	}{
		{"Rafa (14 December 2025)", "Rafa", true},
		{"Amélie (10 May 2026) > For the wedding", "Amélie", true},
		{"[10:14] Jonas", "Jonas", true},
		{"Mary Ann O'Neil (3 March)", "Mary Ann O'Neil", true},
		{"Lena (lead)", "Lena", false},
		{"[ops] Zoé", "Zoé", false},
		{"", "", false},
		{"Mary Ann", "Mary Ann", false},
		{"Marie de Vries (3 March)", "Marie de Vries", true},
		{"Open questions", "", false},
		{"Ines's handoff", "", false},
		{"FW-233", "", false},
		{"Runbook: reefwatch temperature alarm", "", false},
		{"the team (all hands)", "", false},
		{"Weekly digest week 11 (March)", "", false},
		{"Release 2.4 (12 May)", "", false},
		{"[10:14 Jonas", "", false},
		{"Priya 12 March 2026)", "", false},
	}
	for _, tt := range tests {
		name, dated := speakerLabel(tt.context)
		if name != tt.name || dated != tt.dated {
			t.Errorf("speakerLabel(%q) = %q, %v; want %q, %v", tt.context, name, dated, tt.name, tt.dated)
		}
		if got := speakerOf(tt.context); got != tt.name {
			t.Errorf("speakerOf(%q) = %q, want %q", tt.context, got, tt.name)
		}
		if got := saidOn(tt.context); got != (tt.name != "" && tt.dated) {
			t.Errorf("saidOn(%q) = %v", tt.context, got)
		}
	}
}

// chat applies each turn as a note of its own, the first at t0 and each next after gap.
func chat(t *testing.T, s *Store, gap time.Duration, turns ...string) {
	t.Helper()
	for i, turn := range turns {
		text := turn + "\n"
		r := compiler.Rules.Compile(text, compiler.Source{Kind: "note"})
		a := Artifact{Kind: "note", Source: "remember", Text: []byte(text)}
		if _, err := s.Apply(context.Background(), a, ClaimsOf(r), t0.Add(time.Duration(i)*gap)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRecallListsTheReplyToAQuestionTurn(t *testing.T) {
	turns := []string{
		"Nuria (14 December 2025): We signed the offer on the flat in Benimaclet.",
		"Amélie (14 December 2025): And the mortgage?",
		"Nuria (14 December 2025): 3.1% fixed for 25 years, better than we hoped.",
		"Amélie (14 December 2025): Brilliant, congratulations to you both.",
	}
	tests := []struct {
		name  string
		gap   time.Duration
		turns []string
		want  []string // the first claims, in order
		reply bool     // the second claim is listed as the reply to the first
	}{
		{"another speaker's next turn follows the question", 3 * time.Minute, turns,
			[]string{"And the mortgage?", "3.1% fixed for 25 years, better than we hoped."}, true},
		{"a turn applied past the window is no reply", 2 * replyWindow, turns,
			[]string{"And the mortgage?"}, false},
		{"the same speaker's next turn is no reply", 3 * time.Minute, []string{
			"Amélie (14 December 2025): And the mortgage?",
			"Amélie (14 December 2025): Sorry, none of my business.",
		}, []string{"And the mortgage?"}, false},
		{"a statement gets no reply listed", 3 * time.Minute, []string{
			"Nuria (14 December 2025): The mortgage is signed.",
			"Amélie (14 December 2025): Brilliant, congratulations to you both.",
		}, []string{"The mortgage is signed."}, false},
		{"notes that are not turns get no reply listed", 3 * time.Minute, []string{
			"# Mortgage Questions\nWhich bank gives the mortgage?",
			"Nuria: we ask two banks for offers.",
		}, []string{"Which bank gives the mortgage?"}, false},
		{"nor a turn after a note that is not one", 3 * time.Minute, []string{
			"Amélie: Which bank gives the mortgage?",
			"# Offers\nWe ask two banks.",
		}, []string{"Which bank gives the mortgage?"}, false},
		{"turns with bare names", 3 * time.Minute, []string{
			"Amélie: And the mortgage?",
			"Nuria: 3.1% fixed for 25 years.",
		}, []string{"And the mortgage?", "3.1% fixed for 25 years."}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTemp(t)
			chat(t, s, tt.gap, tt.turns...)
			res, err := s.Recall(context.Background(), "mortgage", 10)
			if err != nil {
				t.Fatal(err)
			}
			got := texts(res.Claims)
			if len(got) < len(tt.want) {
				t.Fatalf("recall gave %q, want %q first", got, tt.want)
			}
			for i, w := range tt.want {
				if got[i] != w {
					t.Fatalf("recall gave %q, want %q first", got, tt.want)
				}
			}
			if tt.reply {
				if r := res.Claims[1]; r.ReplyTo != res.Claims[0].ID || r.Confidence != res.Claims[0].Confidence {
					t.Errorf("the reply has reply_to %d and confidence %.2f, want %d and %.2f (its question's)",
						r.ReplyTo, r.Confidence, res.Claims[0].ID, res.Claims[0].Confidence)
				}
			}
			for i, c := range res.Claims {
				if c.ReplyTo != 0 && !(tt.reply && i == 1) {
					t.Errorf("claim %d %q is listed as a reply to %d", i+1, c.Text, c.ReplyTo)
				}
			}
		})
	}
}

func TestContextBuildListsTheReplyToAQuestionTurn(t *testing.T) {
	s := openTemp(t)
	chat(t, s, 3*time.Minute,
		"Amélie (14 December 2025): And the mortgage?",
		"Nuria (14 December 2025): 3.1% fixed for 25 years.",
	)
	got := included(t, s, ContextOptions{Query: "mortgage", Budget: 500, Now: t0.Add(time.Hour)})
	if len(got) != 2 || got[1] != "3.1% fixed for 25 years." {
		t.Errorf("context build holds %q, want the question and its reply", got)
	}
}

func TestPresenceOfAWhenQuestionAnsweredByADatedTurn(t *testing.T) {
	s := openTemp(t)
	chat(t, s, 3*time.Minute,
		"Théo (22 June 2025): Hi Rafa, Théo here, Amélie added me to the chat.",
		"Rafa (22 June 2025): Welcome Théo!",
	)
	for _, tt := range []struct {
		query string
		want  Presence
	}{
		// The turn's date is when it was said: it answers what happened then...
		{"When did Théo join the chat?", PresenceClaim},
		// ...not when something will happen.
		{"When will Théo join the chat?", PresenceNone},
	} {
		res, err := s.Recall(context.Background(), tt.query, 10)
		if err != nil {
			t.Fatal(err)
		}
		if res.Presence != tt.want {
			t.Errorf("%q: presence %s, want %s", tt.query, res.Presence, tt.want)
		}
	}
}

// A reply is read through the page's filter: a turn applied although flagged stays out of a context block
// unless flagged claims are allowed, and recall lists it marked.
func TestReplyKeepsToTheFilter(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	chat(t, s, 3*time.Minute, "Amélie (14 December 2025): And the mortgage?")
	text := "Nuria (14 December 2025): 3.1% fixed for 25 years.\n"
	r := compiler.Rules.Compile(text, compiler.Source{Kind: "note"})
	a := Artifact{Kind: "note", Source: "remember", Text: []byte(text), Flagged: true}
	if _, err := s.Apply(ctx, a, ClaimsOf(r), t0.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	for _, allow := range []bool{false, true} {
		got := included(t, s, ContextOptions{Query: "mortgage", Budget: 500, Now: t0.Add(time.Hour), AllowFlagged: allow})
		if want := map[bool]int{false: 1, true: 2}[allow]; len(got) != want {
			t.Errorf("allow flagged %v: context build holds %q, want %d claims", allow, got, want)
		}
	}
	res, err := s.Recall(ctx, "mortgage", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Claims) != 2 || !res.Claims[1].Flagged {
		t.Errorf("recall lists %+v, want the question and its reply marked flagged", texts(res.Claims))
	}
}

// included returns the text of the claims a context block built with opt includes, in order.
func included(t *testing.T, s *Store, opt ContextOptions) []string {
	t.Helper()
	_, cands, err := s.ExplainContext(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cands {
		if c.Included {
			got = append(got, c.Text)
		}
	}
	return got
}
