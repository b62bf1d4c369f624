package scan

import (
	"bytes"
	"encoding/base64"
	"math"
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Limits that keep hand-written matchers linear: no name, value or key body is followed further than this.
const (
	maxName  = 96
	maxValue = 512
	maxBody  = 16 << 10
)

// ---- value judgements -------------------------------------------------------------------------------------

// placeholderMarks are substrings (compared lower-cased) that mark a value as a stand-in, not a secret.
var placeholderMarks = []string{
	"your", "redact", "placeholder", "example", "changeme", "change_me", "change-me", "replace", "dummy",
	"sample", "***", "•", "…", "...", "%(", "todo", "tbd", "n/a",
	"-here", "_here", "tokenhere", "keyhere", "secrethere", "passwordhere", "notreal", "not-real", "not_real",
	"insert", "secret_value", "s3cr3t_value",
}

// placeholderMark reports whether v holds one of [placeholderMarks] as a stand-in writes it. A short mark of
// letters (tbd, todo) with a letter or digit on each side, in a value that mixes lower case, upper case and
// digits, is a chance of the generator (…GVJD2TBD4fCy), not a word: stand-ins write their marks as words
// (YOUR_TOKEN, tbd, <todo>, yourpasswordhere in one case), and a longer mark (…EXAMPLEKEY) is no chance.
func placeholderMark(v string) bool {
	m := lex().marks
	if !m.contains(v) {
		return false
	}
	if _, lower, upper, digit, _ := classes(v); !lower || !upper || !digit {
		return true
	}
	var buf [8]kwHit
	hits, _ := m.scan(v, buf[:0], nil)
	for _, h := range hits {
		start, end := h.pos, h.pos+m.lens[h.k]
		if end-start > 4 || start == 0 || end >= len(v) || !isAlnum(v[start-1]) || !isAlnum(v[end]) ||
			!allBytes(v[start:end], func(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }) {
			return true
		}
	}
	return false
}

// isPlaceholder reports whether v is a stand-in or an indirection rather than a literal secret: template syntax,
// a variable or environment read, a masked or elided value, or a secret-manager reference.
func isPlaceholder(v string) bool {
	if v == "" {
		return true
	}
	if placeholderMark(v) || xFiller(v) || hasTemplate(v) || publishedPassword(v) {
		return true
	}
	switch v[0] {
	case '$', '@', '&', '*':
		return true // $VAR, ${VAR}, $(cat …), @file, &anchor, *alias
	case '%', '!':
		// %NAME% and %s are stand-ins, !Ref a YAML tag; a strong password may begin with either
		// (%sngO%YRwCQ4vgo4C!.), and its format-like pairs are characters of it.
		return !formatLiteral(v)
	case '{':
		if strings.HasSuffix(v, "}") {
			return true
		}
	case '[':
		if strings.HasSuffix(v, "]") {
			return true // [PASSWORD], [REDACTED]
		}
	}
	for _, p := range indirectionByFirst[lowerByte(v[0])] {
		if len(v) >= len(p) && equalFoldASCII(v[:len(p)], p) {
			return true
		}
	}
	return !hasDistinct(v, 3) // xxxx, abab
}

// formatLiteral reports whether v, which begins with % or !, is a literal password rather than a stand-in:
// not %NAME%, and strong once every % or ! and the byte after it are taken out (%s:%s and !Ref are not).
func formatLiteral(v string) bool {
	if len(v) > 2 && v[0] == '%' && v[len(v)-1] == '%' && allBytes(v[1:len(v)-1], isWordByte) {
		return false
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '%' || v[i] == '!' {
			i++
			continue
		}
		b.WriteByte(v[i])
	}
	rest := b.String()
	return rest != "" && rest[0] != '%' && rest[0] != '!' && strongValue(rest)
}

// publishedPassword reports whether v is a password famous as an example, quoted in docs and training about
// weak passwords rather than used: bash.org's hunter2, xkcd 936's correct horse battery staple (written with or
// without its spaces). Like AWS's EXAMPLE keys, a published example is not a secret.
func publishedPassword(v string) bool {
	switch len(v) {
	case 7:
		return equalFoldASCII(v, "hunter2")
	case 25:
		return equalFoldASCII(v, "correcthorsebatterystaple")
	case 28:
		return equalFoldASCII(v, "correct horse battery staple")
	}
	return false
}

// xFiller reports whether v is written with x's as filler (xxxx, sk-xxx, AKIAXXXXXXXXXXXXXXXX): a run of four
// or more, or a run of three that makes a quarter of v. Three x's in a long random value are chance: a run of
// three turns up in about one random 40-character key in a thousand.
func xFiller(v string) bool {
	n, run, longest := 0, 0, 0
	for i := 0; i < len(v); i++ {
		if v[i]|0x20 == 'x' {
			n++
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest >= 4 || longest == 3 && 4*n >= len(v)
}

// hasTemplate reports whether v holds a template or an expansion rather than literal characters: <word> or
// <some words> (a placeholder to fill in, <%= … %>), ${NAME} or ${{ … }}, $(command), {{ names }}. A <, >, ${
// or {{ without that shape is a character of the value: K9<m2>!x, ab${7q and m{{h}o)p${e]… are passwords.
func hasTemplate(v string) bool {
	if strings.IndexByte(v, '<') < 0 && strings.IndexByte(v, '$') < 0 && !strings.Contains(v, "{{") {
		return false
	}
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '{' && i+1 < len(v) && v[i+1] == '{':
			// {{ .Values.password }}, {{password}}, {{ lookup('env', 'X') }}: an expression of names inside
			// {{ }}. Braces or other marks inside make them characters of the value: m{{h}o)p${e]…}}.
			k := strings.Index(v[i+2:], "}}")
			if k < 0 {
				continue
			}
			inside := strings.TrimSpace(v[i+2 : i+2+k])
			if inside != "" && allBytes(inside, func(c byte) bool {
				return isWordByte(c) || strings.IndexByte(" .-[]'\"/:|(),=$", c) >= 0
			}) {
				return true
			}
		case v[i] == '<':
			k := strings.IndexByte(v[i+1:], '>')
			if k < 0 {
				continue
			}
			inside := v[i+1 : i+1+k]
			if strings.HasPrefix(inside, "%") || strings.ContainsAny(inside, " \t") && strings.TrimSpace(inside) != "" {
				return true
			}
			letters, other := 0, false
			for j := 0; j < len(inside); j++ {
				c := inside[j]
				switch {
				case 'a' <= c|0x20 && c|0x20 <= 'z':
					letters++
				case c >= 0x80:
					letters++ // a letter of another script: <hasło>, <пароль>, <パスワード>
				case c == '_' || c == '-' || c == '.' || c == ':' || c == '/':
				default:
					other = true
				}
			}
			if letters >= 2 && !other && !strongValue(v[:i]+v[i+1+k+1:]) {
				// A strong value around it makes <word> characters of a password: Onq9WI8uXBTEBi20<fhu>.
				return true
			}
		case v[i] == '$' && i+1 < len(v) && (v[i+1] == '{' || v[i+1] == '('):
			close := byte('}')
			if v[i+1] == '(' {
				close = ')'
			}
			k := strings.IndexByte(v[i+2:], close)
			if k < 0 {
				continue
			}
			inside := strings.Trim(v[i+2:i+2+k], "{ ")
			if inside != "" && allBytes(inside, func(c byte) bool {
				return isWordByte(c) || strings.IndexByte(" .-[]'\"/:|", c) >= 0
			}) && !strongValue(v[:i]+v[i+2+k+1:]) {
				// A strong literal around it is a password with an expansion appended: Mo69Yt0B${SUFFIX}.
				return true
			}
		}
	}
	return false
}

// isFiller reports whether the body of a fixed-shape token is filler rather than random: a run of six or more
// equal characters (ghp_xxxx…, AIzaaaa…, glc_1111…), eight ascending ones (abcdefgh…, 12345678), or a unit of
// two to four characters repeated over sixteen or more (123123123123…, abababab…). A longer unit repeated
// (abcd1234abcd1234…) is not filler: test fixtures hold credentials typed that way, and a note may copy one.
func isFiller(v string) bool {
	run, asc := 1, 1
	var rep [5]int // rep[p]: how many characters in a row have equalled the one p before
	for i := 1; i < len(v); i++ {
		if v[i] == v[i-1] {
			run++
		} else {
			run = 1
		}
		if v[i] == v[i-1]+1 {
			asc++
		} else {
			asc = 1
		}
		if run >= 6 || asc >= 8 {
			return true
		}
		for p := 2; p < len(rep) && p <= i && len(v) >= 16; p++ {
			if v[i] == v[i-p] {
				rep[p]++
			} else {
				rep[p] = 0
			}
			if rep[p]+p >= 16 {
				return true
			}
		}
	}
	return false
}

// tokenOK is the check for fixed-shape tokens: neither a placeholder nor filler after the prefix.
func tokenOK(v string) bool { return !isPlaceholder(v) && !isFiller(v) }

// indirectionPrefixes start values that name where a secret lives instead of holding it.
var indirectionPrefixes = []string{
	"vault:", "op://", "secret://", "sm://", "ssm:", "arn:", "awssm:", "gcp:", "gcpsm:", "projects/", "env:",
	"file:", "ref+", "/run/secrets", "/var/run/secrets", "secretsmanager", "keyvault", "azurekeyvault",
	"process.env", "os.environ", "os.getenv", "getenv", "env(", "env[", "system.getenv", "secrets.", "vars.",
	"ssh-rsa ", "ssh-ed25519 ", "ecdsa-sha2-", "-----begin public", "-----begin certificate", "sha256:", "sha1:",
	"sha512:", "md5:", "bcrypt:",
}

// indirectionByFirst holds indirectionPrefixes by their first byte, which every candidate value is tested
// against: most values begin with a byte no prefix does.
var indirectionByFirst = func() (by [256][]string) {
	for _, p := range indirectionPrefixes {
		by[p[0]] = append(by[p[0]], p)
	}
	return by
}()

// equalFoldASCII reports whether s equals the lower-case ASCII string low, ignoring ASCII case.
func equalFoldASCII(s, low string) bool {
	for i := 0; i < len(s); i++ {
		if lowerByte(s[i]) != low[i] {
			return false
		}
	}
	return true
}

// hasDistinct reports whether s holds at least n distinct bytes. It stops reading at the nth: the placeholder
// test asks it of every candidate value, most of which have three distinct bytes in their first few.
func hasDistinct(s string, n int) bool {
	var seen [256]bool
	for i := 0; i < len(s) && n > 0; i++ {
		if !seen[s[i]] {
			seen[s[i]] = true
			n--
		}
	}
	return n <= 0
}

func distinct(s string) int {
	var seen [256]bool
	n := 0
	for i := 0; i < len(s); i++ {
		if !seen[s[i]] {
			seen[s[i]] = true
			n++
		}
	}
	return n
}

// classes counts the character classes in s: lower, upper, digit, other.
func classes(s string) (n int, lower, upper, digit, other bool) {
	var seen uint8 // classLower | classUpper | classDigit | classOther
	for i := 0; i < len(s); {
		// ASCII, almost every byte of a value, is classified by a table, without decoding it or asking the
		// Unicode tables.
		if c := s[i]; c < utf8.RuneSelf {
			seen |= asciiClasses[c]
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case unicode.IsLower(r):
			seen |= classLower
		case unicode.IsUpper(r):
			seen |= classUpper
		case unicode.IsDigit(r):
			seen |= classDigit
		default:
			seen |= classOther
		}
	}
	return bits.OnesCount8(seen), seen&classLower != 0, seen&classUpper != 0, seen&classDigit != 0, seen&classOther != 0
}

const (
	classLower uint8 = 1 << iota
	classUpper
	classDigit
	classOther
)

// asciiClasses is the class of each ASCII byte for [classes].
var asciiClasses = func() (t [utf8.RuneSelf]uint8) {
	for c := range utf8.RuneSelf {
		switch {
		case 'a' <= c && c <= 'z':
			t[c] = classLower
		case 'A' <= c && c <= 'Z':
			t[c] = classUpper
		case '0' <= c && c <= '9':
			t[c] = classDigit
		default:
			t[c] = classOther
		}
	}
	return t
}()

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// pemBegin matches the BEGIN line of a private key block; it is compiled on first use.
var pemBegin = sync.OnceValue(newPEMBegin)

func newPEMBegin() *regexp.Regexp {
	return regexp.MustCompile(`-{4,5} ?BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY(?: BLOCK)? ?-{4,5}`)
}

// Shapes of values that are not secrets. Each reports whether all of v has the shape.

func allBytes(v string, ok func(c byte) bool) bool {
	for i := 0; i < len(v); i++ {
		if !ok(v[i]) {
			return false
		}
	}
	return v != ""
}

func isHexByte(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }

// isHex: only hexadecimal digits.
func isHex(v string) bool { return allBytes(v, isHexByte) }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isLowerHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' }

// isUUID: 8-4-4-4-12 hexadecimal digits.
func isUUID(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if v[i] != '-' {
				return false
			}
		} else if !isHexByte(v[i]) {
			return false
		}
	}
	return true
}

// isWordish: letters and _ . - : / only: a word, an identifier or a name such as js.fetch:credentials.
func isWordish(v string) bool {
	for _, r := range v {
		if !(r == '_' || r == '.' || r == '-' || r == ':' || r == '/' || unicode.IsLetter(r)) {
			return false
		}
	}
	return v != ""
}

// isDigitish: digits with separators, such as a number, a date or a version.
func isDigitish(v string) bool {
	return allBytes(v, func(c byte) bool { return '0' <= c && c <= '9' || c == '.' || c == ',' || c == '_' || c == '-' })
}

// isNumberish: a number with a short unit, such as 3600s, 12ms or 80%.
func isNumberish(v string) bool {
	v = strings.TrimPrefix(v, "-")
	if len(v) > 2 && v[0] == '0' && v[1]|0x20 == 'x' && isHex(v[2:]) {
		return true
	}
	i := 0
	for i < len(v) && ('0' <= v[i] && v[i] <= '9' || v[i] == '.') {
		i++
	}
	if i == 0 || len(v)-i > 3 {
		return false
	}
	for ; i < len(v); i++ {
		if !('a' <= v[i]|0x20 && v[i]|0x20 <= 'z' || v[i] == '%') {
			return false
		}
	}
	return true
}

func isPathByte(c byte) bool { return isWordByte(c) || c == '.' || c == '/' || c == '-' }

