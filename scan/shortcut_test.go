package scan

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestGitHubTokenLength checks that the github-token rule, whose expression leaves the length's upper bound to
// valid, finds what the expression with the bound finds.
func TestGitHubTokenLength(t *testing.T) {
	var r *rule
	for _, x := range compile(ruleTable()).rules {
		if x.id == "github-token" {
			r = x
		}
	}
	bounded := regexp.MustCompile(`^(?:\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b)`)
	body := strings.Repeat(fake("Zk3Qp9XvLm2Rt7", "Wb4Nc8Hy6Jd1Fs5Ga0Ke"), 10)
	for _, prefix := range []string{"ghp_", "ghs_", "github_pat_"} {
		for n := 30; n <= 300; n++ {
			for _, after := range []string{"", " ", "_", "x", "-", "\n"} {
				v := prefix + body[:n] + after
				var want []int
				if m := bounded.FindStringIndex(v); m != nil && tokenOK(v[m[0]:m[1]]) {
					want = m
				}
				var got []int
				if m := r.re().FindStringIndex(v); m != nil && r.valid(v[m[0]:m[1]]) {
					got = m
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s + %d characters + %q: found %v, the bounded expression %v", prefix, n, after, got, want)
				}
			}
		}
	}
}

// TestVendorPrefixed checks the lookup by first byte against a plain walk over every prefix.
func TestVendorPrefixed(t *testing.T) {
	want := func(v string) bool {
		for _, p := range vendorPrefixes {
			if strings.HasPrefix(v, p) {
				return true
			}
		}
		return false
	}
	vs := []string{"", "a", "\xff", "sk", "sk-", "SK-x", "xoxe", "xox"}
	for _, p := range vendorPrefixes {
		vs = append(vs, p, p+"Zk3Qp9", p[:len(p)-1], strings.ToLower(p)+"x", "x"+p)
	}
	for _, v := range vs {
		if got := vendorPrefixed(v); got != want(v) {
			t.Errorf("vendorPrefixed(%q) = %v, want %v", v, got, want(v))
		}
	}
}

