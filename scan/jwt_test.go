package scan

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
)

// jwtExpr is the expression findJWT stands for; jwtUnsigned the shape of a token with no signature (alg none)
// or no third segment, whose payload must also decode to a JSON object.
var (
	jwtExpr     = regexp.MustCompile(`^\beyJ[A-Za-z0-9_\-]{8,}={0,2}\.eyJ[A-Za-z0-9_\-]{8,}={0,2}\.[A-Za-z0-9_\-]{16,}`)
	jwtUnsigned = regexp.MustCompile(`^\beyJ[A-Za-z0-9_\-]{8,}={0,2}\.(eyJ[A-Za-z0-9_\-]{8,})={0,2}(\.)?`)
)

// exprJWT finds JWTs the slow way: the expressions at every "eyJ" that starts a word, then the header check,
// without overlaps.
func exprJWT(text string) []span {
	var out []span
	for i := 0; i+3 <= len(text); i++ {
		if text[i:i+3] != "eyJ" || (i > 0 && isWordByte(text[i-1])) || len(out) > 0 && i < out[len(out)-1].end {
			continue
		}
		if m := jwtExpr.FindStringIndex(text[i:]); m != nil {
			sig := strings.SplitN(text[i:i+m[1]], ".", 3)[2]
			if jwtHeader(text[i:i+m[1]]) || len(sig) >= jwsSignatureChars && signedHeader(text[i:i+m[1]]) {
				out = append(out, span{i, i + m[1]})
			}
			continue
		}
		m := jwtUnsigned.FindStringSubmatchIndex(text[i:])
		if m == nil {
			continue
		}
		end := i + m[1]
		// After the dot nothing of a segment may follow; without a dot, nothing of a token.
		if end < len(text) && (isWordByte(text[end]) || text[end] == '-' || m[4] < 0 && text[end] == '.') {
			continue
		}
		if jwtHeader(text[i:end]) && jsonSegment(text[i+m[2]:i+m[3]]) {
			out = append(out, span{i, end})
		}
	}
	return out
}

// signedHeader reports whether a signed token's header, at most jwtHeaderChars characters of it, begins a JSON
// object.
func signedHeader(v string) bool {
	seg, _, _ := strings.Cut(v, ".")
	seg = strings.TrimRight(seg, "=")
	seg = seg[:min(len(seg), jwtHeaderChars)]
	if len(seg)%4 == 1 {
		return false // as findJWT: no base64 decodes a single character
	}
	raw, err := base64.RawURLEncoding.DecodeString(seg)
	return err == nil && objectJSON(raw)
}

func hitsOf(text, kw string) []int {
	var hits []int
	for i := 0; ; i++ {
		k := strings.Index(text[i:], kw)
		if k < 0 {
			return hits
		}
		i += k
		hits = append(hits, i)
	}
}

// FuzzFindJWT holds findJWT to the expression. Inputs stay under 1 KiB, since findJWT judges a header on its
// first 1 KiB only.
func FuzzFindJWT(f *testing.F) {
	var exJWT string
	for _, r := range ruleTable() {
		if r.id == "jwt" {
			pos, _ := r.examples()
			_, rest, _ := strings.Cut(pos[0], "id_token=")
			exJWT, _, _ = strings.Cut(rest, "&")
		}
	}
	f.Add("GET /cb?id_token=" + exJWT + "&state=x")
	f.Add("x eyJhbGciOiJIUzI1NiJ9==.eyJaaaaaaaaa.bbbbbbbbbbbbbbbbbb eyJ-eyJhbGciOiJIUzI1NiJ9.eyJaaaaaaaa.bbbbbbbbbbbbbbbbbbbbb")
	f.Add("eyJ0-" + exJWT)
	f.Add(strings.Repeat("eyJ-", 40) + exJWT)
	f.Add("eyJab-eyJ-eyJabc-eyJa-" + exJWT) // hits at every alignment of one run, sharing its decodings
	f.Add("eyJhbGciOi… eyJub3QiOiJqd3QifQ.eyJhIjoxfQ.c2lnbmF0dXJlc2lnbmF0dXJl")
	f.Add("t=eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1LTQyIn0. and eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1LTQyIn0=, eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1LTQyIn0.abc")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1024 {
			return
		}
		want, got := exprJWT(s), findJWT(s, hitsOf(s, "eyJ"))
		if len(want) != len(got) {
			t.Fatalf("%q: findJWT %v, expression %v", s, got, want)
		}
		for i := range want {
			if want[i] != got[i] {
				t.Fatalf("%q: findJWT %v, expression %v", s, got, want)
			}
		}
	})
}
