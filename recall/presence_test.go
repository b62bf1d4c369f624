package recall

import (
	"context"
	"testing"
	"time"
)

// TestPresenceQuestions asks questions, phrased as users phrase them, of small stores: where every word has
// about the same IDF, so the words that make a question a question (which, does, use, tell, kind...) must
// not outweigh the words that name its subject, and a word no claim holds must not outweigh one that some
// claim holds just because the store is small.
func TestPresenceQuestions(t *testing.T) {
	stores := map[string][]string{
		"three": {
			"The billing database is PostgreSQL 16.",
			"Staging deploys happen every Thursday at noon.",
			"Priya's dog is a beagle named Biscuit.",
		},
		"one": {"The billing database is PostgreSQL 16."},
		// Questions of when and how many are answered only by a time or a quantity.
		"wish":  {"Happy birthday to Aiko from the whole team!", "Staging runs on a small node pool."},
		"dated": {"Aiko's birthday is on 12 June.", "Staging runs on three nodes.", "The offsite is next Tuesday."},
	}
	tests := []struct {
		store, query string
		want         Presence
		first        string // the first claim, for PresenceClaim
	}{
		{"three", "which database does billing use", PresenceClaim, "The billing database is PostgreSQL 16."},
		{"three", "what kind of database does billing use?", PresenceClaim, "The billing database is PostgreSQL 16."},
		{"three", "tell me which database billing uses", PresenceClaim, "The billing database is PostgreSQL 16."},
		{"three", "do you know what database we use for billing?", PresenceClaim, "The billing database is PostgreSQL 16."},
		{"three", "when do staging deploys happen?", PresenceClaim, "Staging deploys happen every Thursday at noon."},
		{"three", "what day do we deploy to staging?", PresenceClaim, "Staging deploys happen every Thursday at noon."},
		{"three", "what is the name of Priya's dog?", PresenceClaim, "Priya's dog is a beagle named Biscuit."},
		{"three", "what kind of dog does Priya have", PresenceClaim, "Priya's dog is a beagle named Biscuit."},
		{"three", "what breed is Priya's dog?", PresenceClaim, "Priya's dog is a beagle named Biscuit."},
		{"three", "which version of postgresql is the billing database?", PresenceClaim, "The billing database is PostgreSQL 16."},
		{"one", "which database does billing use", PresenceClaim, "The billing database is PostgreSQL 16."},
		{"one", "what do we use for the billing database?", PresenceClaim, "The billing database is PostgreSQL 16."},

		{"three", "which database does the search service use", PresenceNone, ""},
		{"three", "what time do production releases go out?", PresenceNone, ""},
		{"three", "how do I get a refund", PresenceNone, ""},
		{"three", "what do you know about kubernetes", PresenceNone, ""},
		{"three", "does Priya have a cat", PresenceNone, ""},
		{"three", "what kind of cache does checkout use", PresenceNone, ""},
		{"three", "which queue do payments need", PresenceNone, ""},
		{"one", "which cache does billing use", PresenceNone, ""},

		{"wish", "when is Aiko's birthday?", PresenceNone, ""},
		{"wish", "how many nodes does staging have?", PresenceNone, ""},
		{"wish", "what does staging run on?", PresenceClaim, "Staging runs on a small node pool."},
		{"dated", "when is Aiko's birthday?", PresenceClaim, "Aiko's birthday is on 12 June."},
		{"dated", "how many nodes does staging have?", PresenceClaim, "Staging runs on three nodes."},
		{"dated", "when is the offsite?", PresenceClaim, "The offsite is next Tuesday."},
	}
	for name, lines := range stores {
		s := openTemp(t)
		for i, l := range lines {
			remember(t, s, t0.Add(time.Duration(i)*time.Hour), l)
		}
		for _, tt := range tests {
			if tt.store != name {
				continue
			}
			t.Run(name+"/"+tt.query, func(t *testing.T) {
				r, err := s.Recall(context.Background(), tt.query, 5)
				if err != nil {
					t.Fatal(err)
				}
				if r.Presence != tt.want {
					t.Fatalf("presence %s (confidence %.2f), claims %q: want %s", r.Presence, r.Confidence, texts(r.Claims), tt.want)
				}
				if r.Confidence <= 0.5 || r.Confidence > 1 {
					t.Errorf("confidence %.2f: want above 0.5, at most 1", r.Confidence)
				}
				if tt.first != "" && (len(r.Claims) == 0 || r.Claims[0].Text != tt.first) {
					t.Errorf("claims %q: want %q first", texts(r.Claims), tt.first)
				}
			})
		}
	}
}

