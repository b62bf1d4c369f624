package recall

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileQueries are user texts that are not FTS5 syntax; each must search as words.
var hostileQueries = []struct {
	query string
	want  string // a claim the query must find, or "" for only "no error"
}{
	{`"unbalanced quote`, "unbalanced quote handling"},
	{`""`, ""},
	{`-user`, "The user_id column is a UUID"},
	{`user -id`, "The user_id column is a UUID"},
	{`NOT user`, "The user_id column is a UUID"},
	{`deploy*`, "Deploy on Fridays is forbidden"},
	{`*`, ""},
	{`title:deploy`, "Deploy on Fridays is forbidden"},
	{`text:`, ""},
	{`(deploy`, "Deploy on Fridays is forbidden"},
	{`deploy)`, "Deploy on Fridays is forbidden"},
	{`NEAR(deploy fridays, 2)`, "Deploy on Fridays is forbidden"},
	{`NEAR`, "The NEAR keyword is reserved"},
	{`AND`, "Cats AND dogs are allowed"},
	{`OR`, ""},
	{`deploy AND OR NOT`, "Deploy on Fridays is forbidden"},
	{`^deploy`, "Deploy on Fridays is forbidden"},
	{`{deploy}`, "Deploy on Fridays is forbidden"},
	{`deploy + fridays`, "Deploy on Fridays is forbidden"},
	{`a.b.c`, ""},
	{`'single'`, ""},
	{"\x00deploy\x00", "Deploy on Fridays is forbidden"},
	{"\xff\xfe", ""},
	{`東京`, "東京 is the primary region"},
	{`東京 region`, "東京 is the primary region"},
	{`сервер`, "Резервный сервер в Берлине"},
	{`Сервер`, "Резервный сервер в Берлине"},
	{`الخادم`, "الخادم الرئيسي في دبي"},
	{`🙂 emoji`, ""},
	{strings.Repeat("x", 5000), ""},
	{strings.Repeat("deploy ", 200), "Deploy on Fridays is forbidden"},
	{"e\u0301", ""},      // a combining mark
	{"\u0301\u0301", ""}, // marks alone
	{"ǅ Ⅷ ① ²", ""},      // title case, letter numbers, other numbers
	{"\u200b\u200d", ""}, // zero-width characters
	{"deploy\u3000fridays", "Deploy on Fridays is forbidden"}, // ideographic space
}