// TestFirstField checks firstField against strings.Fields.
func TestFirstField(t *testing.T) {
	for _, s := range []string{"", " ", "\t\v\f\r\n", "login", "  machine host  login x", "a\u00a0b c", "\u0085login x", "é b", "x\u2003y", "\xffz y"} {
		want := ""
		if fs := strings.Fields(s); len(fs) > 0 {
			want = fs[0]
		}
		if got := firstField(s); got != want {
			t.Errorf("firstField(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestWordClasses checks that the lexicon's classes hold every word in exactly the lists it is in.
func TestWordClasses(t *testing.T) {
	lists := map[wordClass][]string{
		inPassword: passwordWords, inToken: tokenWords, inKey: keyWords, inCredQualifier: credentialKeyQualifiers,
		inKeyQualifier: materialKeyQualifiers, inNotSecretLast: notSecretLast, inNotSecretAny: notSecretAny, inLLM: llmWords,
	}
	classes := lex().classes
	for class, words := range lists {
		for w, c := range classes {
			if got, want := c&class != 0, slices.Contains(words, w); got != want {
				t.Errorf("%q: class %b is %v, its list says %v", w, class, got, want)
			}
		}
		for _, w := range words {
			if classes[w]&class == 0 {
				t.Errorf("%q is missing class %b", w, class)
			}
		}
	}
	if len(lists) != 8 {
		t.Fatal("a class was left out")
	}
}

// TestASCIIWords checks the byte-at-a-time split of ASCII names against the rune-at-a-time one.
func TestASCIIWords(t *testing.T) {
	names := []string{"", "a", "A", "DB_PASSWORD", "apiKey", "APIKey", "HTTPSProxy", "x509Cert", "mot de passe",
		`"password"`, "a[b]c", "Token2FA", "aB", "Ab", "AB", "__", "ñandúToken"}
	r := newRand()
	const alphabet = "aZbY09_-. []\"'kK"
	for range 2000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		names = append(names, string(b))
	}
	for _, name := range names {
		if !ascii(name) {
			continue
		}
		low := strings.ToLower(name)
		got := asciiWords(name, low, nil)
		want := runeWords(name, low, nil)
		if !slices.Equal(got, want) {
			t.Errorf("%q: asciiWords %q, runeWords %q", name, got, want)
		}
	}
}

// TestFenceLines checks fenceLines against strings.Count.
func TestFenceLines(t *testing.T) {
	ws := []string{"", "```", "\n```", "\n````", "\n``````", "a\n```go\nx\n```\n", "``\n``", "\n\n```\n```", "x```\n ```"}
	r := newRand()
	for range 2000 {
		b := make([]byte, r.IntN(16))
		for i := range b {
			b[i] = "\n`a"[r.IntN(3)]
		}
		ws = append(ws, string(b))
	}
	for _, w := range ws {
		if got, want := fenceLines(w), strings.Count(w, "\n```"); got != want {
			t.Errorf("fenceLines(%q) = %d, want %d", w, got, want)
		}
	}
}

// TestMayRulesOutNoMatch checks that a rule's cheap test never rules out a hit its expression matches: the rule
// finds the same secrets with the test and without it, on the rule examples, the corpus and windows built at
// the edges of each test.
func TestMayRulesOutNoMatch(t *testing.T) {
	var texts []string
	for _, r := range Rules() {
		texts = append(texts, r.Positives...)
		texts = append(texts, r.Negatives...)
	}
	for _, n := range loadCorpus(t) {
		texts = append(texts, n.text)
	}
	tok := fake("Zk3Qp9XvLm2Rt7", "Wb4Nc8Hy6Jd1Fs5Ga0Ke")
	values := []string{tok, tok[:15], tok[:16], tok[:15] + "\u212a", "a:b.c-d_e~f+g/h=", "Bearer " + tok, "Basic " + tok}
	for _, s := range authorizationSchemes {
		values = append(values, s+" "+tok, strings.ToUpper(s)+"\t "+tok[:16], s+" "+tok[:15], s+tok)
	}
	values = append(values, "to\u212aen "+tok, "\u017fsws "+tok, "tokens "+tok, "tok "+tok)
	for _, name := range []string{"Authorization", "proxy-authorization", "AUTHORIZATION"} {
		for _, sep := range []string{": ", "=", `": "`, `':'`, " \t: ", " ", `"`, "\"\t=", "", ":", ": '"} {
			for _, v := range values {
				texts = append(texts, name+sep+v, name+sep+v+"\n"+tok)
			}
		}
	}
	for _, head := range []string{"Bearer", "bearer", "BEARER"} {
		for _, sep := range []string{" ", "\t ", "", "\n ", "\r\n\t", " \n  ", " \r\n", "\n", " \r ", ": "} {
			for _, v := range []string{tok, "$TOKEN", "${T}", "\u212a" + tok, "\u017f", "\xff" + tok, "-._~+/", "=", "<token>", "\n" + tok} {
				texts = append(texts, head+sep+v, "Authorization: "+head+sep+v)
			}
		}
	}
	e := compile(ruleTable())
	checked := 0
	for ri, r := range e.rules {
		if r.may == nil {
			continue
		}
		bare := *r
		bare.may = nil
		for i, text := range texts {
			l := new(scratch)
			e.collect(l, text)
			hits := l.hits[ri]
			if len(hits) == 0 {
				continue
			}
			checked++
			// Never the text itself in a failure: it may hold a secret.
			if got, want := r.run(text, hits), bare.run(text, hits); !slices.Equal(got, want) {
				t.Errorf("%s: text %d: with its cheap test %v, without %v", r.id, i, got, want)
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d texts reached a rule with a cheap test", checked)
	}
}

// TestBase64Bytes checks the table behind isBase64Byte against its definition.
func TestBase64Bytes(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		if want := 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '+' || b == '/'; isBase64Byte(b) != want {
			t.Errorf("isBase64Byte(%q) = %v", b, !want)
		}
	}
}

// TestNameBytes checks isNameByte against isNameRune on every ASCII byte.
func TestNameBytes(t *testing.T) {
	for c := range 128 {
		if isNameByte(byte(c)) != isNameRune(rune(c)) {
			t.Errorf("isNameByte(%q) = %v", byte(c), isNameByte(byte(c)))
		}
	}
}

// TestClasses checks classes against a rune-at-a-time count with the Unicode tables.
func TestClasses(t *testing.T) {
	want := func(s string) (n int, lower, upper, digit, other bool) {
		for _, r := range s {
			switch {
			case unicode.IsLower(r):
				lower = true
			case unicode.IsUpper(r):
				upper = true
			case unicode.IsDigit(r):
				digit = true
			default:
				other = true
			}
		}
		for _, b := range []bool{lower, upper, digit, other} {
			if b {
				n++
			}
		}
		return n, lower, upper, digit, other
	}
	r := newRand()
	pieces := []string{"a", "Z", "7", "-", " ", "é", "Ж", "٣", "\xff", "中", "ǅ", "\u212a"}
	ss := []string{""}
	for range 3000 {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		ss = append(ss, b.String())
	}
	for _, s := range ss {
		n, l, u, d, o := classes(s)
		wn, wl, wu, wd, wo := want(s)
		if n != wn || l != wl || u != wu || d != wd || o != wo {
			t.Errorf("classes(%q) = %d %v %v %v %v, want %d %v %v %v %v", s, n, l, u, d, o, wn, wl, wu, wd, wo)
		}
	}
}

// TestXFiller checks which x's mark a value as a stand-in: filler, not three that a random key holds by chance.
func TestXFiller(t *testing.T) {
	tests := []struct {
		v    string
		want bool
	}{
		{"xxxx", true},
		{"sk-xxx", true},
		{"AKIAXXXXXXXXXXXXXXXX", true},
		{"passwordxxx", true},
		{"ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", true},
		{"q7Lm2Rt9Vw4Ny8Bp3Kd6Hs1Zf5xxxGc0Jt7Ue2Ya", false}, // three in forty: chance
		{"hunter2", false},
		{"xkcd936", false},
	}
	for _, tt := range tests {
		if got := xFiller(tt.v); got != tt.want {
			t.Errorf("xFiller(%q) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
