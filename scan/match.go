package scan

import (
	"encoding/base64"
	"math"
	"regexp"
	"strings"
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
	"sample", "xxx", "***", "•", "…", "...", "<", ">", "{{", "}}", "${", "$(", "%(", "todo", "tbd", "n/a",
	"-here", "_here", "here>", "notreal", "not-real", "not_real", "insert", "secret_value", "s3cr3t_value",
}

// isPlaceholder reports whether v is a stand-in or an indirection rather than a literal secret: template syntax,
// a variable or environment read, a masked or elided value, or a secret-manager reference.
func isPlaceholder(v string) bool {
	if v == "" {
		return true
	}
	low := strings.ToLower(v)
	for _, m := range placeholderMarks {
		if strings.Contains(low, m) {
			return true
		}
	}
	switch v[0] {
	case '$', '%', '@', '!', '&', '*':
		return true
	case '{':
		if strings.HasSuffix(v, "}") {
			return true
		}
	}
	for _, p := range indirectionPrefixes {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	if distinct(v) <= 2 {
		return true
	}
	return false
}

// indirectionPrefixes start values that name where a secret lives instead of holding it.
var indirectionPrefixes = []string{
	"vault:", "op://", "secret://", "sm://", "ssm:", "arn:", "awssm:", "gcp:", "gcpsm:", "projects/", "env:",
	"file:", "ref+", "/run/secrets", "/var/run/secrets", "secretsmanager", "keyvault", "azurekeyvault",
	"process.env", "os.environ", "os.getenv", "getenv", "env(", "env[", "system.getenv", "secrets.", "vars.",
	"ssh-rsa ", "ssh-ed25519 ", "ecdsa-sha2-", "-----begin public", "-----begin certificate", "sha256:", "sha1:",
	"sha512:", "md5:", "bcrypt:", "$2a$", "$2b$", "$argon2",
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

var (
	reUUID      = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	reHex       = regexp.MustCompile(`^[0-9a-fA-F]+$`)
	reDotted    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[^\]]*\])+$`)
	reWordish   = regexp.MustCompile(`^[\p{L}_.\-]+$`)
	reDigitish  = regexp.MustCompile(`^[0-9.,_\-]+$`)
	rePath      = regexp.MustCompile(`^(?:~|\.{1,2})?/[\w./\-]*/[\w./\-]*$`)
	reNumberish = regexp.MustCompile(`^[0-9]+(?:\.[0-9]+)?[a-zA-Z%]{0,3}$`)
)

// credentialValue reports whether v, assigned to a credential name, looks like a real secret. quoted tells
// whether the value was written inside quotes, which rules out identifier references in code.
func credentialValue(v string, quoted bool) bool {
	if utf8.RuneCountInString(v) < 6 || isPlaceholder(v) {
		return false
	}
	if reWordish.MatchString(v) || reDigitish.MatchString(v) || reNumberish.MatchString(v) || rePath.MatchString(v) {
		return false
	}
	if !quoted {
		if reDotted.MatchString(v) || (strings.Contains(v, "(") && strings.HasSuffix(strings.TrimRight(v, ",;"), ")")) {
			return false
		}
	}
	if reUUID.MatchString(v) {
		return false
	}
	return true
}

// strongValue is the bar for values next to a weaker signal, such as a name in prose ("the password is …"):
// at least 8 characters drawn from at least two character classes.
func strongValue(v string) bool {
	if !credentialValue(v, true) || utf8.RuneCountInString(v) < 8 {
		return false
	}
	n, _, _, _, _ := classes(v)
	return n >= 2
}

// randomValue reports whether v looks machine-generated: long enough and high in entropy for its alphabet.
func randomValue(v string) bool {
	if isPlaceholder(v) || reUUID.MatchString(v) {
		return false
	}
	if reHex.MatchString(v) {
		return len(v) >= 32 && entropy(v) >= 3.0
	}
	if len(v) < 16 || strings.ContainsAny(v, " \t") {
		return false
	}
	n, _, _, _, _ := classes(v)
	if n < 2 || reDotted.MatchString(v) || rePath.MatchString(v) {
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

var (
	// passwordWords name a password in any of the supported languages.
	passwordWords = map[string]bool{
		"password": true, "passwd": true, "pwd": true, "pass": true, "passphrase": true, "passcode": true,
		"contraseña": true, "contrasena": true, "contrasenya": true, "passwort": true, "kennwort": true,
		"senha": true, "motdepasse": true, "mdp": true, "clave": true, "mot de passe": true,
	}
	tokenWords = map[string]bool{
		"token": true, "authtoken": true, "accesstoken": true, "apitoken": true, "refreshtoken": true,
		"bearertoken": true, "pat": true, "apikey": true, "credential": true, "credentials": true, "creds": true,
		"clientsecret": true, "appsecret": true, "privatetoken": true,
	}
	keyWords = map[string]bool{"secretkey": true, "hmac": true, "hmackey": true, "signingkey": true, "salt": true, "pepper": true}
	// keyCred qualify "key" or "secret" so that the pair names an API credential; keyLike qualify it so that the
	// pair names key material judged by entropy.
	credQualifiers = map[string]bool{
		"api": true, "access": true, "auth": true, "client": true, "app": true, "account": true, "consumer": true,
		"license": true, "subscription": true, "oauth": true, "application": true, "service": true,
	}
	keyQualifiers = map[string]bool{
		"secret": true, "signing": true, "encryption": true, "hmac": true, "private": true, "session": true,
		"jwt": true, "crypto": true, "cipher": true, "aes": true, "master": true, "cookie": true, "webhook": true,
		"shared": true, "sign": true, "encrypt": true, "decryption": true,
	}
	// notSecretLast end names that describe a secret without holding one (password_file, token_ttl, secret_arn).
	notSecretLast = map[string]bool{
		"id": true, "ids": true, "arn": true, "name": true, "names": true, "file": true, "files": true, "path": true,
		"dir": true, "url": true, "uri": true, "endpoint": true, "host": true, "length": true, "len": true,
		"min": true, "max": true, "size": true, "count": true, "ttl": true, "expiry": true, "expires": true,
		"expiration": true, "expire": true, "expired": true, "timeout": true, "type": true, "kind": true,
		"ref": true, "env": true, "var": true, "variable": true, "field": true, "hash": true, "hashed": true,
		"digest": true, "policy": true, "reset": true, "prompt": true, "hint": true, "required": true,
		"enabled": true, "enable": true, "disabled": true, "rotation": true, "rotate": true, "header": true,
		"param": true, "prefix": true, "suffix": true, "format": true, "regex": true, "pattern": true,
		"mode": true, "source": true, "provider": true, "manager": true, "store": true, "version": true,
		"label": true, "description": true, "desc": true, "help": true, "placeholder": true, "example": true,
		"strength": true, "changed": true, "updated": true, "created": true, "at": true, "date": true,
		"time": true, "age": true, "limit": true, "budget": true, "usage": true, "used": true, "index": true,
		"fingerprint": true, "location": true, "stdin": true, "command": true, "cmd": true, "uuid": true,
		"validator": true, "validation": true, "check": true, "valid": true, "exists": true, "present": true,
		"bytes": true, "bits": true, "algorithm": true, "alg": true, "method": true, "scheme": true,
		"sha": true, "md5": true, "secretref": true, "keyref": true, "refs": true, "hashes": true, "list": true,
		"input": true, "output": true, "key_id": true, "selector": true, "mount": true, "volume": true,
		"backend": true, "engine": true, "class": true, "option": true, "options": true, "flag": true,
	}
	// notSecretAny anywhere in a name mean it holds public material or counts LLM tokens.
	notSecretAny = map[string]bool{
		"public": true, "pub": true, "publishable": true, "tokens": true, "tokenizer": true, "tokenize": true,
		"tokenized": true, "tokenization": true, "csrf": true, "xsrf": true, "next": true, "page": true,
		"pagination": true, "cursor": true, "continuation": true, "sync": true,
	}
	// llmWords next to "token" mean a count of model tokens.
	llmWords = map[string]bool{
		"max": true, "min": true, "num": true, "number": true, "total": true, "count": true, "limit": true,
		"budget": true, "input": true, "output": true, "prompt": true, "completion": true, "context": true,
		"usage": true, "cache": true, "cached": true, "embedding": true, "llm": true, "per": true, "rate": true,
		"remaining": true, "used": true, "window": true, "estimate": true, "estimated": true, "reasoning": true,
	}
)

// words splits an identifier into lower-cased words at _, -, ., spaces and camelCase boundaries.
func words(name string) []string {
	var out []string
	rs := []rune(name)
	startWord := 0
	flush := func(end int) {
		if end > startWord {
			out = append(out, strings.ToLower(string(rs[startWord:end])))
		}
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '_' || r == '-' || r == '.' || r == ' ' || r == '[' || r == ']' || r == '"' || r == '\'' {
			flush(i)
			startWord = i + 1
			continue
		}
		if i > startWord && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush(i)
				startWord = i
			}
		}
	}
	flush(len(rs))
	return out
}

// classifyName tells whether an identifier names a credential (password, token, API key), key material
// (secret key, HMAC key), or neither.
func classifyName(name string) nameKind {
	if strings.Contains(strings.ToLower(name), "mot de passe") {
		return nameCredential
	}
	ws := words(name)
	if len(ws) == 0 || notSecretLast[ws[len(ws)-1]] {
		return nameNone
	}
	cred, key := false, false
	for i, w := range ws {
		if notSecretAny[w] {
			return nameNone
		}
		prev := ""
		if i > 0 {
			prev = ws[i-1]
		}
		switch {
		case passwordWords[w] || strings.Contains(w, "password") || strings.Contains(w, "passwd") ||
			strings.Contains(w, "passwort") || strings.Contains(w, "contrase"):
			cred = true
		case tokenWords[w] || strings.HasSuffix(w, "token") || strings.HasSuffix(w, "apikey"):
			for _, o := range ws {
				if llmWords[o] {
					return nameNone
				}
			}
			cred = true
		case keyWords[w]:
			key = true
		case w == "key" || w == "secret":
			switch {
			case credQualifiers[prev]:
				cred = true
			case keyQualifiers[prev] || w == "secret":
				key = true
			}
		}
	}
	switch {
	case cred:
		return nameCredential
	case key:
		return nameKeyLike
	}
	return nameNone
}

// ---- assignments ------------------------------------------------------------------------------------------

// assignment is a credential-looking name followed by a value.
type assignment struct {
	name          string
	value         span
	quoted, prose bool
}

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
		r, size := utf8.DecodeLastRuneInString(text[:ns])
		if !isNameRune(r) {
			break
		}
		ns -= size
	}
	ne := at + n
	for ne < len(text) && ne-at < maxName {
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
	a.name = text[ns:ne]
	i := ne
	// Closing quote or bracket of a key: "password": …, ENV['TOKEN'] = …
	for i < len(text) && i-ne < 3 && (text[i] == '"' || text[i] == '\'' || text[i] == ']' || text[i] == '`') {
		i++
	}
	i = skipBlanks(text, i)
	sep := ""
	switch {
	case strings.HasPrefix(text[i:], ":="), strings.HasPrefix(text[i:], "=>"):
		sep = text[i : i+2]
	case strings.HasPrefix(text[i:], "=="), strings.HasPrefix(text[i:], "::"):
		return a, false
	case i < len(text) && (text[i] == '=' || text[i] == ':'):
		sep = text[i : i+1]
	case flag > 0 && i > ne && i < len(text) && text[i] != '\n':
		sep = " "
	default:
		for _, w := range []string{"is ", "was ", "es ", "ist ", "est ", "é ", "lautet "} {
			if i > ne && strings.HasPrefix(text[i:], w) {
				sep = w
				a.prose = true
				break
			}
		}
		if sep == "" {
			return a, false
		}
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
	if i >= len(text) || text[i] == '\n' || text[i] == '\r' {
		if sep != ":" {
			return a, false
		}
		// YAML: the value sits on the next line, indented further than the key.
		keyIndent := indentOf(text, lineStart(text, ns))
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
		ve := lineEnd(text, vs)
		line := strings.TrimRight(text[vs:ve], " \t\r")
		if line == "" || strings.ContainsAny(line, " \t") || strings.HasSuffix(line, ":") || strings.HasPrefix(line, "- ") {
			return a, false
		}
		return readValue(text, vs, a)
	}
	if sep == " " && i < len(text) && text[i] == '-' {
		return a, false // the next flag, not a value
	}
	return readValue(text, i, a)
}