// isPath: an absolute, relative or home path with at least two slashes, or a path pattern ([isPathPattern]). A
// name in angle brackets stands for a part of it (/etc/ssh/authorized_keys.d/<uid>), as in a runbook.
func isPath(v string) bool {
	if isPathPattern(v) {
		return true
	}
	rest := strings.TrimLeft(v, "~.")
	if len(v)-len(rest) > 2 || !strings.HasPrefix(rest, "/") || strings.Count(rest, "/") < 2 {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] == '<' {
			if n := strings.IndexByte(rest[i+1:], '>'); n > 0 && allBytes(rest[i+1:i+1+n], isWordByte) {
				i += n + 1
				continue
			}
		}
		if !isPathByte(rest[i]) {
			return false
		}
	}
	return true
}

// isPathPattern: a path of three parts or more of which one is a glob (*, **, or + as Vault's policies write
// one segment) and the others names: kv/lims/staging/*, src/**/testdata, secret/+/db.
func isPathPattern(v string) bool {
	if strings.Count(v, "/") < 2 {
		return false
	}
	glob := false
	for part := range strings.SplitSeq(strings.TrimPrefix(v, "/"), "/") {
		switch {
		case part == "*" || part == "**" || part == "+":
			glob = true
		case part == "" || !allBytes(part, isPathByte):
			return false
		}
	}
	return glob
}

// isDotted: a member access or index expression in code, such as settings.API_KEY or cfg["token"].
func isDotted(v string) bool {
	if v == "" || !(v[0] == '_' || 'a' <= v[0]|0x20 && v[0]|0x20 <= 'z') {
		return false
	}
	if k := strings.IndexByte(v, '['); k > 0 && strings.HasSuffix(v, "]") {
		return allBytes(v[:k], func(c byte) bool { return isWordByte(c) || c == '.' })
	}
	if !strings.Contains(v, ".") || strings.Contains(v, "..") || strings.HasSuffix(v, ".") {
		return false
	}
	// Each part is an identifier as people name them: letters and underscores, digits only at the end
	// (cfg.Password, settings.API_KEY, v2.token). Random strings (qhzN3w.PS8a) have digits inside.
	for part := range strings.SplitSeq(v, ".") {
		if !isIdentifier(part) {
			return false
		}
	}
	return true
}

// isIdentifier: letters and underscores with digits only at the end, as code names things (encryptionKey1024,
// password16); generated secrets mix digits in.
func isIdentifier(v string) bool {
	i := 0
	for i < len(v) && (v[i] == '_' || 'a' <= v[i]|0x20 && v[i]|0x20 <= 'z') {
		i++
	}
	return i > 0 && allBytes(v[i:]+"0", func(c byte) bool { return '0' <= c && c <= '9' })
}

// isCall: a function call or index in code, such as getpass() or os.environ["X"].
func isCall(v string) bool {
	i := 0
	for i < len(v) && (isWordByte(v[i]) || v[i] == '.' || v[i] == '$') {
		i++
	}
	return i > 0 && i < len(v) && (v[i] == '(' || v[i] == '[')
}

// codeValue reports whether an unquoted value is an expression in code rather than a literal: a member access,
// a call, a composite literal, or an identifier followed by a comma (Password: password16,).
func codeValue(v string, a assignment) bool {
	if a.quoted || v == "" {
		return false
	}
	if isDotted(v) || isCall(v) || strings.IndexByte("[({\\", v[0]) >= 0 {
		return true
	}
	// In prose a comma ends the clause: "the password is x7Gq2Lp9, which still works".
	return a.comma && !a.prose && allBytes(v, isWordByte) && !('0' <= v[0] && v[0] <= '9')
}

// wordy reports whether a mixed-case alphanumeric value changes character class rarely, as camelCase names do
// (testRSA2048PrivateKey); random strings change class at about 60% of positions.
func wordy(v string) bool {
	_, lower, upper, _, other := classes(v)
	if !lower || !upper || other {
		return false
	}
	return float64(classSwitches(v)) < 0.4*float64(len(v)-1)
}

// classSwitches counts the places where v changes between lower case, upper case, digits and other bytes.
func classSwitches(v string) int {
	kind := func(c byte) int {
		switch {
		case 'a' <= c && c <= 'z':
			return 0
		case 'A' <= c && c <= 'Z':
			return 1
		case '0' <= c && c <= '9':
			return 2
		}
		return 3
	}
	switches := 0
	for i := 1; i < len(v); i++ {
		if kind(v[i]) != kind(v[i-1]) {
			switches++
		}
	}
	return switches
}

// credentialValue reports whether v, assigned to a credential name, looks like a real secret.
func credentialValue(v string) bool {
	// A URL names where a credential is used; a password inside one is url-credentials' to find.
	if utf8.RuneCountInString(v) < 6 || strings.ContainsAny(v, " \t") || strings.Contains(v, "://") {
		return false
	}
	// A UUID assigned to a credential name is a credential (Heroku API keys, npm auth tokens are UUIDs); under
	// an ID name it never gets here.
	if isWordish(v) && !randomLetters(v) || (isDigitish(v) || isNumberish(v)) && !randomDigits(v) || isPath(v) || isCoordinate(v) || isFiller(v) || isVersion(v) || loneJWTHeader(v) || !hasAlnum(v) {
		return false
	}
	return !isPlaceholder(v)
}

// randomDigits reports whether v is a run of 24 digits or more, longer than any count, date, phone or card
// number, or numeric ID (a Discord or Twitter snowflake is 19): under a credential name, 80 bits of digits
// are a token.
func randomDigits(v string) bool {
	return len(v) >= 24 && allBytes(v, isDigit) && distinct(v) >= 6
}

// hasAlnum reports whether v holds a letter or a digit of any script: punctuation alone (",.:-¨@*¿?!") is
// prose around a name, not a password.
func hasAlnum(v string) bool {
	for _, r := range v {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// randomLetters reports whether v, letters with at most an _, - or . between them, is random rather than a word or
// a name in code: twelve letters or more, upper case between a fifth and four fifths of them, a lower-case
// letter standing alone between two capitals (JyD, cX), and the case changing at a third of the positions or
// more. CamelCase names start words with a capital and go on in lower case (getHTTPSConnection,
// XMLHttpRequest); a generator draws each letter's case by chance.
func randomLetters(v string) bool {
	letters, upper, switches, lone := 0, 0, 0, false
	var p1, p2 byte // the two letters before, separators skipped
	for i := 0; i < len(v); i++ {
		c := v[i]
		isUp, isLow := 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z'
		if !isUp && !isLow {
			if c != '_' && c != '-' && c != '.' || i == 0 || !isAlnum(v[i-1]) {
				return false
			}
			continue
		}
		letters++
		if isUp {
			upper++
			if p1 >= 'a' && p2 != 0 && p2 <= 'Z' {
				lone = true
			}
		}
		if p1 != 0 && (p1 <= 'Z') != isUp {
			switches++
		}
		p2, p1 = p1, c
	}
	return letters >= 12 && 5*upper >= letters && 5*upper <= 4*letters && lone && 3*switches >= letters-1
}

// loneJWTHeader reports whether v is a JWT's header alone, with no payload or signature after it
// (eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9): the algorithm and type every token of an issuer shares, public
// by design.
func loneJWTHeader(v string) bool {
	return strings.HasPrefix(v, "eyJ") && strings.IndexByte(v, '.') < 0 && jwtHeader(v)
}

// isVersion reports whether v is a version number: 1.4, v2.3.1, 2.0.0-beta.2, v1.2.3+build.7.
func isVersion(v string) bool {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "v"), "V")
	core, suffix, _ := strings.Cut(v, "-")
	if k := strings.IndexByte(core, '+'); k >= 0 {
		core, suffix = core[:k], core[k+1:]
	}
	if strings.IndexByte(core, '.') < 0 {
		return false // one part
	}
	for p := range strings.SplitSeq(core, ".") {
		if p == "" || !allBytes(p, func(c byte) bool { return '0' <= c && c <= '9' }) {
			return false
		}
	}
	return allBytes(suffix, func(c byte) bool { return isAlnum(c) || c == '.' || c == '-' || c == '+' }) && len(suffix) <= 16
}

// isCoordinate: Maven-style coordinates, group:artifact[:packaging]:version or artifact-version, which name a
// library: io.jsonwebtoken:jjwt-api:0.11.5, org.slf4j.slf4j-api:jar:1.7.8:compile, jjwt-jackson-0.11.2.
func isCoordinate(v string) bool {
	parts := strings.Count(v, ":") + 1
	if parts >= 2 && parts <= 5 {
		version := false
		for i, rest := 0, v; i < parts; i++ {
			p, after, _ := strings.Cut(rest, ":")
			rest = after
			if p == "" || !allBytes(p, func(c byte) bool { return isWordByte(c) || c == '.' || c == '-' }) {
				return false
			}
			// The version, or a scope after it.
			version = version || i > 0 && '0' <= p[0] && p[0] <= '9' && strings.IndexByte(p, '.') >= 0
		}
		return version
	}
	// artifact-1.2.3
	k := strings.LastIndexByte(v, '-')
	return parts == 1 && k > 0 && isWordish(v[:k]) && strings.IndexByte(v[k+1:], '.') >= 0 && isDigitish(v[k+1:])
}

// strongValue is the bar for values next to a weaker signal, such as a name in prose ("the password is …"):
// at least 8 characters drawn from at least three of lower case, upper case, digits and symbols.
func strongValue(v string) bool {
	if len(v) < 8 || utf8.RuneCountInString(v) < 8 {
		return false
	}
	// The cheap test first: most values in prose are words.
	if n, _, _, _, _ := classes(v); n < 3 {
		return false
	}
	return credentialValue(v)
}

// hyphenCompound reports whether v is words and numbers joined by hyphens, each changing between letters and
// digits at most once: OAuth2-based, read-only-v2, TLS-1-3. In a sentence that is a compound word.
// compoundParts returns the parts of v joined by the first of - _ . + in it, when there are three parts or more,
// none empty and none joined by another separator; else nil.
func compoundParts(v string) []string {
	sep := strings.IndexAny(v, "-_.+")
	if sep < 0 {
		return nil
	}
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == rune(v[sep]) })
	if len(parts) < 3 || strings.Count(v, v[sep:sep+1]) != len(parts)-1 {
		return nil
	}
	return parts
}

// passphrase reports whether v is words and a number joined by hyphens, underscores, dots or pluses, as
// generated passphrases are (Meadow-thistle-87, river_falcon_66, Glacier.Cinder.24): three parts or more, at
// least two of them words of three letters or more that are not an acronym, and one of them all digits. A
// compound word has no such shape (OAuth2-based, read-only-v2, TLS-1-3, db-replica-2, Corp-Guest-3F).
func passphrase(v string) bool {
	parts := compoundParts(v)
	if parts == nil {
		return false
	}
	words, numbers := 0, 0
	for _, p := range parts {
		switch {
		case allBytes(p, func(c byte) bool { return '0' <= c && c <= '9' }):
			numbers++
		case len(p) >= 3 && allBytes(p, func(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }) && strings.ToUpper(p) != p:
			words++
		default:
			return false
		}
	}
	return words >= 2 && numbers >= 1
}

func hyphenCompound(v string) bool {
	if strings.IndexByte(v, '-') < 0 || !allBytes(v, func(c byte) bool { return isAlnum(c) || c == '-' }) {
		return false
	}
	for part := range strings.SplitSeq(v, "-") {
		switches := 0
		for i := 1; i < len(part); i++ {
			if ('0' <= part[i] && part[i] <= '9') != ('0' <= part[i-1] && part[i-1] <= '9') {
				switches++
			}
		}
		if switches > 1 {
			return false
		}
	}
	return true
}

// randomValue reports whether v looks machine-generated: long enough and high in entropy for its alphabet,
// and not filler (the hex digits in order, 0123456789abcdef, as documentation writes a key).
func randomValue(v string) bool {
	if isPlaceholder(v) || isUUID(v) || isIdentifier(v) || isFiller(v) {
		return false
	}
	if isHex(v) {
		return len(v) >= 32 && entropy(v) >= 3.0
	}
	if len(v) < 16 || strings.ContainsAny(v, " \t") {
		return false
	}
	n, _, _, _, _ := classes(v)
	if n < 2 || isDotted(v) || isPath(v) {
		return false
	}
	limit := 3.5
	if len(v) < 24 {
		limit = 3.2
	}
	return entropy(v) >= limit
}

// ---- names ------------------------------------------------------------------------------------------------

type nameKind int

const (
	nameNone nameKind = iota
	nameCredential
	nameKeyLike
)

// lexicon holds the word lists that classify names. It is built on first use, like the rules.
type lexicon struct {
	// classes holds, for every word of the lists below ([passwordWords] to [llmWords]), the lists it is in:
	// [classifyName] looks a word up once instead of once per list.
	classes map[string]wordClass
	// marks finds placeholderMarks (those of two bytes or more) in one pass.
	marks *automaton
}

var lex = sync.OnceValue(newLexicon)

// placeholderAutomaton returns the matcher for placeholderMarks of two bytes or more: the generated table
// unless the marks changed since it was generated.
func placeholderAutomaton() *automaton {
	if slices.Equal(placeholderMarks, tablePlaceholderMarks) {
		return &placeholderTable
	}
	return buildAutomaton(markWords(), false)
}

// markWords lists the placeholderMarks of two bytes or more.
func markWords() []string {
	var marks []string
	for _, m := range placeholderMarks {
		if len(m) >= 2 {
			marks = append(marks, m)
		}
	}
	return marks
}

// wordClass is a set of the lexicon's word lists.
type wordClass uint8

const (
	inPassword wordClass = 1 << iota
	inToken
	inKey
	inCredQualifier
	inKeyQualifier
	inNotSecretLast
	inNotSecretAny
	inLLM
)

// passwordWords name a password in any of the supported languages.
var passwordWords = []string{
	"password", "passwd", "pwd", "pass", "passphrase", "passcode",
	"contraseña", "contrasena", "contrasenya", "passwort", "kennwort",
	"senha", "motdepasse", "mdp", "clave", "psk", "pw",
	// pass glued to what it opens, as keytool's flags and shell variables write it (bypass and compass are words)
	"storepass", "keypass", "srcstorepass", "deststorepass", "srckeypass", "destkeypass", "truststorepass",
	"keystorepass", "rootpass", "adminpass", "dbpass", "sudopass", "userpass", "masterpass", "mailpass",
	"smtppass", "ftppass", "vncpass",
}

// tokenWords name a token or another API credential.
var tokenWords = []string{
	"token", "authtoken", "accesstoken", "apitoken", "refreshtoken",
	"bearertoken", "pat", "apikey", "credential", "credentials", "creds", "authtok",
	"clientsecret", "appsecret", "privatetoken",
}

// keyWords name key material.
var keyWords = []string{"secretkey", "hmac", "hmackey", "signingkey", "salt", "pepper"}

