package scan

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Credentials handed over in a sentence. People write a login into a note in more ways than a grammar of
// assignments can list ("the wifi password for the 3rd floor guest network is …", "Use admin / … to log in",
// "sudo on build-03 with …", "the master password … was reset today, it is now …"). This rule asks less of
// the syntax and more of the value: a credential word (password, passphrase, pw, creds, login, sudo, or the
// word for password in another language; for key, token and secret only a machine-generated value) and, in
// the same sentence, at most twelve words after it or four before it, a word that could only be a password:
// strong ([strongValue]) or random ([randomValue]), and none of the things that look strong in engineering
// prose: hosts, e-mail addresses, paths, URLs, versions, hyphenated names (svc-deploy-2, but not passphrases
// such as Meadow-thistle-87), code identifiers (TestLogin2, ENV_VAR_2), cache keys (user:42:profile),
// commit hashes next to "commit" or "sha". A value named as something else ("key ID …", "token hash …") is
// that thing. Code blocks are left to the assignment rules.

// sentenceAhead and sentenceBehind are how many words after and before the credential word are searched.
const (
	sentenceAhead  = 12
	sentenceBehind = 4
)

// strictWords name credentials whose value must be machine-generated to count: "the key", "a token" are
// common in prose with strong-looking words nearby.
var strictWords = map[string]bool{"key": true, "token": true, "secret": true, "api key": true, "apikey": true}

// sentenceKeywords are the credential words of the rule.
var sentenceKeywords = []string{"password", "passwd", "passphrase", "passcode", "pw", "pwd", "creds", "credentials",
	"login", "log in", "sudo", "securestring", "key", "token", "secret", "api key", "apikey",
	"passwort", "kennwort", "contraseña", "contrasena", "mot de passe", "senha", "clave",
	// the word in other languages; a capital that is not ASCII is listed too, as the automaton folds only
	// ASCII letters
	"hasło", "haslo", "пароль", "Пароль", "şifre", "Şifre", "wachtwoord", "heslo", "lösenord", "losenord", "passord",
	"adgangskode", "salasana", "jelszó", "jelszo", "mật khẩu", "Mật khẩu", "パスワード", "暗証番号", "密码", "密碼", "口令",
	"비밀번호", "암호"}

// namedAs are words that, just before a value, say what it is instead: "key ID 1a2b…", "token hash …".
var namedAs = map[string]bool{"id": true, "ids": true, "name": true, "arn": true, "fingerprint": true, "hash": true,
	"digest": true, "sha": true, "sha256": true, "prefix": true, "length": true, "version": true, "path": true, "file": true,
	"url": true, "endpoint": true, "header": true, "type": true, "scope": true, "scopes": true, "limit": true, "e.g.": true,
	"like": true, "example": true, "such": true, "service": true, "sid": true}