// readValue reads a quoted or bare value starting at text[i].
func readValue(text string, i int, a assignment) (assignment, bool) {
	if i >= len(text) {
		return a, false
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
		r, size := utf8.DecodeRuneInString(text[j:])
		if unicode.IsSpace(r) || r == '"' || r == '\'' || r == '`' || r == '<' {
			break
		}
		j += size
	}
	// Trailing punctuation belongs to the surrounding code or sentence.
	for j > i && strings.IndexByte(",;)}]", text[j-1]) >= 0 {
		j--
	}
	if a.prose {
		for j > i && strings.IndexByte(".:", text[j-1]) >= 0 {
			j--
		}
	}
	if j <= i {
		return a, false
	}
	a.value = span{i, j}
	return a, true
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
func findAssignment(kind nameKind, check func(v string, a assignment) bool) func(string, int, int) []span {
	return func(text string, at, n int) []span {
		a, ok := parseAssignment(text, at, n)
		if !ok || classifyName(a.name) != kind {
			return nil
		}
		v := text[a.value.start:a.value.end]
		if a.prose && !strongValue(v) {
			return nil
		}
		if !check(v, a) {
			return nil
		}
		return []span{a.value}
	}
}

// ---- fixed shapes -----------------------------------------------------------------------------------------

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isBase32(c byte) bool { return 'A' <= c && c <= 'Z' || '2' <= c && c <= '7' }

// findAWSKeyID matches a 4-letter AWS key ID prefix followed by 16 base32 characters, also when a line break
// (with indentation) splits the 16.
func findAWSKeyID(text string, at, n int) []span {
	if at > 0 && (isAlnum(text[at-1]) || text[at-1] == '_') {
		return nil
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
			return nil
		}
		// One line break may split the key: optional trailing blanks, \r\n or \n, indentation.
		j := skipBlanks(text, i)
		if j < len(text) && text[j] == '\r' {
			j++
		}
		if j >= len(text) || text[j] != '\n' {
			return nil
		}
		i = skipBlanks(text, j+1)
		wrapped = true
	}
	if i < len(text) && (isAlnum(text[i]) || text[i] == '_') {
		return nil
	}
	s := id.String()
	if strings.Contains(s, "EXAMPLE") || distinct(s[4:]) <= 3 {
		return nil
	}
	return []span{{at, i}}
}