// notSecretLast end names that describe a secret without holding one (password_file, token_ttl, secret_arn).
var notSecretLast = []string{
	"id", "ids", "arn", "name", "names", "file", "files", "path",
	"dir", "url", "uri", "endpoint", "host", "length", "len",
	"min", "max", "size", "count", "ttl", "expiry", "expires",
	"expiration", "expire", "expired", "timeout", "type", "kind",
	"ref", "env", "var", "variable", "field", "hash", "hashed",
	"digest", "hasher", "hashers", "algo", "policy", "reset", "prompt", "hint", "required",
	"enabled", "enable", "disabled", "rotation", "rotate", "header",
	"param", "prefix", "suffix", "format", "regex", "pattern",
	"mode", "source", "provider", "manager", "store", "version",
	"label", "description", "desc", "help", "placeholder", "example",
	"strength", "changed", "updated", "created", "at", "date",
	"time", "age", "limit", "budget", "usage", "used", "index",
	"fingerprint", "location", "stdin", "command", "cmd", "uuid",
	"validator", "validation", "check", "valid", "exists", "present",
	"bytes", "bits", "algorithm", "alg", "method", "scheme",
	"sha", "md5", "secretref", "keyref", "refs", "hashes", "list",
	"input", "output", "selector", "mount", "volume",
	"backend", "engine", "class", "option", "options", "flag",
	"test", "tests", "table", "panic", "error", "err", "msg",
	"message", "size1024", "len1024",
}

// notSecretAny anywhere in a name mean it holds public material or counts LLM tokens.
var notSecretAny = []string{
	"public", "jsonwebtoken", "pub", "publishable", "tokens", "tokenizer", "tokenize", "authenticity",
	"tokenized", "tokenization", "next", "page",
	"pagination", "cursor", "continuation", "sync",
}

// llmWords next to "token" mean a count of model tokens.
var llmWords = []string{
	"max", "min", "num", "number", "total", "count", "limit",
	"budget", "input", "output", "prompt", "completion", "context",
	"usage", "cache", "cached", "embedding", "llm", "per", "rate",
	"remaining", "used", "window", "estimate", "estimated", "reasoning",
}

func newLexicon() *lexicon {
	lists := []struct {
		words []string
		class wordClass
	}{
		{passwordWords, inPassword}, {tokenWords, inToken}, {keyWords, inKey},
		// Qualifiers make "key" or "secret" name an API credential, or key material judged by entropy.
		{credentialKeyQualifiers, inCredQualifier}, {materialKeyQualifiers, inKeyQualifier},
		{notSecretLast, inNotSecretLast}, {notSecretAny, inNotSecretAny}, {llmWords, inLLM},
	}
	n := 0
	for _, l := range lists {
		n += len(l.words)
	}
	lx := &lexicon{marks: placeholderAutomaton(), classes: make(map[string]wordClass, n)}
	for _, l := range lists {
		for _, w := range l.words {
			lx.classes[w] |= l.class
		}
	}
	return lx
}

// words splits an identifier into lower-cased words at _, -, ., spaces, quotes, brackets and camelCase
// boundaries. The words are substrings of one lower-cased copy of name, held in buf when they fit.
func words(name string, buf *[16]string) []string {
	out := buf[:0]
	low := strings.ToLower(name)
	if len(low) != len(name) {
		low = name // lower-casing changed byte lengths (rare scripts): compare as written
	}
	if ascii(name) {
		return asciiWords(name, low, out)
	}
	return runeWords(name, low, out)
}

// runeWords is [words] for any name; low is name lower-cased, or name itself when that changes its length.
func runeWords(name, low string, out []string) []string {
	start := 0
	prev := rune(-1)
	for i, r := range name {
		switch r {
		case '_', '-', '.', ' ', '[', ']', '"', '\'':
			if i > start {
				out = append(out, low[start:i])
			}
			start = i + 1
			prev = r
			continue
		}
		if i > start && unicode.IsUpper(r) {
			next, _ := utf8.DecodeRuneInString(name[i+utf8.RuneLen(r):])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && unicode.IsLower(next)) {
				out = append(out, low[start:i])
				start = i
			}
		}
		prev = r
	}
	if start < len(name) {
		out = append(out, low[start:])
	}
	return out
}

// asciiWords is [words] for a name of ASCII bytes only, a byte at a time; low is name lower-cased.
func asciiWords(name, low string, out []string) []string {
	isUpper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	isLower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	start := 0
	var prev byte // none before the first byte: neither a letter nor a digit
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch c {
		case '_', '-', '.', ' ', '[', ']', '"', '\'':
			if i > start {
				out = append(out, low[start:i])
			}
			start = i + 1
			prev = c
			continue
		}
		if i > start && isUpper(c) {
			var next byte
			if i+1 < len(name) {
				next = name[i+1]
			}
			if isLower(prev) || '0' <= prev && prev <= '9' || isUpper(prev) && isLower(next) {
				out = append(out, low[start:i])
				start = i
			}
		}
		prev = c
	}
	if start < len(name) {
		out = append(out, low[start:])
	}
	return out
}

// ascii reports whether s is ASCII only.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// classifyName tells whether an identifier names a credential (password, token, API key), key material
// (secret key, HMAC key), or neither.
func classifyName(name string) nameKind {
	lx := lex()
	var buf [16]string
	ws := words(name, &buf)
	for i := 0; i+2 < len(ws); i++ {
		if ws[i] == "mot" && ws[i+1] == "de" && ws[i+2] == "passe" {
			return nameCredential
		}
	}
	if len(ws) == 0 {
		return nameNone
	}
	var cbuf [16]wordClass
	cs := cbuf[:0] // cs[i]: the lists that hold ws[i]
	for _, w := range ws {
		cs = append(cs, lx.classes[w])
	}
	if cs[len(cs)-1]&inNotSecretLast != 0 {
		return nameNone
	}
	if len(ws) == 1 && (ws[0] == "pass" || ws[0] == "pwd" || ws[0] == "pw") {
		return nameNone // PASS: in test output, PWD= the working directory
	}

	cred, key := false, false
	var prev wordClass // the lists that hold the word before w
	for i, w := range ws {
		c := cs[i]
		if c&inNotSecretAny != 0 || strings.Contains(w, "csrf") || strings.Contains(w, "xsrf") {
			return nameNone
		}
		switch {
		case c&inPassword != 0 || strings.Contains(w, "password") || strings.Contains(w, "passwd") ||
			strings.Contains(w, "passwort") || strings.Contains(w, "contrase"):
			cred = true
		case c&inToken != 0 || strings.HasSuffix(w, "token") || strings.HasSuffix(w, "apikey"):
			for _, o := range cs {
				if o&inLLM != 0 {
					return nameNone
				}
			}
			cred = true
		case c&inKey != 0:
			key = true
		case w == "key" || w == "secret":
			switch {
			case prev&inCredQualifier != 0:
				cred = true
			case prev&inKeyQualifier != 0 || w == "secret":
				key = true
			}
		}
		prev = c
	}
	switch {
	case cred:
		return nameCredential
	case key:
		return nameKeyLike
	case len(ws) >= 2 && ws[len(ws)-1] == "auth":
		return nameCredential // REDISCLI_AUTH, NPM_AUTH: what the variable holds is the credential
	}
	return nameNone
}

// ---- assignments ------------------------------------------------------------------------------------------

// assignment is a credential-looking name followed by a value.
type assignment struct {
	nameStart, nameEnd   int
	value                span
	quoted, prose, comma bool // comma: a bare value ended at a comma
}

// isNameByte is isNameRune for an ASCII byte.
func isNameByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' }