func TestAskedFor(t *testing.T) {
	tests := []struct {
		question string
		want     asked
		states   []string // texts that state what is asked
		not      []string // texts that do not
	}{
		{"When is Noor's birthday?", askedTime, []string{"on 12 June", "next Tuesday", "every night"}, []string{"Happy birthday to her!"}},
		{"what time does the office close", askedTime, []string{"at 18:00"}, []string{"The office closes early."}},
		{"How many partitions does the topic have?", askedQuantity, []string{"48 partitions", "twelve partitions"}, []string{"The topic was repartitioned."}},
		{"how much does it cost", askedQuantity, []string{"3 EUR"}, []string{"It costs too much."}},
		{"when did Tomasz run the 10k", askedTime, []string{"52 minutes on Sunday"}, []string{"Tomasz ran the 10k."}},
		// The number of a ticket, a model or a version does not say when or how many; a quarter or a week
		// written short does.
		{"When was IT-33 closed?", askedTime, []string{"closed in Q3", "due W23", "since 2026-05-04", "at 21:00"},
			[]string{"LIB-207 and IT-33 are open.", "KioskCo SK-400 on v2 firmware", "logs in wg0 and cr_41"}},
		{"How many kiosks are there?", askedQuantity, []string{"4 kiosks"}, []string{"Kiosk model SK-400."}},
		{"What is Katrin's email address?", askedEmail, []string{"Katrin Vogel (k.vogel@example.de, +49 40 555 0192)."},
			[]string{"Katrin Vogel takes over from 1 March.", "Write to her by email.", "@katrin on the chat"}},
		{"pharmacy extension number", askedPhone, []string{"214", "Reception: 0161 555 0734", "+44 (0)20 7946 0018"},
			[]string{"The pharmacy is on a new extension.", "Call 12 or 13.", "VetDesk 4.3.2 still current"}},
		// A version, a sum, a ticket or a date is not a phone number.
		{"What is Ravi's mobile phone number?", askedPhone,
			[]string{"Ravi: 07700 900418", "call ext. 2200", "Extension 204 from any clinic"},
			[]string{"VetDesk 4.3.2 still current", "About 300 euros a month.", "Yes, OPS-240.", "since 2026-02-10",
				"Decided 1 June 2026 by Ravi.", "214"}},
		{"What is the URL of the test environment?", askedURL,
			[]string{"https://test.example.org/login", "at www.example.org", "on `staging.inkwell.example`", "dac01.corp.local:4070"},
			[]string{"`INKWELL_DB_URL` is set in the chart.", "see config.yaml", "version 1.2.3"}},
		{"Which Go version does the ledger service use?", askedNumber, []string{"Go 1.22", "PostgreSQL 16", "on v2 now", "moved to :8443"},
			[]string{"The ledger service is written in Go.", "See LIB-207."}},
		{"REPORT SMTP port", askedNumber, []string{"587"}, []string{"SMTP goes through the relay."}},
		{"Hamburg port authority data agreement", askedAnything, nil, nil},
		{"Francois formation securite version en ligne", askedAnything, nil, nil},
		{"is 8.0.1 still the planned PMS upgrade version", askedAnything, nil, nil},
		{"how often do we ship a new Kestrel app version?", askedAnything, nil, nil},
		// Words of a name, and questions for a person or a reason, ask for nothing of the kind.
		{"ROSTRA_DATABASE_URL", askedAnything, nil, nil},
		{"LABBRIDGE_VETDESK_URL=http://127.0.0.1:7070/api/results", askedAnything, nil, nil},
		{"Who asked for the stream URL a week before the debate?", askedAnything, nil, nil},
		{"why did the phone number change", askedAnything, nil, nil},
		{"phishing email fake login page", askedAnything, nil, nil},
		{"which database does billing use", askedAnything, []string{"anything"}, nil},
		{"the release schedule, when possible", askedAnything, nil, nil},
		{"¿cuándo es la reunión?", askedAnything, nil, nil},
		{"", askedAnything, nil, nil},
	}
	for _, tt := range tests {
		got := askedFor(tt.question)
		q := parseQuery(tt.question)
		if got != tt.want {
			t.Errorf("askedFor(%q) = %v, want %v", tt.question, got, tt.want)
			continue
		}
		for _, s := range tt.states {
			if !got.states(s, &q) {
				t.Errorf("%q: %q does not state what is asked, want it to", tt.question, s)
			}
		}
		for _, s := range tt.not {
			if got.states(s, &q) {
				t.Errorf("%q: %q states what is asked, want it not to", tt.question, s)
			}
		}
	}
}