var rePEMBegin = regexp.MustCompile(`-{4,5} ?BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY(?: BLOCK)? ?-{4,5}`)

// findPrivateKey matches a PEM-style private key block from its BEGIN line through its END line, or through
// the last line of its body when the text was cut before the END line. A BEGIN line without a body is talk
// about a key, not a key.
func findPrivateKey(text string, at, n int) []span {
	ls := max(lineStart(text, at), at-64)
	le := min(lineEnd(text, at), at+n+16)
	m := rePEMBegin.FindStringIndex(text[ls:le])
	if m == nil || ls+m[1] < at+n {
		return nil
	}
	start := ls + m[0]
	i := ls + m[1]
	body := 0
	inHeaders := true
	limit := min(len(text), i+maxBody)
	for i < limit {
		// A line break is a real newline or an escaped one inside a JSON or shell string.
		switch {
		case text[i] == '\n' || text[i] == '\r':
			i++
			continue
		case strings.HasPrefix(text[i:], `\n`) || strings.HasPrefix(text[i:], `\r`):
			i += 2
			continue
		}
		le := i
		for le < limit && text[le] != '\n' && text[le] != '\r' && !strings.HasPrefix(text[le:], `\n`) {
			le++
		}
		line := strings.Trim(text[i:le], " \t\"',")
		switch {
		case strings.HasPrefix(line, "-----END") || strings.HasPrefix(line, "---- END"):
			if body < 32 {
				return nil
			}
			end := strings.Index(text[i:le], "-----")
			if end >= 0 {
				if k := strings.Index(text[i+end+5:le], "-----"); k >= 0 {
					return []span{{start, i + end + 5 + k + 5}}
				}
			}
			return []span{{start, le}}
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
		return nil
	}
	// Cut before the END line: the key runs to the end of its body.
	end := i
	for end > start && strings.IndexByte(" \t\r\n\"',", text[end-1]) >= 0 {
		end--
	}
	for end > start && strings.HasSuffix(text[:end], `\n`) {
		end -= 2
	}
	return []span{{start, end}}
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
	if line == "" {
		return false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !(isAlnum(c) || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

// findPuTTYKey matches the private section of a PuTTY key file: the base64 lines after "Private-Lines: N".
func findPuTTYKey(text string, at, n int) []span {
	if at > 0 && text[at-1] != '\n' {
		return nil
	}
	i := lineEnd(text, at)
	start, end := -1, -1
	for i < len(text) && i-at < maxBody {
		i++
		le := lineEnd(text, i)
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
		return nil
	}
	return []span{{start, end}}
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
	pass := s[k+1:]
	return len(pass) >= 4 && !isPlaceholder(pass) && strings.ToLower(pass) != "password"
}

// jwtHeader reports whether v's first segment decodes to a JSON object header of a JWT.
func jwtHeader(v string) bool {
	seg, _, _ := strings.Cut(v, ".")
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(seg, "="))
	if err != nil {
		return false
	}
	s := string(raw)
	return strings.HasPrefix(s, "{") && (strings.Contains(s, `"alg"`) || strings.Contains(s, `"typ"`))
}

// tokenValue is the bar for header and bearer values: not a placeholder, at least 12 characters, and not a
// plain word.
func tokenValue(v string) bool {
	if len(v) < 12 || isPlaceholder(v) || reWordish.MatchString(v) {
		return false
	}
	n, _, _, _, _ := classes(v)
	return n >= 2
}

// awsSecret reports whether v looks like an AWS secret access key: 40 base64 characters, mixed, random.
func awsSecret(v string) bool {
	if len(v) != 40 || strings.Contains(v, "EXAMPLE") {
		return false
	}
	_, lower, upper, digit, _ := classes(v)
	return lower && upper && digit && strings.Count(v, "/") <= 4 && entropy(v) >= 4.0
}