func isNameRune(r rune) bool {
	return r == '_' || r == '-' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// parseAssignment reads the assignment around the keyword at text[at:at+n]: the identifier that contains it,
// a separator (=, :, :=, =>, a flag's space, a prose "is"), and the value after it, which may be quoted, bare,
// or on the next, more indented line (YAML).
func parseAssignment(text string, at, n int) (assignment, bool) {
	var a assignment
	ns := at
	for ns > 0 && at-ns < maxName {
		if c := text[ns-1]; c < utf8.RuneSelf {
			// ASCII, nearly every byte of a name, without decoding it.
			if !isNameByte(c) {
				break
			}
			ns--
			continue
		}
		r, size := utf8.DecodeLastRuneInString(text[:ns])
		if !isNameRune(r) {
			break
		}
		ns -= size
	}
	ne := at + n
	for ne < len(text) && ne-at < maxName {
		if c := text[ne]; c < utf8.RuneSelf {
			if !isNameByte(c) {
				break
			}
			ne++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[ne:])
		if !isNameRune(r) {
			break
		}
		ne += size
	}
	// Names end at a trailing dot or dash ("password." ends a sentence).
	for ne > at+n && (text[ne-1] == '.' || text[ne-1] == '-') {
		ne--
	}
	a.nameEnd = ne
	flag := 0
	for ns < at && text[ns] == '-' {
		ns++
		flag++
	}
	if flag == 0 && ns > 0 {
		// ${NAME} and %NAME% are references; NAME.x is a member access handled by the value check.
		switch text[ns-1] {
		case '{', '%':
			if text[ns-1] == '%' || (ns > 1 && text[ns-2] == '$') {
				return a, false
			}
		}
	}
	// A qualifier written as a separate word belongs to the name in prose: "the client secret was …".
	if ns > 1 && text[ns-1] == ' ' {
		q := ns - 1
		for q > 0 && ns-1-q < 16 && 'a' <= text[q-1]|0x20 && text[q-1]|0x20 <= 'z' {
			q--
		}
		var buf [16]byte
		if lex().classes[string(appendLower(buf[:0], text[q:ns-1]))]&inCredQualifier != 0 && (q == 0 || !isWordByte(text[q-1])) {
			ns = q
		}
	}
	a.nameStart, a.nameEnd = ns, ne
	i := ne
	// Closing quote or bracket of a key: "password": …, ENV['TOKEN'] = …, \"token\": … in escaped JSON.
	// The name's opening quote stands before its flag dashes: ["--password", "…"].
	quotedName := ns-flag > 0 && (text[ns-flag-1] == '"' || text[ns-flag-1] == '\'')
	for i < len(text) && i-ne < 4 && (text[i] == '"' || text[i] == '\'' || text[i] == ']' || text[i] == '`' || text[i] == '\\') {
		i++
	}
	closed := i > ne
	i = skipBlanks(text, i)
	// An XML or config attribute pair: <add key="ApiToken" value="…" />.
	if closed && quotedName && len(text)-i > 6 && equalFoldASCII(text[i:i+6], "value=") && attributeKey(text, ns-flag-1) {
		i += 5
	}
	// A type between the name and the operator: Go's var token string = "…", Kotlin's val token: String = "…".
	if j := skipType(text, i); j > i {
		i = j
	}
	sep := ""
	switch {
	case strings.HasPrefix(text[i:], ":::="):
		sep = text[i : i+4]
	case strings.HasPrefix(text[i:], "::="):
		sep = text[i : i+3]
	case strings.HasPrefix(text[i:], ":="), strings.HasPrefix(text[i:], "=>"), strings.HasPrefix(text[i:], "?="),
		strings.HasPrefix(text[i:], "+="), strings.HasPrefix(text[i:], ".="):
		sep = text[i : i+2]
	case strings.HasPrefix(text[i:], "=="), strings.HasPrefix(text[i:], "::"):
		return a, false
	case i < len(text) && (text[i] == '=' || text[i] == ':'):
		sep = text[i : i+1]
	case i < len(text) && text[i] == ',' && closed && quotedName:
		// A name and a value as a call's arguments: System.setProperty("TOKEN", "…"), os.Setenv("TOKEN", "…").
		j := skipBlanks(text, i+1)
		if j >= len(text) || (text[j] != '"' && text[j] != '\'') {
			return a, false
		}
		sep = ","
	case i == ne && i+1 < len(text) && text[i] == ',' && !isSpaceByte(text[i+1]) && ns == lineStart(text, ns, maxName):
		// A CSV row: name,value,
		sep = ","
	case closed && quotedName && i < len(text) && text[i] == '{' && terraformVariable(text, ns-flag-1):
		// A Terraform variable named for a credential: its default is the value.
		return terraformDefault(text, i+1, a)
	case flag > 0 && i > ne && i < len(text) && text[i] != '\n':
		sep = " "
	case i == ne && i < len(text) && text[i] == '>' && ns > 0 && text[ns-1] == '<':
		// XML element: <password>value</password>, also with the value on a line of its own.
		j := i + 1
		// The value ends at the element's own closing tag: a < inside it is a character of the password.
		k := strings.Index(text[j:min(len(text), j+maxValue)], "</"+text[ns:ne]+">")
		if k <= 0 {
			return a, false
		}
		vs, ve := j, j+k
		for vs < ve && isSpaceByte(text[vs]) {
			vs++
		}
		for ve > vs && isSpaceByte(text[ve-1]) {
			ve--
		}
		if vs >= ve || strings.IndexByte(text[vs:ve], '\n') >= 0 {
			return a, false
		}
		a.value, a.quoted = span{vs, ve}, true
		return a, true
	case i > ne && i < len(text) && (text[i] == '"' || text[i] == '\'') && strings.TrimSpace(text[lineStart(text, ns, 64):ns]) == "#define":
		// A C macro: #define DEVICE_SECRET "…"
		sep = " "
	case i > ne && i < len(text) && text[i] != '\n' && nameValueCommand(text, ns):
		// A command that takes a name and a value as words: fish's set -x NAME value, aws configure set NAME
		// value, a .netrc's password value.
		sep = " "
	default:
		// Prose: "the password is …", "admin password is now …", "the API token for the billing service is …",
		// "with password …", "the SFTP password (…)".
		a.prose = true
		vs := proseValue(text, ns, ne)
		if vs < 0 {
			// "… with X as the password", "it took 'X' as the elastic user's password".
			v, quoted, ok := valueBefore(text, ns)
			if !ok {
				return a, false
			}
			a.value, a.quoted = v, quoted
			return a, true
		}
		a, ok := readValue(text, vs, a)
		// A user and a password: "Basic auth on staging is qa / …".
		if e := a.value.end; ok && !proseStrong(text[a.value.start:e]) && strings.HasPrefix(text[e:], " / ") {
			if b, ok := readValue(text, e+3, a); ok && proseStrong(text[b.value.start:b.value.end]) {
				return b, true
			}
		}
		return a, ok
	}
	if sep != " " {
		i += len(sep)
	}
	i = skipBlanks(text, i)
	if i < len(text) && (text[i] == '|' || text[i] == '>') && sep == ":" {
		// YAML block scalar: the value is the next line.
		j := skipBlanks(text, i+1)
		for j < len(text) && (text[j] == '-' || text[j] == '+') {
			j++
		}
		j = skipBlanks(text, j)
		if j < len(text) && text[j] != '\n' && text[j] != '\r' {
			return a, false
		}
		i = j
	}
	if strings.HasPrefix(text[i:], "<<") && sep != " " {
		// A heredoc (Terraform's <<EOT, a shell's <<EOF) whose body is one line: that line is the value.
		if vs, ok := heredocBody(text, i); ok {
			return readValue(text, vs, a)
		}
		return a, false
	}
	if i >= len(text) || text[i] == '\n' || text[i] == '\r' {
		if sep != ":" {
			return a, false
		}
		// YAML: the value sits on the next line, indented further than the key.
		keyIndent := indentOf(text, lineStart(text, ns, 256))
		if i < len(text) && text[i] == '\r' {
			i++
		}
		if i >= len(text) {
			return a, false
		}
		next := i + 1
		if indentOf(text, next) <= keyIndent {
			return a, false
		}
		vs := skipBlanks(text, next)
		ve := lineEnd(text, vs, maxValue)
		line := strings.TrimRight(text[vs:ve], " \t\r")
		if line == "" || strings.ContainsAny(line, " \t") || strings.HasSuffix(line, ":") || strings.HasPrefix(line, "- ") {
			return a, false
		}
		return readValue(text, vs, a)
	}
	if sep == " " && i < len(text) && text[i] == '-' {
		return a, false // the next flag, not a value
	}
	a, ok := readValue(text, i, a)
	if sep == "," {
		a.comma = false // the comma after a CSV field or an argument ends the value, not an identifier
	}
	return a, ok
}

// heredocBody returns where the body of the heredoc opened by the << at text[i] starts, when the body is
// one line and the delimiter word (EOT, EOF, END…) closes it on the next.
func heredocBody(text string, i int) (int, bool) {
	j := i + 2
	if j < len(text) && (text[j] == '-' || text[j] == '~') {
		j++
	}
	d := j
	for j < len(text) && (isAlnum(text[j]) || text[j] == '_') {
		j++
	}
	delim := text[d:j]
	if delim == "" || j-d > 16 {
		return 0, false
	}
	j = skipBlanks(text, j)
	if j < len(text) && text[j] == '\r' {
		j++
	}
	if j >= len(text) || text[j] != '\n' {
		return 0, false
	}
	vs := skipBlanks(text, j+1)
	ve := lineEnd(text, vs, maxValue)
	next := nextLine(text, ve)
	if ve == vs || next == 0 || strings.TrimSpace(text[next:lineEnd(text, next, 64)]) != delim {
		return 0, false
	}
	return vs, true
}

// terraformVariable reports whether the quote at text[q] opens the name of a Terraform variable block.
func terraformVariable(text string, q int) bool {
	ls := lineStart(text, q, 64)
	return strings.TrimSpace(text[ls:q]) == "variable"
}

// terraformDefault reads the default = … of the variable block whose body starts at text[i]; the block ends
// at its closing brace, and no more than 512 bytes are read.
func terraformDefault(text string, i int, a assignment) (assignment, bool) {
	end := min(len(text), i+512)
	if k := strings.Index(text[i:end], "\n}"); k >= 0 {
		end = i + k
	}
	for j := i; j < end; {
		le := lineEnd(text, j, end-j)
		line := text[j:le]
		t := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(t, "default") {
			k := j + len(line) - len(t) + len("default")
			k = skipBlanks(text, k)
			if k < le && text[k] == '=' && !strings.HasPrefix(text[k:], "==") {
				return readValue(text, skipBlanks(text, k+1), a)
			}
		}
		j = le + 1
	}
	return a, false
}

// proseCopulas join a credential's name to its value in a sentence; proseAdverbs may follow them. Each ends
// with the blank before the value.
var (
	proseCopulas = []string{"is ", "was ", "are ", "were ", "has been ", "will be ", "= ", ": ", "-> ", "→ ", "=> ",
		"changed to ", "set to ", "reset to ", "updated to ", "rotated to ", "now ", "es ", "ist ", "est ", "é ", "lautet "}
	proseAdverbs = []string{"now ", "still ", "currently ", "temporarily ", "just ", "changed to ", "set to ", "reset to ",
		"updated to ", "rotated to ", "now set to ", "now changed to ",
		// "now" in the languages of the copulas above: lautet jetzt …, est désormais …, es ahora …
		"jetzt ", "nun ", "désormais ", "maintenant ", "ahora ", "agora "}
	// prosePrepositions open a short phrase between the name and its copula: "the token for the billing service is".
	prosePrepositions = []string{"for ", "of ", "on ", "in ", "to ", "at ",
		// in the languages of the copulas: das WLAN-Passwort für das Testlabor ist …, le mot de passe du serveur est …
		"für ", "vom ", "von ", "der ", "des ", "pour ", "du ", "para ", "del ", "per ", "voor "}
	// proseLeads before a name make the next word its value: "logged in with password …", "user x, password …".
	proseLeads = []string{"with", "using", "via", "and", "plus", "use", "enter", "try", "new", "temporary", "temp", "initial", "default", "one-time",
		"has", "have", "had", "got"}
)

// proseValue returns where the value of the credential name text[ns:ne] starts in a sentence, or -1: after a
// copula ("is", "is now", "was changed to", "→"), also past a short prepositional phrase; inside parentheses
// right after the name; or right after the name when it follows "with", "using", a comma or a semicolon. The
// value itself is judged by [strongValue].
func proseValue(text string, ns, ne int) int {
	if ne+1 < len(text) && text[ne] == ',' && text[ne+1] == ' ' {
		// An apposition: "the db password, Xy7#kq2Lm, expires Friday".
		return ne + 2
	}
	if ne >= len(text) || text[ne] != ' ' {
		return -1
	}
	if ne+1 < len(text) && text[ne+1] == '(' {
		// A phrase in parentheses is an aside, and the copula follows it: "the keystore passphrase (needed for
		// signing) is …". Otherwise the parentheses hold the value: "the SFTP password (…)".
		if k := strings.IndexByte(text[ne+1:], ')'); k > 0 && strings.IndexByte(text[ne+1:ne+1+k], ' ') > 0 &&
			ne+k+2 < len(text) && text[ne+k+2] == ' ' {
			return proseValue(text, ns, ne+k+2)
		}
		return ne + 2
	}
	if ne+1 < len(text) && strings.IndexByte("`\"'", text[ne+1]) >= 0 {
		// In quotes right after the name: "password `…`".
		return ne + 1
	}
	_, copula := prefixFold(text[ne+1:], proseCopulas)
	if copula == 0 && strongAt(text, ne+1) && proseLead(text, ns) {
		// "with password …"; but "the new passphrase is …" has its copula, and in "and the passphrase they
		// use is …" the next word is not the value. The value is judged before the words that lead to the
		// name: few words after a name are strong.
		return ne + 1
	}
	i := ne + 1
	if hasPrefixFold(text[i:], "to ") && setVerbBefore(text, ns) {
		// "I set the SFTP user's password to …".
		return skipBlanks(text, i+3)
	}
	if _, k := prefixFold(text[i:], prosePrepositions); k > 0 {
		// At most four short words of letters and digits: "for the billing service".
		j := i + k
		for w := 0; w < 4; w++ {
			if _, c := prefixFold(text[j:], proseCopulas); w > 0 && (c > 0 || wrappedAfter(text, j, proseCopulas) > 0) {
				break
			}
			if w > 0 && hasPrefixFold(text[j:], "to ") && setVerbBefore(text, ns) {
				// "I reset the Redis AUTH on cache-2 to …".
				return skipBlanks(text, j+3)
			}
			e := j
			// Words, host and file names: "for release.jks", "on staging.acme.dev"; letters of other scripts
			// too ("in Köln"), but no typographic dash or quote (UTF-8's 0xe2 block).
			for e < len(text) && e-j < 32 && (isAlnum(text[e]) || text[e] >= 0x80 && text[e] != 0xe2 || text[e] == '-' || text[e] == '_' || text[e] == '.' && e+1 < len(text) && isAlnum(text[e+1])) {
				e++
			}
			if e > j && e < len(text) && text[e] == ':' {
				j = e // "password for user deploy: …"
				break
			}
			// A line break between the words goes on with the phrase when the next line does not open a list, a
			// quote or a block: "the password for the reporting⏎user is …".
			if e == j || e+1 >= len(text) || text[e] != ' ' && (text[e] != '\n' || isSpaceByte(text[e+1]) ||
				strings.IndexByte("-*+#>|`", text[e+1]) >= 0) {
				return clauseValue(text, ne+1)
			}
			j = e + 1
		}
		i = j
	}
	c := copula // right after the name unless a phrase came first
	if i != ne+1 {
		_, c = prefixFold(text[i:], proseCopulas)
	}
	if c == 0 {
		if k := wrappedAfter(text, i, proseCopulas); k > 0 {
			return k // "the shared secret for signing URLs is⏎…"
		}
		return clauseValue(text, ne+1)
	}
	i += c
	if _, c := prefixFold(text[i:], proseAdverbs); c > 0 {
		i += c
	} else if k := wrappedAfter(text, i, proseAdverbs); k > 0 {
		return k // "the password is now⏎…"
	}
	return skipBlanks(text, i)
}

// wrappedAfter returns where the next line starts when text[i:] is one of words (each ending in a space) that
// ends its line after a blank, and the next line goes on with the value rather than opening a list, a quote,
// a heading, a table or a code block; otherwise 0. A sentence wrapped after its copula gives its value on the
// next line as it would on the same one.
func wrappedAfter(text string, i int, words []string) int {
	// Most phrases go on on their line: look for its end first, then for a word that fills the bytes before it.
	k := strings.IndexByte(text[i:min(len(text), i+16)], '\n')
	if k <= 0 || i == 0 || text[i-1] != ' ' {
		return 0
	}
	k += i
	if k+1 >= len(text) || isSpaceByte(text[k+1]) || strings.IndexByte("-*+#>|", text[k+1]) >= 0 || strings.HasPrefix(text[k+1:], "```") {
		return 0
	}
	for _, w := range words {
		if len(w)-1 == k-i && w[len(w)-1] == ' ' && equalFoldASCII(text[i:k], w[:len(w)-1]) {
			return k + 1
		}
	}
	return 0
}

// proseLead reports whether the name starting at text[ns] follows a word of [proseLeads], a comma or a semicolon.
func proseLead(text string, ns int) bool {
	j := ns
	for j > 0 && text[j-1] == ' ' {
		j--
	}
	if j == ns || j == 0 {
		return false
	}
	if text[j-1] == ',' || text[j-1] == ';' || userNamed(text, ns) {
		return true
	}
	k := j
	for k > 0 && j-k < 10 && ('a' <= text[k-1]|0x20 && text[k-1]|0x20 <= 'z' || text[k-1] == '-') {
		k--
	}
	if k > 0 && isWordByte(text[k-1]) {
		return false
	}
	for _, w := range proseLeads {
		if j-k == len(w) && equalFoldASCII(text[k:j], w) {
			return true
		}
	}
	// An article or a possessive between them: "with the password …", "using our token …".
	for _, w := range proseArticles {
		if j-k == len(w) && equalFoldASCII(text[k:j], w) && k > 0 && text[k-1] == ' ' {
			return proseLead(text, k)
		}
	}
	return false
}

// proseArticles may stand between a word of [proseLeads] and a credential's name.
var proseArticles = []string{"the", "a", "an", "that", "this", "my", "our", "your", "their", "its"}

// setVerbs, before a name in the same clause, make "to" its copula: "set the SFTP password to …".
var setVerbs = []string{"set", "reset", "changed", "change", "rotated", "rotate", "updated", "update"}

// setVerbBefore reports whether a word of [setVerbs] stands before the name at text[ns] in its clause, at most
// six words back.
func setVerbBefore(text string, ns int) bool {
	j := ns
	for w := 0; w < 6 && j > 0; w++ {
		for j > 0 && text[j-1] == ' ' {
			j--
		}
		k := j
		for k > 0 && j-k < 16 && (isAlnum(text[k-1]) || text[k-1] == '\'' || text[k-1] == '-') {
			k--
		}
		if k == j || k > 0 && text[k-1] != ' ' {
			return false
		}
		for _, v := range setVerbs {
			if j-k == len(v) && equalFoldASCII(text[k:j], v) {
				return true
			}
		}
		j = k
	}
	return false
}

// clauseValue returns where a value starts after a short clause that follows a credential's name and ends in
// "is" or "was": "the passphrase they use is …", "the pre-shared key they read out on the call was …". The
// clause is at most seven words of letters; every "is" or "was" in it is tried, and a value counts only when
// it is strong ([strongValue]), so that "the password the user chose was weak" is not one. It returns -1 when
// there is none.
func clauseValue(text string, i int) int {
	j := i
	// The rest of the name ("secret access key the lambda read is …"), then a relative clause's opening
	// word: "the password manager is 1Password" has none.
	for _, w := range []string{"access ", "key ", "keys "} {
		if hasPrefixFold(text[j:], w) {
			j += len(w)
		}
	}
	if _, c := prefixFold(text[j:], clauseOpeners); c == 0 {
		return -1
	}
	for w := 0; w < 8; w++ {
		if w > 0 {
			for _, cop := range clauseCopulas {
				if hasPrefixFold(text[j:], cop) {
					vs := skipBlanks(text, j+len(cop))
					if _, c := prefixFold(text[vs:], proseAdverbs); c > 0 {
						vs = skipBlanks(text, vs+c)
					}
					if strongAt(text, vs) {
						return vs
					}
				}
			}
		}
		e := j
		for e < len(text) && e-j < 16 && ('a' <= text[e]|0x20 && text[e]|0x20 <= 'z' || text[e] == '\'' || text[e] == '-') {
			e++
		}
		if e == j || e >= len(text) || text[e] != ' ' {
			return -1
		}
		j = e + 1
	}
	return -1
}

// userBefore reports whether the words "user", "username" or "login" stand in the 48 bytes of the line before
// text[ns], and a comma or semicolon right before it.
func userBefore(text string, ns int) bool {
	j := ns
	for j > 0 && text[j-1] == ' ' {
		j--
	}
	if j == 0 {
		return false
	}
	if text[j-1] != ',' && text[j-1] != ';' {
		return userNamed(text, ns)
	}
	ls := max(lineStart(text, ns, 48), ns-48)
	for _, w := range strings.FieldsFunc(text[ls:j], func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch strings.ToLower(w) {
		case "user", "username", "login":
			return true
		}
	}
	return false
}

// userNamed reports whether the two words before text[ns] name a user: "user deploy pass …".
func userNamed(text string, ns int) bool {
	// Back over blanks, the user's name, blanks, then the word before it.
	j := ns
	for j > 0 && text[j-1] == ' ' {
		j--
	}
	k := j
	for k > 0 && j-k < 64 && !isSpaceByte(text[k-1]) {
		k--
	}
	if k == j || k == 0 || text[k-1] != ' ' {
		return false
	}
	for k > 0 && text[k-1] == ' ' {
		k--
	}
	e := k
	for e > 0 && k-e < 10 && strings.IndexByte(":,;(", text[e-1]) >= 0 {
		e--
	}
	k = e
	for k > 0 && e-k < 10 && 'a' <= text[k-1]|0x20 && text[k-1]|0x20 <= 'z' {
		k--
	}
	if k > 0 && isWordByte(text[k-1]) {
		return false
	}
	for _, w := range []string{"user", "username", "login", "account"} {
		if e-k == len(w) && equalFoldASCII(text[k:e], w) {
			return true
		}
	}
	return false
}

// strongAt reports whether the value a sentence holds at text[i] is strong ([strongValue]).
func strongAt(text string, i int) bool {
	a, ok := readValue(text, i, assignment{prose: true})
	return ok && proseStrong(text[a.value.start:a.value.end])
}

// proseStrong is the bar for a value in a sentence: strong ([strongValue]) or machine-generated
// ([randomValue]), such as the 32 hex digits of a Jenkins admin password.
func proseStrong(v string) bool {
	return strongValue(v) || len(v) >= 16 && randomValue(v) || randomLetters(v)
}

// clauseOpeners open a relative clause after a name: "the passphrase they use is …".
var clauseOpeners = []string{"the ", "they ", "we ", "you ", "i ", "he ", "she ", "it ", "that ", "which ", "our ",
	"your ", "their ", "someone ", "ops ", "support "}

// clauseCopulas end the clause [clauseValue] reads.
var clauseCopulas = []string{"is ", "was ", "is now ", "was now "}

// valueBefore reads a value written before the credential name at text[ns] in a sentence: "… with X as the
// password", "it took \"X\" as the elastic user's password". At most three words may stand between "as
// the" and the name. The value is judged by the caller.
func valueBefore(text string, ns int) (span, bool, bool) {
	j := ns
	for w := 0; w < 4; w++ {
		for _, as := range []string{" as the ", " as a ", " as "} {
			if j >= len(as) && equalFoldASCII(text[j-len(as):j], as) {
				return tokenBefore(text, j-len(as))
			}
		}
		if j == 0 || text[j-1] != ' ' {
			return span{}, false, false
		}
		k := j - 1
		for k > 0 && j-1-k < 16 && ('a' <= text[k-1]|0x20 && text[k-1]|0x20 <= 'z' || text[k-1] == '\'' || text[k-1] == '-') {
			k--
		}
		if k == j-1 {
			return span{}, false, false
		}
		j = k
	}
	return span{}, false, false
}

// tokenBefore returns the word or quoted string that ends at text[e], and whether it was quoted.
func tokenBefore(text string, e int) (span, bool, bool) {
	if e == 0 {
		return span{}, false, false
	}
	if q := text[e-1]; q == '"' || q == '\'' || q == '`' {
		k := strings.LastIndexByte(text[max(0, e-1-maxValue):e-1], q)
		if k < 0 {
			return span{}, false, false
		}
		s := max(0, e-1-maxValue) + k + 1
		if s >= e-1 || strings.IndexByte(text[s:e-1], '\n') >= 0 {
			return span{}, false, false
		}
		return span{s, e - 1}, true, true
	}
	s := e
	for s > 0 && e-s < maxValue && !isSpaceByte(text[s-1]) && text[s-1] != '(' {
		s--
	}
	if s == e {
		return span{}, false, false
	}
	return span{s, e}, false, true
}

// prefixFold returns the first of words that s begins with, ASCII case-insensitively, and its length.
func prefixFold(s string, words []string) (string, int) {
	for _, w := range words {
		if len(s) >= len(w) && lowerByte(s[0]) == w[0] && equalFoldASCII(s[:len(w)], w) { // the first byte rules out most
			return w, len(w)
		}
	}
	return "", 0
}

// nameValueCommand reports whether the name starting at text[ns] is the argument of a command that takes a
// name and then its value as separate words: set -x / set -gx (fish), setx (Windows), aws configure set,
// npm config set, or a .netrc line (machine … login … password …).
func nameValueCommand(text string, ns int) bool {
	ls := lineStart(text, ns, 128)
	pre := text[ls:ns]
	if strings.TrimSpace(pre) != "" && !strings.Contains(pre, "set") && !strings.Contains(pre, "machine") &&
		!strings.Contains(pre, "login") && !strings.Contains(pre, "default") {
		return false // the common case, without splitting the line
	}
	prefix := strings.Fields(pre)
	if len(prefix) == 0 {
		// A .netrc password on its own line, under a machine or login line.
		ps := lineStart(text, max(ls-1, 0), 256)
		first := firstField(text[ps:max(ls-1, ps)])
		return ls > 0 && (first == "login" || first == "machine" || first == "account")
	}
	switch p := prefix[0]; {
	case p == "machine" || p == "default":
		return len(prefix) >= 2
	case p == "login" && len(prefix) == 2:
		return true
	case p == "setx" && len(prefix) == 1:
		return true
	case p == "set":
		for _, f := range prefix[1:] {
			if f[0] != '-' {
				return false
			}
		}
		return true
	}
	n := len(prefix)
	return n >= 2 && prefix[n-1] == "set" && (prefix[n-2] == "configure" || prefix[n-2] == "config")
}

// firstField returns strings.Fields(s)[0], or "" when s has no field, without splitting all of s.
func firstField(s string) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i]
	}
	return s
}