func findSentenceCredential(text string, at, n int) ([]span, int) {
	if at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	if e := at + n; e < len(text) && isWordByte(text[e]) {
		if text[e]|0x20 != 's' || e+1 < len(text) && isWordByte(text[e+1]) {
			return nil, 0
		}
		n++ // a plural: "the keys are …"
	}
	if e := at + n; e < len(text) && (text[e] == '=' || text[e] == '_' || (text[e] == '-' || text[e] == '.') && e+1 < len(text) && isWordByte(text[e+1])) ||
		at > 0 && strings.IndexByte(".$_-/:{}", text[at-1]) >= 0 {
		return nil, 0 // a name in code or config (key=…, token_ttl, secrets.X): the assignment rules' to judge
	}
	if at > 0 && at+n < len(text) && (text[at-1] == '"' || text[at-1] == '\'') && text[at+n] == text[at-1] {
		return nil, 0 // a quoted key in JSON or YAML: the assignment rules' to judge
	}
	if k := skipBlanks(text, at+n); k < len(text) && (text[k] == '=' || text[k] == ':' && k+1 < len(text) && text[k+1] == '=') {
		return nil, 0 // an assignment: password = …, token := …
	}
	var buf [32]byte
	if compoundNext[string(appendLower(buf[:0], nextWord(text, at+n)))] {
		return nil, 0 // "the secret store", "the password manager": another thing
	}
	strict := strictWords[string(bytes.TrimSuffix(appendLower(buf[:0], text[at:at+n]), []byte("s")))]
	// What rules a value out by its sentence or its place is looked at only once there is one: most hits
	// have none.
	found := func(sp span) ([]span, int) {
		ss, se := sentenceBounds(text, at)
		sentence := text[ss:se]
		v := text[sp.start:sp.end]
		if strict && containsAnyFold(sentence, []string{"public key", "pubkey", "ssh-rsa", "ssh-ed25519", "ecdsa-sha2"}) ||
			isHex(v) && (len(v) == 40 || len(v) == 64 || len(v) < 32) && containsAnyFold(sentence, []string{"commit", "sha", "hash", "digest", "checksum", "revision"}) ||
			inFence(text, at) {
			return nil, 0
		}
		return []span{sp}, 0
	}
	// After the word, to the end of its sentence; then before it. A value is at least 8 bytes long, a random
	// one 16 ([sentenceValue] asks no less): a line without such a word around the keyword has none, and a
	// shorter word is not judged.
	minLen := 8
	if strict {
		minLen = 16
	}
	le := lineEnd(text, at, 240)
	if !longWord(text[lineStart(text, at, 160):le], minLen) {
		return nil, 0
	}
	for i, words := at+n, 0; i < le && words < sentenceAhead; words++ {
		for i < le && isSpaceByte(text[i]) {
			i++
		}
		j := i
		for j < le && !isSpaceByte(text[j]) {
			j++
		}
		if j == i {
			break
		}
		if j-i >= minLen {
			if sp, ok := sentenceValue(text, i, j, strict); ok && !namedAs[string(appendLower(buf[:0], prevWord(text, i, at+n)))] {
				return found(sp)
			}
		}
		if strings.IndexByte(".!?", text[j-1]) >= 0 {
			break // the sentence ends
		}
		i = j
	}
	ls := lineStart(text, at, 240)
	for j, words := at, 0; j > ls && words < sentenceBehind; words++ {
		for j > ls && isSpaceByte(text[j-1]) {
			j--
		}
		i := j
		for i > ls && !isSpaceByte(text[i-1]) {
			i--
		}
		if i == j || strings.IndexByte(".!?", text[j-1]) >= 0 {
			break // the sentence before
		}
		// Before the word, the value is joined to it: "… as the password", "admin / … to log in".
		if j-i >= minLen && joinsBack[string(appendLower(buf[:0], nextWord(text, j)))] {
			if sp, ok := sentenceValue(text, i, j, strict); ok {
				return found(sp)
			}
		}
		j = i
	}
	return nil, 0
}

// joinsBack are the words that join a value written before a credential word to it.
var joinsBack = map[string]bool{"as": true, "is": true, "was": true, "to": true, "for": true}

// sentenceBounds returns the sentence around text[at], within its line and at most 240 bytes each way.
func sentenceBounds(text string, at int) (int, int) {
	ss := lineStart(text, at, 240)
	for i := at - 1; i > ss; i-- {
		if (text[i] == ' ' || text[i] == '\t') && strings.IndexByte(".!?", text[i-1]) >= 0 {
			ss = i + 1
			break
		}
	}
	se := lineEnd(text, at, 240)
	for i := at; i+1 < se; i++ {
		if strings.IndexByte(".!?", text[i]) >= 0 && (text[i+1] == ' ' || text[i+1] == '\t') {
			se = i + 1
			break
		}
	}
	return ss, se
}

// compoundNext, right after a credential word, make a noun of another thing: the secret store, the password
// manager, the token endpoint.
var compoundNext = map[string]bool{"store": true, "stores": true, "manager": true, "managers": true, "vault": true,
	"policy": true, "policies": true, "rotation": true, "reset": true, "field": true, "fields": true, "file": true, "files": true,
	"scanner": true, "scan": true, "scanning": true, "length": true, "format": true, "endpoint": true, "header": true,
	"name": true, "names": true, "id": true, "ids": true, "type": true, "prefix": true, "expiry": true, "ttl": true, "hash": true,
	"hashes": true, "flow": true, "page": true, "form": true, "prompt": true, "change": true, "changes": true, "budget": true,
	"limit": true, "limits": true, "count": true, "usage": true, "refresh": true, "exchange": true, "validation": true,
	"management": true, "handling": true, "storage": true}

