package recall

import (
	"strings"
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