// readValue reads a quoted or bare value starting at text[i].
func readValue(text string, i int, a assignment) (assignment, bool) {
	if i >= len(text) {
		return a, false
	}
	if text[i] == '\\' && i+1 < len(text) && text[i+1] == '"' {
		// A string inside an escaped string: \"value\"
		k := strings.Index(text[i+2:min(len(text), i+2+maxValue)], `\"`)
		if k <= 0 || strings.IndexByte(text[i+2:i+2+k], '\n') >= 0 {
			return a, false
		}
		a.value, a.quoted = span{i + 2, i + 2 + k}, true
		return a, true
	}
	if q := text[i]; q == '"' || q == '\'' || q == '`' {
		j := i + 1
		for j < len(text) && j-i < maxValue && text[j] != q && text[j] != '\n' {
			if text[j] == '\\' && q != '\'' {
				j++
			}
			j++
		}
		if j >= len(text) || text[j] != q {
			return a, false
		}
		a.value, a.quoted = span{i + 1, j}, true
		return a, true
	}
	j := i
	for j < len(text) && j-i < maxValue {
		if c := text[j]; c < utf8.RuneSelf {
			if c == ' ' || '\t' <= c && c <= '\r' || c == '"' || c == '\'' || c == '`' || c == '<' && j+1 < len(text) && text[j+1] == '/' {
				break
			}
			j++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[j:])
		if unicode.IsSpace(r) {
			break
		}
		j += size
	}
	// Trailing punctuation belongs to the surrounding code or sentence, unless it closes a bracket the value
	// opened: whsec_${WEBHOOK_SECRET} keeps its brace, and so stays a placeholder.
	for j > i && strings.IndexByte(",;)}]", text[j-1]) >= 0 && !closesOwnBracket(text[i:j]) {
		if text[j-1] == ',' {
			a.comma = true
		}
		j--
	}
	if a.prose {
		// A sentence's closing punctuation, ASCII or not (. : ” » 」), is not part of the value.
		for j > i {
			r, size := utf8.DecodeLastRuneInString(text[i:j])
			if r != '.' && r != ':' && !unicode.Is(unicode.Pf, r) && !unicode.Is(unicode.Pe, r) {
				break
			}
			j -= size
		}
	}
	if j <= i {
		return a, false
	}
	a.value = span{i, j}
	return a, true
}

// closesOwnBracket reports whether the last byte of v, a closing bracket, closes one opened inside v.
func closesOwnBracket(v string) bool {
	var open byte
	switch v[len(v)-1] {
	case ')':
		open = '('
	case '}':
		open = '{'
	case ']':
		open = '['
	case '>':
		open = '<'
	default:
		return false
	}
	return strings.Count(v, string(open)) >= strings.Count(v, v[len(v)-1:])
}

// attributeKey reports whether the quote at text[q] opens the value of a key= or name= attribute.
func attributeKey(text string, q int) bool {
	for _, k := range []string{"key=", "name="} {
		if q >= len(k) && equalFoldASCII(text[q-len(k):q], k) {
			return true
		}
	}
	return false
}

func isSpaceByte(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }

// skipType returns the position after a type written between a name and its operator (string, String, str,
// &str, : String), or i when there is none.
func skipType(text string, i int) int {
	j := i
	if j < len(text) && text[j] == ':' && !strings.HasPrefix(text[j:], ":=") && !strings.HasPrefix(text[j:], "::") {
		j = skipBlanks(text, j+1)
	}
	if j >= len(text) || strings.IndexByte("sS&[", text[j]) < 0 {
		return i // no type begins here: most names are followed by an operator or a blank
	}
	for _, t := range []string{"string", "String", "str", "&str", "&'static str", "[]byte"} {
		if strings.HasPrefix(text[j:], t) {
			k := skipBlanks(text, j+len(t))
			if k > j+len(t) && k < len(text) && text[k] == '=' && !strings.HasPrefix(text[k:], "==") {
				return k
			}
		}
	}
	return i
}

func skipBlanks(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i
}

func indentOf(text string, i int) int {
	return skipBlanks(text, i) - i
}

// findAssignment builds a matcher for names of the given kind, with check judging the value.
// Other keyword hits inside the same name are skipped: the name was judged once.
func findAssignment(kind nameKind, check func(v string, a assignment) bool) func(string, int, int) ([]span, int) {
	return func(text string, at, n int) ([]span, int) {
		if n == 4 && (at > 0 && isAlnum(text[at-1]) || at+4 < len(text) && isAlnum(text[at+4])) && equalFoldASCII(text[at:at+4], "auth") {
			return nil, 0 // inside a longer word (oauth, author, Authorization): another keyword names it if it is a credential
		}
		a, ok := parseAssignment(text, at, n)
		// Most prose values are words: judge the value before the name, which costs more.
		if ok && a.prose && !proseStrong(text[a.value.start:a.value.end]) {
			return nil, a.nameEnd
		}
		// A bare "auth" names a credential only in a sentence: "Redis auth is now …", not auth: required.
		proseAuth := ok && kind == nameCredential && a.prose && a.nameEnd-a.nameStart == 4 &&
			equalFoldASCII(text[a.nameStart:a.nameEnd], "auth")
		// A bare "pass" or "pwd" names a password in a sentence that has just named the user: user "migrator",
		// pass …
		prosePass := ok && kind == nameCredential && a.prose && userBefore(text, a.nameStart) &&
			(a.nameEnd-a.nameStart == 4 && equalFoldASCII(text[a.nameStart:a.nameEnd], "pass") ||
				a.nameEnd-a.nameStart == 3 && equalFoldASCII(text[a.nameStart:a.nameEnd], "pwd"))
		// A PHP or Perl variable named $pass holding a quoted literal is a password ($pass .= "…"), unlike the
		// PASS: of test output.
		codePass := ok && kind == nameCredential && !a.prose && a.nameStart > 0 && text[a.nameStart-1] == '$' &&
			a.nameEnd-a.nameStart == 4 && equalFoldASCII(text[a.nameStart:a.nameEnd], "pass") &&
			a.value.start > 0 && (text[a.value.start-1] == '"' || text[a.value.start-1] == '\'')
		// A config key pass or pw under a user key is the user's password: dbt's and rclone's user: … pass: ….
		configPass := ok && kind == nameCredential && !a.prose && (a.nameEnd-a.nameStart == 4 &&
			equalFoldASCII(text[a.nameStart:a.nameEnd], "pass") || a.nameEnd-a.nameStart == 2 &&
			equalFoldASCII(text[a.nameStart:a.nameEnd], "pw")) && userKeyAbove(text, a.nameStart)
		if !ok || !proseAuth && !prosePass && !codePass && !configPass && classifyName(text[a.nameStart:a.nameEnd]) != kind {
			return nil, a.nameEnd
		}
		v := text[a.value.start:a.value.end]
		if a.prose && (!proseStrong(v) || hyphenCompound(v) && !passphrase(v)) {
			return nil, a.nameEnd
		}
		// Words joined by one separator, four of four letters or more, are a generated passphrase when a
		// password name holds them (tundra-pixel-saffron-garnet); under a token's name they may be a scope.
		if !check(v, a) && (a.prose || !isWordish(v) || !looseCompound(v) || !passwordName(text[a.nameStart:a.nameEnd]) || isPlaceholder(v)) {
			return nil, a.nameEnd
		}
		return []span{a.value}, a.nameEnd
	}
}

// userKeyAbove reports whether one of the three lines above the key at text[ns] sets a user at the key's own
// indentation (user: …, username = …, login …), as a config block writes a login.
func userKeyAbove(text string, ns int) bool {
	ls := lineStart(text, ns, 256)
	indent := ns - ls
	for n := 0; n < 3 && ls > 0; n++ {
		ls = lineStart(text, ls-1, 256)
		line := text[ls:lineEnd(text, ls, 256)]
		if indentOf(line, 0) != indent {
			continue
		}
		key := strings.TrimLeft(line, " \t")
		k := strings.IndexAny(key, ":= \t")
		if k <= 0 {
			continue
		}
		switch strings.ToLower(key[:k]) {
		case "user", "username", "user_name", "login", "uid":
			return true
		}
	}
	return false
}

// passwordName reports whether a word of the name is a password's (db_password, MATCH_PASSWORD, psk), not a
// token's or a key's.
func passwordName(name string) bool {
	var buf [16]string
	for _, w := range words(name, &buf) {
		if lex().classes[w]&inPassword != 0 || strings.Contains(w, "password") || strings.Contains(w, "passwd") {
			return true
		}
	}
	return false
}

// stdinLogin matches, on the line before a --password-stdin flag, a literal echoed into a registry login:
// echo 'value' | docker login -u ci --password-stdin.
const stdinLogin = `(?:^|[\s;&(])(?:echo|printf)\s+(?:-[ne]\s+)*(?:'([^'\n]+)'|"([^"\n]+)"|([^\s|'"]+))\s*\|\s*(?:sudo\s+)?[\w.-]+(?:\s+registry)?\s+login\b[^\n|]*$`

var stdinLoginRegexp = lazyRegexp(stdinLogin)