// nextWord returns the word that starts after blanks at text[i], without punctuation after it.
func nextWord(text string, i int) string {
	i = skipBlanks(text, i)
	j := i
	for j < len(text) && j-i < 24 && ('a' <= text[j]|0x20 && text[j]|0x20 <= 'z') {
		j++
	}
	return text[i:j]
}

// prevWord returns the word before text[i], without the punctuation around it, if it lies at or after from.
func prevWord(text string, i, from int) string {
	j := i
	for j > from && isSpaceByte(text[j-1]) {
		j--
	}
	k := j
	for k > from && !isSpaceByte(text[k-1]) {
		k--
	}
	return strings.Trim(text[k:j], ":,;()")
}

// sentenceValue judges the word text[i:j] as the value of a credential named in its sentence, without the
// quotes, brackets and punctuation around it.
func sentenceValue(text string, i, j int, strict bool) (span, bool) {
	// In Chinese, Japanese or Korean text a value stands between the script's characters and punctuation,
	// with no space: it is the longest run of other characters in the word ("密码：Fd…" , "「Fd…」").
	i, j = outsideCJK(text, i, j)
	for i < j && strings.IndexByte("\"'`([<{", text[i]) >= 0 {
		i++
	}
	for j > i && strings.IndexByte("\"'`)]>},;:.!?", text[j-1]) >= 0 && !closesOwnBracket(text[i:j]) {
		j--
	}
	v := text[i:j]
	if len(v) < 8 {
		return span{}, false
	}
	// The cheap test first: most words in a sentence have one or two classes of character, and only hex
	// digits can be random with one.
	if n, _, _, _, _ := classes(v); n < 2 || n == 2 && !isHex(v) && len(v) < 16 {
		return span{}, false
	}
	var buf [64]byte
	if productNames[string(appendLower(buf[:0], v))] {
		return span{}, false
	}
	if len(v) < 8 || strings.Contains(v, "://") || strings.IndexByte(v, '@') > 0 || isPath(v) || isVersion(v) ||
		hyphenCompound(v) && !passphrase(v) || hostName(v) || codeIdentifier(v) || colonKey(v) || isUUID(v) ||
		codeish(v) || timestamp(v) || resourcePath(v) || dottedName(v) {
		return span{}, false
	}
	if v[0] == '-' {
		return span{}, false // a flag: --require-password-change
	}
	if strict {
		return span{i, j}, randomValue(v)
	}
	// A generated password in hex, as Grafana and Jenkins print them, is random at half the length of a key.
	return span{i, j}, proseStrong(v) || len(v) >= 16 && isHex(v) && !isDigitish(v) && strings.IndexFunc(v, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0 && entropy(v) >= 3.0
}

// codeish reports whether v is code or a reference rather than a literal: an assignment, a call, an index, an
// expansion, a resource name (arn:…, vault:…).
func codeish(v string) bool {
	return strings.ContainsAny(v, "=([{") || strings.Contains(v, "${") || strings.Contains(v, "$(") || v[0] == '$' ||
		hasPrefixFold(v, "arn:") || hasPrefixFold(v, "vault:") || hasPrefixFold(v, "sha256:") || hasPrefixFold(v, "sha1:")
}

// dottedName reports whether v is a qualified name from code: letters, digits and underscores in parts
// joined by dots (x509.ParsePKCS8PrivateKey, settings.API_KEY).
func dottedName(v string) bool {
	if strings.IndexByte(v, '.') <= 0 || strings.HasSuffix(v, ".") || strings.Contains(v, "..") {
		return false
	}
	return allBytes(v, func(c byte) bool { return isAlnum(c) || c == '_' || c == '.' })
}

// timestamp reports whether v is a date or a time: digits with - : . T Z +.
func timestamp(v string) bool {
	return '0' <= v[0] && v[0] <= '9' && allBytes(v, func(c byte) bool { return '0' <= c && c <= '9' || strings.IndexByte("-:.TZ+", c) >= 0 })
}

// resourcePath reports whether v is a relative path or resource name: two or more slashes and no base64
// padding or plus that a key would have (projects/acme/secrets/db/versions/3), or lower-case words joined by
// slashes.
func resourcePath(v string) bool {
	if strings.Count(v, "/") >= 2 && !strings.ContainsAny(v, "+=") && allBytes(v, func(c byte) bool { return isPathByte(c) || c == '#' || c == ':' || c == '~' }) {
		return true
	}
	// Lower-case words joined by slashes: docs/auth.md#reset, slack/statuspage. A key in base64 mixes cases.
	return strings.IndexByte(v, '/') >= 0 && allBytes(v, func(c byte) bool {
		return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("/._#-", c) >= 0
	})
}

// productNames look strong but name password managers and vaults: "the password is in 1Password".
var productNames = map[string]bool{"1password": true, "keepassxc": true, "keepass2": true, "passbolt": true}

// hostName reports whether v is a host or domain name: labels of letters, digits and hyphens joined by dots,
// the last of letters (db-replica-2.internal, ci.example.com).
func hostName(v string) bool {
	k := strings.LastIndexByte(v, '.')
	if k <= 0 || k == len(v)-1 || !allBytes(v, func(c byte) bool { return isAlnum(c) || c == '-' || c == '.' }) {
		return false
	}
	return allBytes(v[k+1:], func(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' })
}

// codeIdentifier reports whether v is a name from code: words in camelCase or PascalCase, two or more, with
// digits only at the end (TestLogin2, fetchUserProfile), or words joined by underscores (ENV_VAR_2). A random
// password changes case and digits inside its words (kX9mQ2vLp); Summer2024 is one word.
func codeIdentifier(v string) bool {
	if !allBytes(v, func(c byte) bool { return isAlnum(c) || c == '_' }) {
		return false
	}
	if strings.IndexByte(v, '_') >= 0 {
		return true
	}
	k, words := 0, 0
	for k < len(v) && !('0' <= v[k] && v[k] <= '9') {
		// One word: an optional capital, then lower-case letters.
		s := k
		if 'A' <= v[k] && v[k] <= 'Z' {
			k++
		}
		for k < len(v) && 'a' <= v[k] && v[k] <= 'z' {
			k++
		}
		if k-s < 2 || k < len(v) && 'a' <= v[s] && v[s] <= 'z' && words > 0 {
			return false
		}
		words++
	}
	return words >= 2 && allBytes(v[k:], func(c byte) bool { return '0' <= c && c <= '9' })
}

// colonKey reports whether v is lower-case words and numbers joined by colons, as cache keys and scopes are
// written (user:42:profile, repo:read).
func colonKey(v string) bool {
	return strings.IndexByte(v, ':') > 0 && allBytes(v, func(c byte) bool {
		return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == ':' || c == '_' || c == '-'
	})
}

// longWord reports whether s holds a run of at least n bytes without a blank.
func longWord(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\t' {
			run = 0
			continue
		}
		if run++; run >= n {
			return true
		}
	}
	return false
}

// outsideCJK returns the longest run of text[i:j] without a character of the Chinese, Japanese or Korean
// scripts and their punctuation (U+2E80 on), or i, j when there is none of those.
func outsideCJK(text string, i, j int) (int, int) {
	bi, bj := i, i
	start := i
	cjk := false
	for k, r := range text[i:j] {
		if r >= 0x2E80 {
			cjk = true
			if i+k-start > bj-bi {
				bi, bj = start, i+k
			}
			start = i + k + utf8.RuneLen(r)
		}
	}
	if !cjk {
		return i, j
	}
	if j-start > bj-bi {
		bi, bj = start, j
	}
	return bi, bj
}
