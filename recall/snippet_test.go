package recall

import (
	"strings"
	"sync"
	"testing"
)

func TestSnippet(t *testing.T) {
	long := strings.Repeat("filler words here. ", 40)
	tests := []struct {
		text  string
		words []string
		want  string
	}{
		{"The staging cluster deploys nightly.", []string{"deploying"}, "The staging cluster [deploys] nightly."},
		{"José Álvarez owns billing.", []string{"jose"}, "[José] Álvarez owns billing."},
		{"the user_id column", []string{"user", "id"}, "the [user]_[id] column"},
		{long + "the backup runs at night. " + long, []string{"backups", "night"},
			"…words here. the [backup] runs at [night]. filler words here. filler words here. filler words here…"},
		{"nothing matches here", []string{"zebra"}, "nothing matches here"},
		{long, []string{"zebra"}, "filler words here. filler words here. filler words here. filler words here. filler words here. filler…"},
		{"Резервный сервер в Берлине", []string{"сервер"}, "Резервный [сервер] в Берлине"},
		{"", []string{"x"}, ""},
		{"\xff\xfe deploy", []string{"deploy"}, "[deploy]"},
	}
	for _, tt := range tests {
		if got := snippet([]byte(tt.text), tt.words); got != tt.want {
			t.Errorf("snippet(%.30q, %q) =\n%q\nwant\n%q", tt.text, tt.words, got, tt.want)
		}
	}
}

func FuzzSnippet(f *testing.F) {
	f.Add("The staging cluster deploys nightly.", "deploying")
	f.Add("José Álvarez", "jose")
	f.Fuzz(func(t *testing.T, text, query string) {
		got := snippet([]byte(text), queryWords(query))
		if strings.Count(got, "[") > strings.Count(text, "[")+snippetWords {
			t.Fatalf("snippet %q has too many brackets", got)
		}
		if len(strings.Fields(got)) > 2*snippetWords+4 {
			t.Fatalf("snippet %q is too long", got)
		}
	})
}

// TestFoldConcurrent checks fold's results, in many goroutines at once: its transformers are shared
// through a pool, and each must serve one call at a time (go test -race finds one that does not).
func TestFoldConcurrent(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Café", "cafe"}, {"MÁS", "mas"}, {"Straße", "straße"}, {"naïve", "naive"}, {"plain", "plain"}, {"Ångström", "angstrom"},
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				for _, c := range cases {
					if got := fold(c.in); got != c.want {
						t.Errorf("fold(%q) = %q, want %q", c.in, got, c.want)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