// findStdinPassword reads the password echoed into a login command whose --password-stdin flag is at text[at].
func findStdinPassword(text string, at, n int) ([]span, int) {
	ls := lineStart(text, at, 240)
	m := stdinLoginRegexp().FindStringSubmatchIndex(text[ls:at])
	if m == nil {
		return nil, 0
	}
	for g := 2; g+1 < len(m); g += 2 {
		if m[g] >= 0 {
			v := text[ls+m[g] : ls+m[g+1]]
			if !credentialValue(v) || vendorPrefixed(v) {
				return nil, 0
			}
			return []span{{ls + m[g], ls + m[g+1]}}, 0
		}
	}
	return nil, 0
}

// ---- fixed shapes -----------------------------------------------------------------------------------------

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isBase32(c byte) bool { return 'A' <= c && c <= 'Z' || '2' <= c && c <= '7' }

// findAWSKeyID matches a 4-letter AWS key ID prefix followed by 16 base32 characters, also when a line break
// (with indentation) splits the 16.
func findAWSKeyID(text string, at, n int) ([]span, int) {
	if at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	i := at + n
	got := 0
	var id strings.Builder
	id.WriteString(text[at : at+n])
	wrapped := false
	for got < 16 {
		if i < len(text) && isBase32(text[i]) {
			id.WriteByte(text[i])
			i++
			got++
			continue
		}
		if wrapped || got == 0 || i >= len(text) {
			return nil, 0
		}
		// One line break may split the key: optional trailing blanks, \r\n or \n, indentation.
		j := skipBlanks(text, i)
		if j < len(text) && text[j] == '\r' {
			j++
		}
		if j >= len(text) || text[j] != '\n' {
			return nil, 0
		}
		i = skipBlanks(text, j+1)
		wrapped = true
	}
	if i < len(text) && isWordByte(text[i]) {
		return nil, 0
	}
	s := id.String()
	// DNA sequences (ACCA…, AKIA… followed by A, C, G, T only) share the shape.
	if strings.Contains(s, "EXAMPLE") || distinct(s[4:]) <= 3 || allBytes(s[4:], func(c byte) bool { return strings.IndexByte("ACGT", c) >= 0 }) {
		return nil, 0
	}
	return []span{{at, i}}, 0
}

// findPrivateKey matches a PEM-style private key block from its BEGIN line through its END line, or through
// the last line of its body when the text was cut before the END line. A BEGIN line without a body is talk
// about a key, not a key.
func findPrivateKey(text string, at, n int) ([]span, int) {
	ls := lineStart(text, at, 64)
	le := lineEnd(text, at, n+16)
	if !strings.Contains(text[ls:le], "BEGIN") {
		return nil, 0 // "private key" in prose: the expression needs a BEGIN line
	}
	m := pemBegin().FindStringIndex(text[ls:le])
	if m == nil || ls+m[1] < at+n {
		return nil, 0
	}
	start := ls + m[0]
	i := ls + m[1]
	if end := flatPEM(text, i, lineEnd(text, i, maxBody)); end > 0 {
		return []span{{start, end}}, 0
	}
	body := 0
	inHeaders := true
	limit := min(len(text), i+maxBody)
	for i < limit {
		if w := lineBreak(text, i); w > 0 {
			i += w
			continue
		}
		le := i
		// lineBreak at every byte, but called only at the bytes a break can begin with.
		for le < limit {
			if c := text[le]; (c == '\n' || c == '\r' || c == '\\') && lineBreak(text, le) > 0 {
				break
			}
			le++
		}
		line := strings.Trim(text[i:le], " \t\"',")
		switch {
		case strings.HasPrefix(line, "-----END") || strings.HasPrefix(line, "---- END"):
			if body < 32 {
				return nil, 0
			}
			end := strings.Index(text[i:le], "-----")
			if end >= 0 {
				if k := strings.Index(text[i+end+5:le], "-----"); k >= 0 {
					return []span{{start, i + end + 5 + k + 5}}, 0
				}
			}
			return []span{{start, le}}, 0
		case inHeaders && (line == "" || isPEMHeader(line)):
			i = le
			continue
		case isBase64Line(line):
			inHeaders = false
			body += len(line)
			i = le
			continue
		}
		break
	}
	if body < 32 {
		return nil, 0
	}
	// Cut before the END line: the key runs to the end of its body.
	end := i
	for end > start && strings.IndexByte(" \t\r\n\"',", text[end-1]) >= 0 {
		end--
	}
	for end > start && (strings.HasSuffix(text[:end], `\n`) || strings.HasSuffix(text[:end], `\r`)) {
		end -= 2
		if end > start && text[end-1] == '\\' {
			end--
		}
	}
	return []span{{start, end}}, 0
}

// flatPEM returns the end of a PEM block flattened onto the line of its BEGIN, whose rest is text[i:le]: the
// body's base64 words and the END line, separated by blanks, as a key pasted into a sentence reads; or 0.
func flatPEM(text string, i, le int) int {
	rest := text[i:le]
	k := strings.Index(rest, "-----END")
	if k < 0 {
		return 0
	}
	body := 0
	for _, w := range strings.Fields(rest[:k]) {
		if !isBase64Line(w) {
			return 0
		}
		body += len(w)
	}
	e := strings.Index(rest[k+8:], "-----")
	if body < 32 || e < 0 {
		return 0
	}
	return i + k + 8 + e + 5
}

// lineBreak returns the width of the line break at text[i]: 1 for a newline or carriage return, 2 for one
// escaped inside a JSON or shell string (\n, \r), 0 for none.
func lineBreak(text string, i int) int {
	switch {
	case text[i] == '\n' || text[i] == '\r':
		return 1
	case text[i] != '\\':
		return 0
	case strings.HasPrefix(text[i:], `\n`) || strings.HasPrefix(text[i:], `\r`):
		return 2
	case strings.HasPrefix(text[i:], `\\n`) || strings.HasPrefix(text[i:], `\\r`):
		return 3 // escaped twice, as in JSON inside a JSON string
	}
	return 0
}

func isPEMHeader(line string) bool {
	k := strings.Index(line, ": ")
	if k <= 0 {
		return false
	}
	for _, r := range line[:k] {
		if !(r == '-' || unicode.IsLetter(r)) {
			return false
		}
	}
	return true
}

func isBase64Line(line string) bool {
	return allBytes(line, func(c byte) bool { return isBase64Byte(c) || c == '=' })
}

// findPuTTYKey matches the private section of a PuTTY key file: the base64 lines after "Private-Lines: N".
func findPuTTYKey(text string, at, n int) ([]span, int) {
	if at > 0 && text[at-1] != '\n' {
		return nil, 0
	}
	i := lineEnd(text, at, 128)
	start, end := -1, -1
	for i < len(text) && i-at < maxBody {
		i++
		le := lineEnd(text, i, 256)
		line := strings.TrimRight(text[i:le], "\r")
		if !isBase64Line(line) {
			break
		}
		if start < 0 {
			start = i
		}
		end = i + len(line)
		i = le
	}
	if start < 0 || end-start < 16 {
		return nil, 0
	}
	return []span{{start, end}}, 0
}

// basicCredentials reports whether v is base64 for "user:password" with a real password.
func basicCredentials(v string) bool {
	raw, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "="))
		if err != nil {
			return false
		}
	}
	s := string(raw)
	k := strings.IndexByte(s, ':')
	if k < 0 || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	if strings.EqualFold(s, "aladdin:open sesame") || strings.EqualFold(s, "aladdin:opensesame") {
		return false // the RFC 7617 example
	}
	pass := s[k+1:]
	return len(pass) >= 4 && !isPlaceholder(pass) && strings.ToLower(pass) != "password"
}

// jwtHeader reports whether v's first segment decodes to a JSON object header of a JWT.
func jwtHeader(v string) bool {
	seg, _, _ := strings.Cut(v, ".")
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(seg, "="))
	return err == nil && headerJSON(raw)
}

// headerJSON reports whether decoded bytes read as a JWT's JSON header: an object that names a JOSE header
// parameter (RFC 7515, 7516): alg and typ, or enc, kid, cty, crit, zip, b64 and the key and certificate
// references.
func headerJSON(raw []byte) bool {
	if !bytes.HasPrefix(raw, []byte("{")) {
		return false
	}
	for _, p := range joseParams {
		if bytes.Contains(raw, p) {
			return true
		}
	}
	return false
}

// objectJSON reports whether decoded bytes begin a JSON object with a named member ({"name":), the header of a
// token whose shape already says JWT: three segments, and a signature at least as long as the shortest JWS
// algorithm makes ([jwsSignatureChars]). Issuers put parameters of their own first (apu, epk, iss, key_ops,
// nonce), which [headerJSON] does not know.
func objectJSON(raw []byte) bool {
	if !bytes.HasPrefix(raw, []byte(`{"`)) {
		return false
	}
	for i := 2; i < len(raw) && i < 66; i++ {
		switch c := raw[i]; {
		case c == '"':
			j := i + 1
			for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t') {
				j++
			}
			return i > 2 && j < len(raw) && raw[j] == ':'
		case c < 0x21 || c > 0x7e || c == '\\':
			return false
		}
	}
	return false
}

// jwsSignatureChars is the length of the shortest JWS signature, HS256's 32 bytes in base64url.
const jwsSignatureChars = 43

var joseParams = func() (ps [][]byte) {
	for _, p := range strings.Fields(`alg typ enc kid cty crit zip b64 jku jwk x5u x5c x5t x5t#S256`) {
		ps = append(ps, []byte(`"`+p+`"`))
	}
	return ps
}()

// findAzureADSecret finds, at a hit of "Q~", an Entra ID client secret around it: three characters of
// [A-Za-z0-9_~.] and a digit before, 31 to 34 of [A-Za-z0-9_~.-] after, bounded on both sides by none of them,
// and random enough to be no placeholder.
func findAzureADSecret(text string, at, n int) ([]span, int) {
	part := func(c byte) bool { return isWordByte(c) || c == '~' || c == '.' || c == '-' }
	start := at - 4
	if start < 0 || text[at-1] < '0' || text[at-1] > '9' || start > 0 && part(text[start-1]) {
		return nil, 0
	}
	for i := start; i < at-1; i++ {
		if !part(text[i]) || text[i] == '-' {
			return nil, 0
		}
	}
	end := at + n
	for end < len(text) && part(text[end]) {
		end++
	}
	// A full stop may end the sentence the secret stands in.
	if end-(at+n) > 34 && text[end-1] == '.' {
		end--
	}
	if k := end - (at + n); k < 31 || k > 34 {
		return nil, 0
	}
	v := text[start:end]
	if !tokenOK(v) || distinct(v) <= 12 {
		return nil, 0
	}
	return []span{{start, end}}, end
}

// slackToken judges a Slack token's random part: for an xox token, the part after its last dash, since the
// numbers before it are workspace and user IDs (xoxa-2-511111111-…-e039d0…), which [tokenOK] would take for
// filler. A webhook URL or app token is judged whole.
func slackToken(v string) bool {
	if !strings.HasPrefix(v, "xox") || strings.HasPrefix(v, "xoxe") {
		return tokenOK(v)
	}
	last := v[strings.LastIndexByte(v, '-')+1:]
	return len(last) >= 8 && tokenOK(last)
}

// findMailchimpKey finds, at a hit of "-us", a Mailchimp API key around it: 32 lower-case hex digits before it,
// starting a word, and one or two digits after it, ending one.
func findMailchimpKey(text string, at, n int) ([]span, int) {
	s := at - 32
	if s < 0 || s > 0 && (isWordByte(text[s-1]) || text[s-1] == '-') || !allBytes(text[s:at], isLowerHex) {
		return nil, 0
	}
	e := at + n
	for e < len(text) && e-(at+n) < 2 && isDigit(text[e]) {
		e++
	}
	if e == at+n || e < len(text) && (isWordByte(text[e]) || text[e] == '-') || !tokenOK(text[s:at]) {
		return nil, 0
	}
	return []span{{s, e}}, 0
}

// findTelegramToken finds, at a hit of ":AA", a Telegram bot token around it: the bot's ID of 8 to 10 digits
// before the colon, starting a word or after the Bot API's "/bot", and 35 characters of [A-Za-z0-9_-] after
// it, ending one.
func findTelegramToken(text string, at, n int) ([]span, int) {
	s := at
	for s > 0 && at-s <= 10 && isDigit(text[s-1]) {
		s--
	}
	// The Bot API's URLs put the token after "/bot": https://api.telegram.org/bot123456789:AA…/getMe.
	if at-s < 8 || at-s > 10 || s > 0 && isWordByte(text[s-1]) && !(s >= 4 && text[s-4:s] == "/bot") {
		return nil, 0
	}
	e := segmentEnd(text, at+1)
	if e-(at+1) != 35 || !tokenOK(text[at+1:e]) || distinct(text[at+1:e]) <= 12 {
		return nil, 0
	}
	return []span{{s, e}}, 0
}

// base64urlByte holds the bytes of base64url, the alphabet of a JWT's segments: [A-Za-z0-9_-].
var base64urlByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isWordByte(byte(c)) || c == '-'
	}
	return t
}()

// segmentEnd returns where the run of base64url bytes that starts at text[i] ends.
func segmentEnd(text string, i int) int {
	for i < len(text) && base64urlByte[text[i]] {
		i++
	}
	return i
}

// findJWE finds, at a hit of "eyJ" that starts a word, a JSON Web Encryption token in compact form (RFC 7516):
// a header that names its content encryption ("enc") and four more segments, the encrypted key (empty for
// direct encryption), an IV of 16 characters or more, the ciphertext and a tag of 16 or more. A hit that
// starts no token skips the rest of its header's run.
func findJWE(text string, at, n int) ([]span, int) {
	if at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	e1 := segmentEnd(text, at+n)
	i, lens := e1, [4]int{}
	for k := range lens {
		if i >= len(text) || text[i] != '.' {
			return nil, e1
		}
		j := segmentEnd(text, i+1)
		lens[k], i = j-(i+1), j
	}
	if lens[1] < 16 || lens[2] < 1 || lens[3] < 16 || i < len(text) && text[i] == '.' {
		return nil, e1
	}
	h := text[at:min(e1, at+jwtHeaderChars)]
	if len(h)%4 == 1 {
		h = h[:len(h)-1]
	}
	raw, err := base64.RawURLEncoding.DecodeString(h)
	if err != nil || !objectJSON(raw) || !bytes.Contains(raw, []byte(`"enc"`)) || !bytes.Contains(raw, []byte(`"alg"`)) {
		return nil, e1
	}
	return []span{{at, i}}, i
}