func TestHostileQueries(t *testing.T) {
	s := openTemp(t)
	remember(t, s, t0,
		"unbalanced quote handling",
		"The user_id column is a UUID",
		"Deploy on Fridays is forbidden",
		"The NEAR keyword is reserved",
		"Cats AND dogs are allowed",
		"東京 is the primary region",
		"Резервный сервер в Берлине",
		"الخادم الرئيسي في دبي",
	)
	for _, tt := range hostileQueries {
		name := tt.query
		if len(name) > 20 {
			name = name[:20]
		}
		t.Run(name, func(t *testing.T) {
			r, err := s.Recall(context.Background(), tt.query, 10)
			if err != nil {
				t.Fatalf("Recall(%q): %v", tt.query, err)
			}
			if tt.want != "" && !contains(texts(r.Claims), tt.want) {
				t.Errorf("Recall(%q) = %q, want %q among them", tt.query, texts(r.Claims), tt.want)
			}
			if _, _, err := s.Search(context.Background(), tt.query, 10); err != nil {
				t.Errorf("Search(%q): %v", tt.query, err)
			}
			if _, err := s.Context(context.Background(), ContextOptions{Query: tt.query, Budget: 500, Now: t0}); err != nil {
				t.Errorf("Context(%q): %v", tt.query, err)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestQueryTerms(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"user_id", `("user id" OR "userid")`},
		{"What is the user_id?", `("user id" OR "userid")`},
		{"the a of", `"the" OR "a" OR "of"`}, // only stopwords: keep them
		{`"NEAR(x, w)" OR z*`, `"x" OR "w" OR "z"`},
		{"José JOSÉ josé", `"josé"`},
		{"", ""},
		{"Priya's dog", `"priya" OR "dog"`},
		{"Priya’s dog's name", `"priya" OR "dog" OR "name"`},
		{"don't deploy", `"don" OR "deploy"`},
		{"FW-233", `("fw 233" OR "fw233")`},
		{"eu-west-1 region", `("eu west 1" OR "euwest1") OR "region"`},
		{"internal/sync/retry.go", `("internal sync retry go" OR "internalsyncretrygo" OR "internal syncretrygo" OR "internalsync retrygo" OR "internal sync retrygo" OR "internalsyncretry go" OR "internal syncretry go" OR "internalsync retry go")`},
		{"fetchUserProfile", `("fetchuserprofile" OR "fetch userprofile" OR "fetchuser profile" OR "fetch user profile")`},
		// a name in another grouping than the note's: parityCheck.cron, night_audit.start
		{"parity_check.cron", `("parity check cron" OR "paritycheckcron" OR "parity checkcron" OR "paritycheck cron")`},
		{"nightAudit.start", `("nightaudit start" OR "nightauditstart" OR "night auditstart" OR "night audit start")`},
		{"a.b.c.d.e", `("a b c d e" OR "abcde")`},              // past maxGrouped words: spaced and joined only
		{"firmware 3.5.0", `"firmware" OR ("3 5 0" OR "350")`}, // a version is not regrouped
		{"end. Next", `"end" OR "next"`},
		{"-user", `"user"`},
		{"Muenchen Strasse", `("muenchen" OR "munich" OR "münchen" OR "munchen") OR ("strasse" OR "straße")`},
		{"rock'n'roll", `"rock" OR "roll"`},
		{"title:deploy", `"title" OR "deploy"`},
		{"which wrist did she break", `"wrist" OR ("break" OR "broke" OR "broken")`},
		{"bought a bike", `("bought" OR "buy") OR "bike"`},
		{"left wrist", `"left" OR "wrist"`}, // a direction as often as a verb: not expanded
		// abbreviations and their full words stand for one another, plurals too
		{"billing database", `"billing" OR ("database" OR "databases" OR "db" OR "dbs")`},
		{"k8s", `("k8s" OR "k 8 s" OR "kubernetes")`},
		{"postgres version", `("postgres" OR "postgresql") OR "version"`},
		{"8 Jan", `"8" OR ("jan" OR "january")`},
		{"sat on Sunday", `"sat" OR "sunday"`}, // a verb and the sun as often: not expanded
		{"check min", `"check" OR "min"`},      // not only the cheque; minutes as often as minimum
		// British and American spellings
		{"colour", `("colour" OR "color")`},
		{"organisation", `("organisation" OR "organization")`},
		{"optimized", `("optimized" OR "optimised")`},
		{"wise noise", `"wise" OR "noise"`}, // too short to be -ise verbs
		{"entre", `"entre"`},
		{"five", `"five"`},
		// a place by its name in another language
		{"Munich office", `("munich" OR "münchen" OR "munchen" OR "muenchen") OR "office"`},
		{"Sevilla", `("sevilla" OR "seville")`},
		{"Florence", `"florence"`}, // a person's name as often: not expanded
		{"CR41 crash", `("cr41" OR "cr 41") OR "crash"`},
		{"mm152b", `("mm152b" OR "mm 152 b")`},
		{"v2", `("v2" OR "v 2")`},
	}
	for _, tt := range tests {
		if got := matchExpr(queryTerms(tt.in)); got != tt.want {
			t.Errorf("queryTerms(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if n := len(queryTerms(strings.Repeat("w", 1) + strings.Repeat(" x", 100) + fields(100))); n > maxQueryWords {
		t.Errorf("queryTerms kept %d terms, cap is %d", n, maxQueryWords)
	}
}

// TestQueryUnfolded: a word, most often a name, typed without a letter the index does not fold (Fløyen,
// Yıldız, Łódź, Ærø) has its spellings with that letter wherever the base letter occurs, for when it matches
// nothing as written (see unfoldMissing), in either case; a word that is not ASCII or holds none of the base
// letters has none.
func TestQueryUnfolded(t *testing.T) {
	want := map[string][]string{
		"floyen": {"fløyen", "fłoyen"},
		"yildiz": {"yıldız", "yiłdiz", "yilđiz"},
		"aero":   {"aerø", "æro"},
		"lodz":   {"lødz", "łodz", "lođz"},
		"søren":  nil,
		"synth":  nil,
	}
	for _, tm := range queryTerms("Floyen Yildiz Aero lodz Søren synth") {
		if w, ok := want[tm.alts[0]]; !ok || !slices.Equal(tm.unfolded, w) {
			t.Errorf("term %q: unfolded %q, want %q", tm.alts[0], tm.unfolded, w)
		}
	}
}

func fields(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(" w")
		b.WriteString(strings.Repeat("q", i+1))
	}
	return b.String()
}

// FuzzQuery checks that building the FTS5 expression from any text never panics and never yields an
// expression SQLite rejects, on both indexes.
func FuzzQuery(f *testing.F) {
	for _, q := range hostileQueries {
		f.Add(q.query)
	}
	if data, err := os.ReadFile("testdata/queries.txt"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			f.Add(l)
		}
	}
	s, err := Open(f.TempDir() + "/store")
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	a, c := note("s", "t", "Deploy on Fridays is forbidden", "東京 is the primary region", "Ünïcödé text")
	if _, err := s.Apply(context.Background(), a, c, t0); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		terms := queryTerms(q)
		if len(terms) > maxQueryWords {
			t.Fatalf("%d terms", len(terms))
		}
		for _, tm := range terms {
			for _, w := range tm.words {
				if w == "" || strings.ContainsAny(w, "\"*:()^{}+-' \x00") || len(w) > maxWordBytes+utf8.UTFMax {
					t.Fatalf("word %q from %q", w, q)
				}
			}
		}
		expr := matchExpr(terms)
		if expr == "" {
			return
		}
		for _, tbl := range []string{"claims_fts", "artifacts_fts"} {
			var n int
			if err := s.db.QueryRow(`SELECT count(*) FROM `+tbl+` WHERE `+tbl+` MATCH ?`, expr).Scan(&n); err != nil {
				t.Fatalf("query %q: expression %q rejected: %v", q, expr, err)
			}
		}
		if _, err := s.Recall(context.Background(), q, 5); err != nil {
			t.Fatalf("Recall(%q): %v", q, err)
		}
	})
}