// derKeyExpr is what follows "MII" in the base64 of a private key's DER: the length's two characters, then
// version 0 and the RSA algorithm (PKCS#8) and 24 more characters, the rest of a PEM line, or version 0 and
// the modulus (PKCS#1), fewer bytes that say less, and 40 more.
var derKeyExpr = lazyRegexp(`^[A-Za-z0-9+/]{2}(?:QIBADANBgkqhkiG9w0BAQEFAASC[A-Za-z0-9+/]{24,}|[AQgw]IBAAKC[A-Za-z0-9+/]{40,})={0,2}`)

// findDERKey finds, at a hit of "MII" that starts a word, a private key in base64 DER without its PEM lines,
// with the lines of base64 that go on from it, unless it begins a line of a PEM block's body: a private key's
// is the private-key rule's, and a public key's or a certificate's is no secret whatever its bytes. The rest
// of the lines is skipped, so that each line of base64 is read back at most once.
func findDERKey(text string, at, n int) ([]span, int) {
	if at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	le := lineEnd(text, at, 8<<10)
	m := derKeyExpr().FindStringIndex(text[at+n : le])
	if m == nil {
		return nil, 0
	}
	end := at + n + m[1]
	for end == le && le < len(text) {
		next := lineEnd(text, le+1, 8<<10)
		if !base64Line(text[le+1 : next]) {
			break
		}
		end, le = next, next
	}
	ls := strings.LastIndexByte(text[:at], '\n') + 1
	if strings.TrimLeft(text[ls:at], " \t") == "" {
		// The hit begins its line: a PEM block's body if the lines of base64 above it end at a BEGIN line.
		for ls > 0 {
			above := strings.LastIndexByte(text[:ls-1], '\n') + 1
			line := text[above : ls-1]
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "-----BEGIN ") {
				return nil, end
			}
			if !base64Line(line) {
				break
			}
			ls = above
		}
	}
	return []span{{at, end}}, end
}

// base64Line reports whether a line holds base64 alone, with the blanks that indent it.
func base64Line(line string) bool {
	line = strings.Trim(line, " \t\r")
	return line != "" && allBytes(line, func(c byte) bool { return isAlnum(c) || c == '+' || c == '/' || c == '=' })
}

// base64JWTChars bounds the run of base64 that findBase64JWT reads: a token with a certificate chain in its
// header is a few KiB.
const base64JWTChars = 16 << 10

// findBase64JWT finds, at a hit of "ZXlK" that starts a word, a JWT encoded once more in standard base64: the
// run of base64 characters from the hit, 64 to [base64JWTChars] of them, and its padding, when it decodes to a
// token [findJWT] finds whole. A pattern rule's window ([ahead]) holds too little of a token with claims. The
// rest of the run is skipped: a token encoded once more starts its run.
func findBase64JWT(text string, at, n int) ([]span, int) {
	if at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	e := at + n
	for e < len(text) && e-at < base64JWTChars && (isAlnum(text[e]) || text[e] == '+' || text[e] == '/') {
		e++
	}
	v := text[at:e]
	for k := 0; k < 2 && e < len(text) && text[e] == '='; k++ {
		e++
	}
	if len(v) < 64 || !base64JWT(v) {
		return nil, e
	}
	return []span{{at, e}}, e
}

// base64JWT reports whether v is a JWT encoded once more in standard base64, as a Kubernetes secret's data
// holds one: it decodes to a token that [findJWT] finds whole.
func base64JWT(v string) bool {
	v = strings.TrimRight(v, "=")
	if len(v)%4 == 1 {
		v = v[:len(v)-1] // no base64 decodes a single character
	}
	raw, err := base64.RawStdEncoding.DecodeString(v)
	if err != nil {
		return false
	}
	jwt := string(raw)
	return len(findJWT(jwt, []int{0})) > 0
}

// jsonSegment reports whether a base64url segment of at most a few KiB decodes to a JSON object.
func jsonSegment(seg string) bool {
	if len(seg) > 8<<10 {
		seg = seg[:8<<10]
	}
	seg = seg[:len(seg)/4*4]
	raw, err := base64.RawURLEncoding.DecodeString(seg)
	return err == nil && bytes.HasPrefix(raw, []byte(`{"`))
}

// jwtHeaderChars is how much of a header findJWT judges: a header is short JSON, and the first 768 decoded
// bytes tell.
const jwtHeaderChars = 1024

// runDecoder decodes a run of base64url characters once for each of the four alignments a header can start
// at, so that every hit in the run is judged on a slice of one decoding, as [jwtHeader] would judge it,
// instead of decoding its own header again.
type runDecoder struct {
	text    string
	end     int       // the run's end
	base    [4]int    // per alignment (position mod 4), where its decoding starts; -1 before the first hit
	decoded [4][]byte // per alignment, the run decoded from base
}

func (d *runDecoder) reset(text string, end int) {
	d.text, d.end = text, end
	d.base = [4]int{-1, -1, -1, -1}
}

// header reports whether the header starting at at, at most jwtHeaderChars characters of the run, passes
// [jwtHeader], or, for a token signed at full length, [objectJSON].
func (d *runDecoder) header(at int, signed bool) bool {
	n := min(d.end-at, jwtHeaderChars)
	if n%4 == 1 {
		return false // no base64 decodes a single character
	}
	a := at % 4
	if d.base[a] < 0 {
		// Every character of a run is valid base64url, so only a final quantum of one character fails, and
		// the checks above rule that out for every header this decoding serves.
		src := d.text[at:d.end]
		if len(src)%4 == 1 {
			src = src[:len(src)-1]
		}
		raw, err := base64.RawURLEncoding.DecodeString(src)
		if err != nil {
			return false
		}
		d.base[a], d.decoded[a] = at, raw
	}
	from := (at - d.base[a]) / 4 * 3
	raw := d.decoded[a][from : from+n*6/8]
	return headerJSON(raw) || signed && objectJSON(raw)
}

// findJWT finds, at the hits that start a word, what \beyJ[A-Za-z0-9_-]{8,}={0,2}\.eyJ[A-Za-z0-9_-]{8,}={0,2}\.
// [A-Za-z0-9_-]{16,} matches, when its header passes [jwtHeader] or, with a signature of [jwsSignatureChars],
// [objectJSON]. Hits inside one run of base64url bytes share everything after the run, which is read once:
// with the expression, each of 16,000 hits in 64 KiB of "eyJ-" read up to 4 KiB ahead, 2.3 s for the note. A
// hit whose header fails does not skip the rest of its run, since a later hit in it may start a real token
// (eyJ0-eyJhbGci…).
func findJWT(text string, hits []int) []span {
	seg := func(i int) int { return segmentEnd(text, i) }
	pad := func(i int) int {
		for k := 0; k < 2 && i < len(text) && text[i] == '='; k++ {
			i++
		}
		return i
	}
	var out []span
	var dec runDecoder
	e1, e3, done := -1, -1, -1 // the current run's end and, when its tail has a JWT's shape, the token's end
	unsigned := false          // the token has no signature (alg none) or no third segment: its payload must decode
	signed := false            // the token's signature is as long as a JWS algorithm makes one
	var payload string
	for _, at := range hits {
		if at < done || (at > 0 && isWordByte(text[at-1])) {
			continue
		}
		if at >= e1 {
			e1, e3, unsigned, signed = seg(at+3), -1, false, false
			dec.reset(text, e1)
			if i := pad(e1); i < len(text) && text[i] == '.' && strings.HasPrefix(text[i+1:], "eyJ") {
				if e2 := seg(i + 4); e2-(i+1) >= 11 {
					j := pad(e2)
					switch {
					case j < len(text) && text[j] == '.' && seg(j+1)-(j+1) >= 16:
						e3 = seg(j + 1)
						signed = e3-(j+1) >= jwsSignatureChars
					case j < len(text) && text[j] == '.' && seg(j+1) == j+1:
						e3, unsigned, payload = j+1, true, text[i+1:e2]
					case j == len(text) || text[j] != '.' && !isWordByte(text[j]) && text[j] != '-':
						e3, unsigned, payload = j, true, text[i+1:e2]
					}
				}
			}
		}
		if e3 < 0 || e1-at < 11 {
			continue
		}
		if unsigned && !jsonSegment(payload) {
			continue
		}
		if dec.header(at, signed) && !publishedExample(text[at:e3]) {
			out = append(out, span{at, e3})
			done = e3
		}
	}
	return out
}

// tokenValue is the bar for header and bearer values: not a placeholder, at least 12 characters, and not a
// plain word.
func tokenValue(v string) bool {
	if len(v) < 12 || isPlaceholder(v) || isWordish(v) {
		return false
	}
	n, _, _, _, _ := classes(v)
	return n >= 2
}

// githubTokenBody returns the length of a GitHub token after its prefix (ghp_, github_pat_…).
func githubTokenBody(v string) int {
	if strings.HasPrefix(v, "github_pat_") {
		return len(v) - len("github_pat_")
	}
	return len(v) - len("ghp_")
}

// authorizationSchemes are the schemes the authorization-header expression reads before a value.
var authorizationSchemes = []string{"token", "apikey", "api-key", "key", "ssws", "sso-key", "bot", "gitlab-token"}

// authorizationMay is the authorization-header rule's cheap test. After the word, its quote, blanks and ':' or
// '=' (one way only), the expression needs a value of 16 characters, alone or after one of
// [authorizationSchemes] and blanks: "Authorization: Bearer …" has neither, bearer-token reads it. Bytes above
// ASCII count as value characters and may spell a scheme, because the expression folds the Kelvin sign and
// the long s into k and s.
func authorizationMay(window string) bool {
	valueRun := func(i int) int {
		j := i
		for j < len(window) && (isAlnum(window[j]) || strings.IndexByte("-._~+/=:", window[j]) >= 0 || window[j] >= utf8.RuneSelf) {
			j++
		}
		return j - i
	}
	quote := func(i int) int {
		if i < len(window) && (window[i] == '"' || window[i] == '\'') {
			return i + 1
		}
		return i
	}
	i := skipBlanks(window, quote(len("authorization")))
	if i >= len(window) || window[i] != ':' && window[i] != '=' {
		return false
	}
	i = quote(skipBlanks(window, i+1))
	n := valueRun(i)
	if n >= 16 {
		return true
	}
	if e := i + n; e < len(window) && (window[e] == ' ' || window[e] == '\t') {
		w := window[i:e]
		if !ascii(w) || slices.ContainsFunc(authorizationSchemes, func(s string) bool { return strings.EqualFold(w, s) }) {
			return valueRun(skipBlanks(window, e)) >= 16
		}
	}
	return false
}

// bearerMay is the bearer-token rule's cheap test: its expression needs, after the word, blanks, or a line break
// with blanks before the next line, and then a token character. Bytes above ASCII count as one, because the
// expression folds the Kelvin sign and the long s into its letters.
func bearerMay(window string) bool {
	token := func(i int) bool {
		return i < len(window) && (isAlnum(window[i]) || strings.IndexByte("-._~+/", window[i]) >= 0 || window[i] >= utf8.RuneSelf)
	}
	i := len("bearer")
	j := skipBlanks(window, i)
	if j > i && token(j) {
		return true
	}
	if j < len(window) && window[j] == '\r' {
		j++
	}
	if j >= len(window) || window[j] != '\n' {
		return false
	}
	k := skipBlanks(window, j+1)
	return k > j+1 && token(k)
}

// recoveryKey reports whether v, eight groups of six digits, is a BitLocker recovery key rather than filler:
// its groups differ and it holds five digits or more (the hyphen is counted too).
func recoveryKey(v string) bool {
	groups := strings.Split(v, "-")
	return len(groups) == 8 && slices.ContainsFunc(groups[1:], func(g string) bool { return g != groups[0] }) && distinct(v) > 5
}

// awsSecret reports whether v looks like an AWS secret access key: 40 base64 characters, mixed, random.
func awsSecret(v string) bool {
	if len(v) != 40 || strings.Contains(v, "EXAMPLE") {
		return false
	}
	_, lower, upper, digit, _ := classes(v)
	return lower && upper && digit && strings.Count(v, "/") <= 4 && entropy(v) >= 4.0
}

func isBase64Byte(c byte) bool { return base64Bytes[c] }

// base64Bytes holds isBase64Byte for every byte: one load in the loops that run over keys.
var base64Bytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isAlnum(byte(c)) || c == '+' || c == '/'
	}
	return t
}()

// findAWSSecretNearID looks within three lines (at most 1 KiB) of each AWS key ID for a standalone
// 40-character base64 string that passes [awsSecret]. Windows of nearby hits are merged and scanned once.
func findAWSSecretNearID(text string, hits []int) []span {
	var out []span
	scanned := 0
	for _, at := range hits {
		if at+1024 <= scanned {
			continue // the whole window was read for an earlier hit
		}
		lo, hi := lineStart(text, at, 1024), lineEnd(text, at, 1024)
		for i := 0; i < 3 && lo > 0 && at-lo < 1024; i++ {
			lo = lineStart(text, lo-1, 1024-(at-lo))
		}
		for i := 0; i < 3 && hi < len(text) && hi-at < 1024; i++ {
			hi = lineEnd(text, hi+1, 1024-(hi-at))
		}
		i := max(lo, scanned)
		// A run that began before the window is not judged, only skipped; scanned ensures each byte is read once.
		for i > 0 && i < len(text) && isBase64Byte(text[i-1]) && isBase64Byte(text[i]) {
			i++
		}
		for i < hi {
			if !isBase64Byte(text[i]) {
				i++
				continue
			}
			j := i
			for j < len(text) && isBase64Byte(text[j]) {
				j++
			}
			whole := (i == 0 || text[i-1] != '=') && (j == len(text) || text[j] != '=')
			if j-i == 40 && whole && (i == 0 || !isBase64Byte(text[i-1])) && awsSecret(text[i:j]) {
				out = append(out, span{i, j})
			}
			i = j
		}
		scanned = max(scanned, i)
	}
	return out
}

// findURLPassword reads the userinfo of the URL whose "://" is at text[at:at+n] and returns its password.
func findURLPassword(text string, at, n int) ([]span, int) {
	// The scheme: 2 to 20 letters, digits, +, . or - before "://".
	s := at
	for s > 0 && at-s < 20 && (isAlnum(text[s-1]) || strings.IndexByte("+.-", text[s-1]) >= 0) {
		s--
	}
	if at-s < 2 || !('a' <= text[s]|0x20 && text[s]|0x20 <= 'z') {
		return nil, 0
	}
	i := at + n
	end := i
	at2 := -1
	// A password may hold a # or ? that its writer did not percent-encode (postgres://app:B9#6x@db); the user
	// name before it may not, which keeps a query or fragment that holds "a:b@c" out.
	for end < len(text) && end-i < 256 {
		c := text[end]
		if c <= ' ' || strings.IndexByte("/\"'<>`", c) >= 0 {
			break
		}
		if c == '@' {
			at2 = end
		}
		end++
	}
	if at2 < 0 || at2+1 >= end || !(isAlnum(text[at2+1]) || text[at2+1] == '[') {
		return nil, 0
	}
	colon := strings.IndexByte(text[i:at2], ':')
	if colon < 0 || strings.ContainsAny(text[i:i+colon], "?#") {
		return nil, 0
	}
	ps, pe := i+colon+1, at2
	if !credentialValue(text[ps:pe]) {
		return nil, 0
	}
	return []span{{ps, pe}}, 0
}

// findAtlasToken matches a Terraform Cloud token around its ".atlasv1." marker at text[at:at+n]: 14 lower-case
// letters or digits before it, 60 to 70 base64url characters after it.
func findAtlasToken(text string, at, n int) ([]span, int) {
	s := at - 14
	if s < 0 || (s > 0 && isWordByte(text[s-1])) || !allBytes(text[s:at], isAlnum) {
		return nil, 0
	}
	e := at + n
	for e < len(text) && e-at-n <= 70 && (isWordByte(text[e]) || text[e] == '-' || text[e] == '=') {
		e++
	}
	if k := e - at - n; k < 60 || k > 70 || !tokenOK(text[s:at]) || !tokenOK(text[at+n:e]) {
		return nil, 0
	}
	return []span{{s, e}}, 0
}

// publishedExamples are keys and tokens published as examples in SDKs and documentation (the Firebase SDKs'
// API keys, the test key of Stripe's API reference, the token jwt.io shows), as AWS publishes …EXAMPLE keys:
// they belong to no one and are not secrets.
var publishedExamples = map[string]bool{
	fake("sk_", "test_", "4eC39HqLyjWDarjtT1zdp7dc"): true,
	fake("sk_", "test_", "BQokikJOvBiI2HlWgH4olfQ2"): true,
	fake("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ",
		".", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"): true,
	fake("AIza", "Syabcdefghijklmnopqrstuvwxyz1234567"): true,
	fake("AIza", "SyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs"): true,
	fake("AIza", "SyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM"): true,
	fake("AIza", "SyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU"): true,
	fake("AIza", "SyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0"): true,
	fake("AIza", "yDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A"): true,
	fake("AIza", "SyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c"): true,
	fake("AIza", "SyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4"): true,
	fake("AIza", "SyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY"): true,
	fake("AIza", "SyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM"): true,
	fake("AIza", "SyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ"): true,
	fake("AIza", "SyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g"): true,
	fake("AIza", "SyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU"): true,
	fake("AIza", "SyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw"): true,
	fake("AIza", "SyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE"): true,
	fake("AIza", "SyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY"): true,
}

func publishedExample(v string) bool { return publishedExamples[v] }

// findUserFlag reads the user:password argument of the -u or --user flag at text[at:at+n] and returns the
// password, or the user when the password is empty and the user looks like a secret (-u "token:").
func findUserFlag(text string, at, n int) ([]span, int) {
	if at > 0 && text[at-1] != ' ' && text[at-1] != '\t' {
		return nil, 0
	}
	i := skipBlanks(text, at+n)
	if i >= len(text) {
		return nil, 0
	}
	var ts, te int // the argument, without its quotes
	if q := text[i]; q == '"' || q == '\'' {
		k := strings.IndexByte(text[i+1:min(len(text), i+1+maxValue)], q)
		if k < 0 {
			return nil, 0
		}
		ts, te = i+1, i+1+k
	} else {
		te = i
		for te < len(text) && te-i < maxValue && !isSpaceByte(text[te]) {
			te++
		}
		ts = i
		// A command in a code span ends at its closing backtick: `… --user neo4j:[PASSWORD]`; is not part of it.
		if k := strings.LastIndexByte(text[ts:te], '`'); k >= 0 && strings.Trim(text[ts+k+1:te], ".,;:)!?") == "" {
			te = ts + k
		}
	}
	arg := text[ts:te]
	colon := strings.IndexByte(arg, ':')
	if colon < 0 || hasTemplate(arg) {
		return nil, 0
	}
	ps, pe := ts+colon+1, te
	// user:'password' and "user":"password": the quotes are the shell's.
	for ps < pe && (text[ps] == '"' || text[ps] == '\'') {
		ps++
	}
	for pe > ps && (text[pe-1] == '"' || text[pe-1] == '\'') {
		pe--
	}
	if ps == pe {
		us, ue := ts, ts+colon
		for us < ue && (text[us] == '"' || text[us] == '\'') {
			us++
		}
		if us < ue && strongValue(text[us:ue]) {
			return []span{{us, ue}}, 0
		}
		return nil, 0
	}
	if !credentialValue(text[ps:pe]) {
		return nil, 0
	}
	return []span{{ps, pe}}, 0
}

// discordToken reports whether a Discord-shaped token's first segment is the base64 of a 17 to 20 digit ID and
// the rest is not filler.
func discordToken(v string) bool {
	id, rest, _ := strings.Cut(v, ".")
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(id, "="))
	if err != nil || len(raw) < 17 || len(raw) > 20 || !allBytes(string(raw), func(c byte) bool { return '0' <= c && c <= '9' }) {
		return false
	}
	return tokenOK(rest)
}

// vendorPrefixes begin tokens whose vendor rule knows their shape. A value with one of them is judged by that
// rule alone: ghp_XXXX… or xoxb-your-token under a credential name is the vendor's placeholder, not a password.
var vendorPrefixes = []string{"ghp_", "NRAK-", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glrt-", "glsa_", "glc_",
	"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxe", "xapp-", "sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_",
	"AIza", "GOCSPX-", "ya29.", "sk-", "hf_", "npm_", "pypi-", "hvs.", "hvb.", "AKIA", "ASIA", "lin_api_", "PMAK-", "HRKU-",
	"pplx-", "dop_v1_", "doo_v1_", "dor_v1_", "AGE-SECRET-KEY-", "shpat_", "sntrys_", "sntryu_"}

// vendorPrefixesBy lists vendorPrefixes by their first byte: most values begin with a byte that begins none.
var vendorPrefixesBy = func() (by [256][]string) {
	for _, p := range vendorPrefixes {
		by[p[0]] = append(by[p[0]], p)
	}
	return by
}()

func vendorPrefixed(v string) bool {
	if v == "" {
		return false
	}
	for _, p := range vendorPrefixesBy[v[0]] {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// findLoginPair finds the password of a login written as user / password after "login:" or "credentials:"
// ("Vendor portal login: deploy@acme.io / …"). The user is one word or an email address; the password must be
// a strong value ([strongValue]), so "login: admin / admin" and "login: alice / see 1Password" are not.
func findLoginPair(text string, at, n int) ([]span, int) {
	switch lowerByte(text[at]) {
	case 'b', 'p':
		return findColonPair(text, at, n)
	case 'u':
		return findLabelPair(text, at, n)
	}
	if text[at] != 'l' && text[at] != 'L' && text[at] != 'c' && text[at] != 'C' && text[at] != 's' && text[at] != 'S' && text[at] != 'a' && text[at] != 'A' {
		return findSlashPair(text, at, n)
	}
	if at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	i := skipBlanks(text, at+n)
	u := i
	for i < len(text) && i-u < 80 && (isAlnum(text[i]) || strings.IndexByte("._+-@", text[i]) >= 0) {
		i++
	}
	if i == u || !strings.HasPrefix(text[i:], " / ") {
		return nil, 0
	}
	vs := i + 3
	ve := vs
	for ve < len(text) && ve-vs < maxValue && !isSpaceByte(text[ve]) {
		ve++
	}
	// Sentence punctuation after the password is not part of it.
	for ve > vs && strings.IndexByte(".,;)", text[ve-1]) >= 0 && (ve == len(text) || isSpaceByte(text[ve])) {
		ve--
	}
	if ve == vs || !proseStrong(text[vs:ve]) {
		return nil, 0
	}
	return []span{{vs, ve}}, 0
}

// findColonPair finds the password of a login written user:password in a sentence about logging in, after
// "basic auth" or "the pair is" at text[at:at+n]: "basic auth works with elastic:…", "the pair is qa:…". The
// user is an account name and the password strong; a host and port, a URL, a path or a time is no pair.
func findColonPair(text string, at, n int) ([]span, int) {
	if at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	_, se := sentenceBounds(text, at)
	if strings.IndexByte(text[at+n:se], ':') < 0 {
		return nil, 0 // most mentions of basic auth hold no pair
	}
	for i, words := at+n, 0; i < se && words < sentenceAhead; words++ {
		var j int
		i, j = nextRun(text, i, se)
		if j == i {
			break
		}
		if sp, ok := colonPair(text, i, j); ok {
			return []span{sp}, 0
		}
		i = j
	}
	return nil, 0
}

// colonPair judges the word text[i:j] as user:password: an account name of letters, digits, _ . and -, then a
// strong password that is not a port, a path or another pair's second colon.
func colonPair(text string, i, j int) (span, bool) {
	for i < j && strings.IndexByte("\"'`(", text[i]) >= 0 {
		i++
	}
	for j > i && strings.IndexByte("\"'`),;.", text[j-1]) >= 0 {
		j--
	}
	w := text[i:j]
	k := strings.IndexByte(w, ':')
	if k <= 0 || k > 32 || !('a' <= w[0]|0x20 && w[0]|0x20 <= 'z') {
		return span{}, false
	}
	for x := 0; x < k; x++ {
		if c := w[x]; !isAlnum(c) && strings.IndexByte("_.-", c) < 0 {
			return span{}, false
		}
	}
	v := w[k+1:]
	if strings.HasPrefix(v, "//") || strings.IndexByte(v, '/') == 0 || strings.IndexByte(v, '@') >= 0 || !proseStrong(v) ||
		isUUID(v) || isPath(v) || hostName(v) {
		return span{}, false
	}
	return span{i + k + 1, j}, true
}

// findLabelPair finds the password of a login written with short labels on one line, "u: grafana-ro p: …", from
// the user's label at text[at:at+n]. The password is judged as in a sentence ([proseStrong]).
func findLabelPair(text string, at, n int) ([]span, int) {
	if at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	le := lineEnd(text, at, 160)
	i, j := nextRun(text, at+n, le)
	if j == i || j-i > 64 || strings.IndexByte(text[i:j], ':') >= 0 {
		return nil, 0
	}
	k := skipBlanks(text, j)
	for _, label := range []string{"p:", "pw:", "pwd:", "pass:", "passwd:", "password:"} {
		if hasPrefixFold(text[k:], label) {
			vs, ve := nextRun(text, k+len(label), le)
			for ve > vs && strings.IndexByte(".,;)", text[ve-1]) >= 0 {
				ve--
			}
			if ve > vs && proseStrong(text[vs:ve]) && !isPath(text[vs:ve]) {
				return []span{{vs, ve}}, 0
			}
			return nil, 0
		}
	}
	return nil, 0
}

// toolPasswordExprs are the expressions of [findToolPassword] by the keyword they begin with, each compiled on
// its first hit, so that a note that names mysql does not pay for the expressions of nine other tools.
var toolPasswordExprs = newToolPasswordExprs()

func newToolPasswordExprs() map[string]func() *regexp.Regexp {
	m := map[string]string{
		"mysql":      `(?:mysql(?:dump|admin|sh)?)\b[^\n|;&]*?[ \t]-p` + cliValue,
		"mariadb":    `mariadb\b[^\n|;&]*?[ \t]-p` + cliValue,
		"sshpass":    `sshpass[ \t]+-p[ \t]*` + cliValue,
		"redis-cli":  `redis-cli\b[^\n|;&]*?[ \t](?:-a|--pass)[ \t]+` + cliValue,
		"qlcmd":      `qlcmd\b[^\n|;&]*?[ \t]-P[ \t]*` + cliValue,                                         // sqlcmd
		"dap":        `dap(?:search|modify|add|delete|passwd|whoami)\b[^\n|;&]*?[ \t]-w[ \t]+` + cliValue, // ldap…
		"bclient":    `bclient\b[^\n|;&]*?[ \t]-U[ \t]+['"]?[\w.\\-]+%([^\s'"]+)`,                         // smbclient
		"openssl":    `openssl\b[^\n|;&]*?[ \t]-pass(?:in|out)?[ \t]+pass:` + cliValue,
		"abbitmqctl": `abbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+` + cliValue, // rabbitmqctl
		// net use … /user:NAME password, and net user NAME password [/add]
		"net use": `net use(?:\b[^\n|;&]*?[ \t]/user:\S+|r[ \t]+[^\s/*]\S*)[ \t]+` + cliValue,
	}
	out := make(map[string]func() *regexp.Regexp, len(m))
	for k, v := range m {
		out[k] = lazyRegexp(`^(?:` + v + `)`)
	}
	return out
}

// findToolPassword finds the password given on the command line of the tool whose name (or the part of it that
// is the keyword) stands at text[at:at+n]: mysql -p…, sshpass -p, redis-cli -a, sqlcmd -P, ldapsearch -w,
// smbclient -U user%…, openssl -passout pass:…, rabbitmqctl add_user, net use /user:.
func findToolPassword(text string, at, n int) ([]span, int) {
	kw := text[at : at+n]
	re := toolPasswordExprs[kw]
	if re == nil {
		return nil, 0
	}
	if (kw == "mysql" || kw == "mariadb" || kw == "sshpass" || kw == "redis-cli" || kw == "openssl" || kw == "net use") && at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	line := text[at:lineEnd(text, at, ahead)]
	m := re().FindStringSubmatchIndex(line)
	if m == nil {
		return nil, 0
	}
	for g := 2; g+1 < len(m); g += 2 {
		if m[g] >= 0 {
			if v := line[m[g]:m[g+1]]; credentialValue(v) {
				return []span{{at + m[g], at + m[g+1]}}, 0
			}
			return nil, 0
		}
	}
	return nil, 0
}

// pgpassLine is a line of a PostgreSQL password file: host:port:database:user:password.
const pgpass = `^[ \t]*[\w.*-]+:(?:\d{2,5}|\*):[\w.*-]+:[\w.*@-]+:([^\s:]\S*)[ \t]*$`

var pgpassLine = lazyRegexp(pgpass)

// findPgpass finds the password of a .pgpass line around the port or wildcard at text[at].
func findPgpass(text string, at, n int) ([]span, int) {
	ls, le := lineStart(text, at, 240), lineEnd(text, at, 240)
	m := pgpassLine().FindStringSubmatchIndex(text[ls:le])
	if m == nil {
		return nil, 0
	}
	v := text[ls+m[2] : ls+m[3]]
	if !credentialValue(v) {
		return nil, 0
	}
	return []span{{ls + m[2], ls + m[3]}}, le
}
