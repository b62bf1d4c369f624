package scan

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Credentials handed over in a sentence. People write a login into a note in more ways than a grammar of
// assignments can list ("the wifi password for the 3rd floor guest network is …", "Use admin / … to log in",
// "sudo on build-03 with …", "the master password … was reset today, it is now …"). This rule asks less of
// the syntax and more of the value: a credential word (password, passphrase, pw, creds, login, sudo, or the
// word for password in another language; for key, token and secret only a machine-generated value) and, in
// the same sentence, at most twelve words after it or five before it, a word that could only be a password:
// strong ([strongValue]) or random ([randomValue]), and none of the things that look strong in engineering
// prose: hosts, e-mail addresses, paths, URLs, versions, hyphenated names (svc-deploy-2, but not passphrases
// such as Meadow-thistle-87), code identifiers (TestLogin2, ENV_VAR_2), cache keys (user:42:profile),
// commit hashes next to "commit" or "sha". A value named as something else ("key ID …", "token hash …") is
// that thing. Code blocks are left to the assignment rules.

// sentenceAhead and sentenceBehind are how many words after and before the credential word are searched.
const (
	sentenceAhead  = 12
	sentenceBehind = 5
)

// strictWords name credentials whose value must be machine-generated to count: "the key", "a token" are
// common in prose with strong-looking words nearby.
var strictWords = map[string]bool{"key": true, "token": true, "secret": true, "api key": true, "apikey": true,
	"clé d'api": true, "clé api": true, "clave de api": true, "klucz api": true,
	"schlüssel": true, "chiave": true, "chave": true, "ключ": true, "Ключ": true, "токен": true,
	"Токен": true, "キー": true, "トークン": true, "密钥": true, "秘钥": true, "令牌": true, "키": true, "토큰": true}

// sentenceKeywords are the credential words of the rule.
var sentenceKeywords = []string{"password", "passwd", "passphrase", "passcode", "pw", "pwd", "creds", "credentials",
	"login", "log in", "sudo", "securestring", "key", "token", "secret", "api key", "apikey",
	// a passphrase named by what it opens
	// (unlock phrase is found by "lock phrase": a keyword that opens with "un" would stop the automaton's fast
	// skip at every "un" of a note)
	"lock phrase", "recovery phrase", "pass phrase", "secret phrase", "master phrase",
	// the verbs of logging in, which say what a value after them is for ("the bot logs in with …", "sign in to
	// the tool with marketing@ and …", "the broker authenticates rig-01 with …")
	"logs in", "logged in", "sign in", "signs in", "signed in", "authenticates", "authenticated with", "authenticate with",
	// "API key" in French, Spanish and Polish, and key and token in other languages (the API-Schlüssel, la
	// chiave API, APIキー, API密钥): strict, like key. German joins API to the word with a hyphen. (Dutch
	// sleutel is left out: "sl" opens too many English words for the automaton's fast skip.)
	"clé d'api", "clé api", "clave de api", "klucz api", "schlüssel", "chiave", "chave", "ключ", "Ключ",
	"токен", "Токен", "キー", "トークン", "密钥", "秘钥", "令牌", "키", "토큰",
	"passwort", "kennwort", "contraseña", "contrasena", "mot de passe", "senha", "clave",
	// the word in other languages; a capital that is not ASCII is listed too, as the automaton folds only
	// ASCII letters
	"hasło", "haslo", "пароль", "Пароль", "şifre", "Şifre", "wachtwoord", "heslo", "lösenord", "losenord", "passord",
	"adgangskode", "salasana", "jelszó", "jelszo", "mật khẩu", "Mật khẩu", "パスワード", "パスフレーズ", "パスコード", "暗証番号",
	"密码", "密碼", "口令", "비밀번호", "패스워드", "암호", "κωδικός", "Κωδικός", "סיסמה", "סיסמא", "كلمة المرور", "كلمة السر", "पासवर्ड", "รหัสผ่าน", "kata sandi",
	"kata laluan", "lozinka", "geslo", "parool", "parola", "парола", "Парола", "contrasenya",
	// Redis's password directive, keytool's passwords and the Wi-Fi key, named in prose
	"requirepass", "storepass", "keypass", "wpa2", "wpa", "psk",
	// a PIN or a lock's code ([findPIN]); in a chat, the question that a value answers ([chatAnswer])
	"pin", "пин", "Пин", "ПИН", "code", "combination", "combo", "wifi", "wi-fi", "wlan", "pass ", "pass:"}

// publicWords, in the sentence of a key word, make the key a public one: "public key" in English and the
// languages whose key words are read, and the public formats.
var publicWords = []string{"public key", "pubkey", "ssh-rsa", "ssh-ed25519", "ecdsa-sha2", "chiave pubblica",
	"clé publique", "clave pública", "chave pública", "ffentliche", "publieke sleutel",
	"публичный ключ", "открытый ключ", "公開鍵", "公開キー", "公钥", "공개 키", "공개키"}

// publicWordsFor returns the [publicWords] a sentence about the key word kw is searched for: an English key
// word ("the key", "the token", most hits) needs only the English words and the formats.
func publicWordsFor(kw string) []string {
	var buf [16]byte
	switch string(bytes.TrimSuffix(appendLower(buf[:0], kw[:min(len(kw), len(buf))]), []byte("s"))) {
	case "key", "token", "secret", "api key", "api_key", "api-key", "api.key", "apikey":
		return publicWords[:5]
	}
	return publicWords
}

// ageRecipient reports whether v is an age public key (age1 and 58 bech32 characters), which encrypts to
// its owner and is meant to be shared.
func ageRecipient(v string) bool {
	return len(v) == 62 && strings.HasPrefix(v, "age1") && allBytes(v[4:], func(c byte) bool {
		return strings.IndexByte("qpzry9x8gf2tvdw0s3jn54khce6mua7l", c) >= 0
	})
}

// apiCompound reports whether the key word at text[at:at+n] is German's, joined to API by a hyphen:
// API-Schlüssel (the English api-key is a name of its own, the keyword "api key").
func apiCompound(text string, at, n int) bool {
	return at >= 4 && text[at-1] == '-' && strings.EqualFold(text[at-4:at-1], "api") &&
		strings.EqualFold(text[at:at+n], "schlüssel")
}

// namedAs are words that, just before a value, say what it is instead: "key ID 1a2b…", "token hash …".
var namedAs = map[string]bool{"id": true, "ids": true, "name": true, "arn": true, "fingerprint": true, "hash": true,
	"digest": true, "sha": true, "sha256": true, "prefix": true, "length": true, "version": true, "path": true, "file": true,
	"url": true, "endpoint": true, "header": true, "type": true, "scope": true, "scopes": true, "limit": true, "e.g.": true,
	"like": true, "example": true, "such": true, "service": true, "sid": true,
	// a Vault token's accessor looks a token up or revokes it but cannot authenticate
	"accessor": true, "accessors": true}

func findSentenceCredential(text string, at, n int) ([]span, int) {
	if n == 11 && at >= 2 && equalFoldASCII(text[at-2:at], "un") && equalFoldASCII(text[at:at+n], "lock phrase") {
		at, n = at-2, n+2 // unlock phrase
	}
	if at > 0 && isWordByte(text[at-1]) && text[at] < 0xe3 {
		// Inside a longer word (repassword, mytoken); a word in Chinese, Japanese or Korean script is glued to
		// the Latin word before it without a space ("rootパスワードは …"), which is that script's spelling.
		return nil, 0
	}
	if c := lowerByte(text[at]); n <= 6 && (c == 'p' || c == 'c' || c == 'w' || c == 0xd0) {
		// The short words of two other forms: a PIN or a lock's code, and a chat's question.
		var kb [6]byte
		switch kw := string(appendLower(kb[:0], text[at:at+n])); kw {
		case "pin", "пин", "Пин", "ПИН", "code", "combo":
			return findPIN(text, at, n)
		case "pass ", "pass-", "pass_", "pass:":
			if !passOwners[strings.ToLower(prevWord(text, at, lineStart(text, at, 40)))] {
				return chatAnswer(text, at, n)
			}
			n-- // "admin pass: …", "wifi pass for the office: …": a password named by whose it is
		case "wifi", "wi-fi", "wlan":
			return chatAnswer(text, at, n)
		}
	}
	if e := at + n; e < len(text) && isWordByte(text[e]) {
		k := 0
		if n >= 5 {
			k = wordSuffix(text, at, n)
		}
		switch {
		case k > 0:
			n += k // şifresi, lösenordet
		case text[e]|0x20 != 's' || e+1 < len(text) && isWordByte(text[e+1]):
			return nil, 0
		default:
			n++ // a plural: "the keys are …"
		}
	}
	if e := at + n; e < len(text) && (text[e] == '=' || text[e] == '_' || (text[e] == '-' || text[e] == '.') && e+1 < len(text) && isWordByte(text[e+1])) ||
		at > 0 && strings.IndexByte(".$_-/:{}=", text[at-1]) >= 0 && !apiCompound(text, at, n) {
		// a name in code or config (key=…, token_ttl, secrets.X): the assignment rules' to judge; or a kind
		// given as an option's value (--mount=type=secret,id=…)
		return nil, 0
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
	if n == 11 && strings.EqualFold(text[at:at+n], "combination") {
		return findPIN(text, at, n) // a lock's combination is its code
	}
	if n == 8 && strings.EqualFold(text[at:at+n], "passcode") || text[at:at+n] == "パスコード" || text[at:at+n] == "暗証番号" {
		if sp, skip := findPIN(text, at, n); sp != nil {
			return sp, skip // "the passcode 771903": passcodes are digits
		}
	}
	if sp, ok := tableCell(text, at, n); ok && (!strict || randomValue(text[sp.start:sp.end])) {
		return []span{sp}, 0
	}
	// What rules a value out by its sentence or its place is looked at only once there is one: most hits
	// have none.
	verb := loginVerb(text[at : at+n])
	found := func(sp span) ([]span, int) {
		ss, se := sentenceBounds(text, at)
		if se < sp.end {
			_, se = sentenceBounds(text, sp.start) // the sentence goes on to the value's line
		}
		sentence := text[ss:se]
		v := text[sp.start:sp.end]
		if verb && !switchy(v) {
			return nil, 0 // "logs in with AzureAD2024", "authenticates with OAuth2ClientCredentials": names
		}
		if strict && (containsAnyFold(sentence, publicWordsFor(text[at:at+n])) || ageRecipient(v)) ||
			isHex(v) && (len(v) == 40 || len(v) == 64 || len(v) < 32) && containsAnyFold(sentence, []string{"commit", "sha", "hash", "digest", "checksum", "revision"}) ||
			inFence(text, at) {
			return nil, 0
		}
		return []span{sp}, 0
	}
	if !strict && at >= 4 && (text[at-1] == ' ' || text[at-1] == '-') && appWord(text, at-1) {
		// "the gmail app password is abcd efgh ijkl mnop": no word of it is long, so before the test below
		for i, words := at+n, 0; words < 3; words++ {
			var j int
			i, j = nextRun(text, i, lineEnd(text, at, 160))
			if j == i {
				break
			}
			if directSlot(text, at+n, i, words) != slotNone {
				if sp, ok := appPasswordAt(text, i); ok {
					return found(sp)
				}
			}
			i = j
		}
	}
	if strict && at+n < len(text) && text[at+n] == ' ' && strings.EqualFold(prevWord(text, at, lineStart(text, at, 40)), "with") {
		// "the console is minioadmin-dev with secret 4Ku5…": a login's secret right after the word is judged by
		// a password's bar, strong and twelve bytes or more, as "with password …" is.
		i, j := nextRun(text, at+n, lineEnd(text, at, 240))
		if s, e := trimValue(text, i, j); e-s >= 12 && strongValue(text[s:e]) && !notPassword(text[s:e], false) {
			return found(span{s, e})
		}
	}
	// After the word, to the end of its sentence; then before it. A value is at least 8 bytes long, a random
	// one 16 ([sentenceValue] asks no less): a line without such a word around the keyword has none, and a
	// shorter word is not judged.
	minLen := 8
	if strict {
		minLen = 16
	}
	le := lineEnd(text, at, 240)
	// A sentence wrapped onto the next line goes on there; a line that ends in a colon gives its value on the
	// next ("Password for the elastic user:" and the password alone below it).
	next := nextLine(text, le)
	if wrapped(text, le, next) {
		le = lineEnd(text, next, 240)
	}
	colon := !strict && next > 0 && lastByte(strings.TrimRight(text[at:le], " \t")) == ':'
	// A key or token right after a colon may be shorter (see below): such lines are read on at 12 bytes.
	short := strict && strings.IndexByte(text[at+n:le], ':') >= 0
	if short {
		minLen = 12
	}
	if !longWord(text[lineStart(text, at, 160):le], minLen) && !(colon && longWord(text[next:lineEnd(text, next, 240)], minLen)) {
		if strict {
			return nil, 0
		}
		return chatAnswer(text, at, n)
	}
	if verb {
		// "authenticates with 832d2129-…": a UUID right after a login's "with" is what it logs in with
		// (Heroku's API keys are UUIDs); in other prose a UUID is an identifier.
		i, j := nextRun(text, at+n, le)
		with := n > 5 && equalFoldASCII(text[at+n-5:at+n], " with")
		if !with && j-i == 4 && equalFoldASCII(text[i:j], "with") {
			with = true
			i, j = nextRun(text, j, le)
		}
		if s, e := trimValue(text, i, j); with && isUUID(text[s:e]) {
			return found(span{s, e})
		}
	}
	human := !strict && humanWord(text[at:at+n])
	for i, words := at+n, 0; i < le && words < sentenceAhead; words++ {
		var j int
		i, j = nextRun(text, i, le)
		if j == i {
			break
		}
		if j-i >= minLen {
			if sp, ok := sentenceValue(text, i, j, strict); ok && !namedAs[string(appendLower(buf[:0], prevWord(text, i, at+n)))] {
				return found(sp)
			}
			if short && directSlot(text, at+n, i, words) == slotCopula && !namedAs[strings.Trim(string(appendLower(buf[:0], prevWord(text, i, at+n))), ":")] {
				// Right after a copula or a colon a key or token may be shorter than a random run: generated, it
				// switches character class often ("Our API key for the weather feed …: 1kCd…").
				if s, e := trimValue(text, i, j); e-s >= 12 && switchy(text[s:e]) && !hyphenCompound(text[s:e]) && !strings.ContainsAny(text[s:e], "@:") && strings.Count(text[s:e], "/") < 2 && credentialValue(text[s:e]) && !vendorPrefixed(text[s:e]) && !notPassword(text[s:e], false) && !isHex(text[s:e]) {
					return found(span{s, e})
				}
			}
			if !strict {
				if sp, ok := directAt(text, at+n, i, j, words, human); ok {
					return found(sp)
				}
			}
		}
		if words <= 8 && human && (text[i] == '"' || text[i] == 0xe2) {
			// "the passphrase is \"…\"", also past a short phrase: "the passphrase for it is \"…\"", and past a
			// longer one when the quote holds four words or more, as a generated passphrase does ("the recovery
			// passphrase for the encrypted backup disk is \"…\""; "… in the lab is \"four random words\"" is a rule), in
			// its clause.
			if sp, ok := quotedAt(text, at+n, i, le, words); ok && (words <= 5 || strings.Count(text[sp.start:sp.end], " ") >= 3 && strings.IndexByte(text[at+n:i], ';') < 0) {
				return found(sp)
			}
		}
		if strings.IndexByte(".!?", text[j-1]) >= 0 {
			// The sentence ends, unless the next one says what the credential is: "… your Jira password, Tom. It
			// is …".
			if k := skipBlanks(text, j); k < le && (hasPrefixFold(text[k:], "it is ") || hasPrefixFold(text[k:], "it's ") || hasPrefixFold(text[k:], "it was ")) {
				i = j
				continue
			}
			break
		}
		i = j
	}
	if colon && le < next && !strict {
		if sp, ok := nextLineValue(text, next, minLen, human); ok {
			return found(sp)
		}
	}
	ls := lineStart(text, at, 240)
	behind := sentenceBehind
	for j, words := at, 0; j > ls && words < behind; words++ {
		if words == sentenceBehind-1 && containsAnyFold(text[ls:j], giveVerbs) {
			behind = sentenceAhead // the sentence goes on back: "Use … when the BIOS asks for the supervisor password"
		}
		for j > ls && isSpaceByte(text[j-1]) {
			j--
		}
		i := j
		for i > ls && !isSpaceByte(text[i-1]) {
			i--
		}
		if i == j || strings.IndexByte(".!?;", text[j-1]) >= 0 {
			break // the sentence before, or the clause before a semicolon
		}
		// Before the word, the value is joined to it: "… as the password", "admin / … to log in"; further back,
		// up to as far as the sentence reaches ahead, a value that a verb of giving hands over opens the
		// sentence: "Use … when the BIOS asks for the supervisor password".
		if j-i >= minLen && (words < sentenceBehind && joinsBack[string(appendLower(buf[:0], nextWord(text, j)))] || givenAt(text, i, ls)) {
			if sp, ok := sentenceValue(text, i, j, strict); ok {
				return found(sp)
			}
		}
		j = i
	}
	if strict {
		return nil, 0
	}
	return chatAnswer(text, at, n)
}

// giveVerbs are the verbs of giving [givenAt] reads, as they stand before a value.
var giveVerbs = []string{"use ", "enter ", "type ", "try ", "paste "}

// givenAt reports whether the word at text[i] is the object of a verb of giving that opens its sentence or
// clause: "Use …", "Enter …", "Type …", "Try …", "Paste …".
func givenAt(text string, i, ls int) bool {
	w := prevWord(text, i, ls)
	switch strings.ToLower(w) {
	case "use", "enter", "type", "try", "paste":
	default:
		return false
	}
	k := i
	for k > ls && isSpaceByte(text[k-1]) {
		k--
	}
	k -= len(w)
	for k > ls && isSpaceByte(text[k-1]) {
		k--
	}
	return k <= ls || strings.IndexByte(".!?:;,", text[k-1]) >= 0
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
	"management": true, "handling": true, "storage": true, "hashing": true, "hashed": true, "encryption": true, "encoding": true,
	"algorithm": true, "complexity": true, "requirements": true, "requirement": true, "strength": true,
	"expiration": true, "history": true, "salt": true, "salting": true, "rules": true, "pad": true, "entry": true,
	"node": true, "nodes": true, "shell": true, "screen": true, "banner": true}

// nextWord returns the word that starts after blanks at text[i], without punctuation after it; none when i
// is at or past the end.
func nextWord(text string, i int) string {
	if i >= len(text) {
		return ""
	}
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
// jsonPairs reports whether v holds quoted JSON members ("alg":"RS256","typ"): a decoded header or a
// payload the sentence shows, whose structure no password has.
func jsonPairs(v string) bool { return strings.Contains(v, `":"`) || strings.Contains(v, `","`) }

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
	if n, _, _, _, _ := classes(v); n < 2 || n == 2 && !isHex(v) && len(v) < 16 && !randomLetters(v) {
		return span{}, false
	}
	var buf [64]byte
	if len(v) <= productNameLen && productNames[string(appendLower(buf[:0], v))] {
		return span{}, false
	}
	if len(v) < 8 || strings.Contains(v, "://") || strings.IndexByte(v, '@') > 0 || isPath(v) || isVersion(v) ||
		hyphenCompound(v) && !passphrase(v) || (hostName(v) && !randomLetters(v)) || codeIdentifier(v) || colonKey(v) || isUUID(v) ||
		codeish(v) && !equalsInside(v) && !base64Padded(v) || elided(v) || timestamp(v) || resourcePath(v) || dottedName(v) && !randomLetters(v) || loneJWTHeader(v) || jsonPairs(v) {
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

// base64Padded reports whether v is base64 of sixteen characters or more whose only = are the padding at its
// end (…PIJojobA=), which assigns nothing.
func base64Padded(v string) bool {
	body := strings.TrimRight(v, "=")
	return len(body) >= 16 && len(v)-len(body) <= 2 && allBytes(body, isBase64Byte)
}

// equalsInside reports whether v's only mark of code is an = that assigns nothing: one inside a random run
// (cQEitVXbkT3j9=US, fs=Q5zfQ!Lppz), after no variable's name ([envAssign]) and with none of the brackets,
// quotes or expansions that code writes around it.
func equalsInside(v string) bool {
	k := strings.IndexByte(v, '=')
	if k <= 0 || k == len(v)-1 || strings.ContainsAny(v, "([{$\"'") || envAssign(v) || strings.Contains(v, "==") {
		return false
	}
	// After a lower-case word or a setting's name the = may set it (id=abc123, ClockSyncMinutes=60): then
	// what follows must be random alone.
	if allBytes(v[:k], func(c byte) bool { return 'a' <= c && c <= 'z' }) || settingName(v[:k]) {
		n, _, _, _, _ := classes(v[k+1:])
		return len(v)-k-1 >= 8 && n >= 3
	}
	return true
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

// productNameLen is the length of the longest of productNames: a longer word is none of them.
var productNameLen = func() (n int) {
	for p := range productNames {
		n = max(n, len(p))
	}
	return n
}()

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

// directAt judges the word text[i:j], words words after the credential word that ends at kwEnd, by the
// direct-slot bar when it stands in a direct slot.
func directAt(text string, kwEnd, i, j, words int, human bool) (span, bool) {
	slot := directSlot(text, kwEnd, i, words)
	if slot == slotNone {
		return span{}, false
	}
	return directValue(text, i, j, slot == slotCopula && human)
}

// appWord reports whether the word that ends at text[e] names an app password, one a service generates for a
// program that cannot sign in with the account's own: app, application, app-specific.
func appWord(text string, e int) bool {
	for _, w := range []string{"app", "application", "specific"} {
		if s := e - len(w); s >= 0 && equalFoldASCII(text[s:e], w) && (w == "specific" && s >= 4 && equalFoldASCII(text[s-4:s], "app-") ||
			w != "specific" && (s == 0 || !isAlnum(text[s-1]))) {
			return true
		}
	}
	return false
}

// appPasswordAt finds an app password at text[i] as Google shows one: four groups of four lower-case letters
// (abcd efgh ijkl mnop).
func appPasswordAt(text string, i int) (span, bool) {
	k := i
	for g := 0; g < 4; g++ {
		if g > 0 {
			if k >= len(text) || text[k] != ' ' {
				return span{}, false
			}
			k++
		}
		for x := 0; x < 4; x++ {
			if k >= len(text) || text[k] < 'a' || text[k] > 'z' {
				return span{}, false
			}
			k++
		}
		if commonFour[text[k-4:k]] {
			return span{}, false // "the app password is also sent here": words of a sentence
		}
	}
	if k < len(text) && isWordByte(text[k]) {
		return span{}, false
	}
	return span{i, k}, true
}

// commonFour are English words of four letters that a sentence after "the app password is" holds and a
// generated app password does not.
var commonFour = map[string]bool{"also": true, "only": true, "used": true, "when": true, "sent": true,
	"here": true, "with": true, "from": true, "that": true, "this": true, "will": true, "have": true,
	"your": true, "them": true, "then": true, "what": true, "they": true, "been": true, "were": true,
	"into": true, "over": true, "some": true, "more": true, "once": true, "each": true, "same": true,
	"just": true, "like": true, "need": true, "must": true, "very": true, "much": true, "both": true,
	"does": true, "done": true, "make": true, "made": true, "goes": true, "went": true, "gets": true,
	"kept": true, "stay": true, "sits": true, "last": true, "next": true, "week": true, "time": true,
	"well": true, "able": true, "sure": true, "safe": true, "good": true, "best": true, "left": true,
	"held": true, "away": true, "back": true, "down": true, "ours": true, "mine": true}

// quotedAt finds a passphrase in quotes that opens at text[i] in a direct slot.
func quotedAt(text string, kwEnd, i, le, words int) (span, bool) {
	if directSlot(text, kwEnd, i, words) == slotNone {
		return span{}, false
	}
	return quotedPassphrase(text, i, le)
}

// nextLineValue judges the line at text[next] as a value given alone below a line that ends in a colon.
func nextLineValue(text string, next, minLen int, human bool) (span, bool) {
	ne := lineEnd(text, next, 240)
	i, j := skipBlanks(text, next), ne
	for j > i && isSpaceByte(text[j-1]) {
		j--
	}
	if j-i < minLen || strings.ContainsAny(text[i:j], " \t") {
		return span{}, false
	}
	return directValue(text, i, j, human)
}

// The value's place in the sentence, for [directValue]: the word right after the credential word (slotFirst:
// "sudo password …", "SIM PIN …") or right after a copula or a colon (slotCopula: "… is …", "…: …", "set to …").
// A word standing there is what the sentence says the credential is, so it is judged by a lower bar.
const (
	slotNone = iota
	slotFirst
	slotCopula
)

// copulaWords join a credential to its value in the languages of [sentenceKeywords]: "is", "es", "est", "ist",
// "è", "é", "är", "er", "je", "jest", "lautet", "on", "este", "var".
var copulaWords = map[string]bool{"is": true, "was": true, "are": true, "it's": true, "es": true, "est": true, "ist": true,
	"è": true, "é": true, "är": true, "er": true, "je": true, "jest": true, "lautet": true, "on": true, "este": true, "var": true,
	"era": true, "war": true, "был": true, "は": true, "是": true, "为": true, "為": true, "은": true, "는": true, "είναι": true, "היא": true, "הוא": true, "هي": true, "هو": true, "คือ": true,
	"adalah": true, "ir": true, "yra": true, "je:": true, "—": true, "–": true, "-": true, "→": true, "->": true, "=>": true}

// setPrepositions are "to" in "set to" or "changed to" in other languages, each with the verbs it follows.
var setPrepositions = map[string][]string{
	"na":   {"ustawiłem", "ustawiłam", "ustawione", "ustawiono", "ustawiliśmy", "zmieniłem", "zmieniłam", "zmienione", "zmieniono", "zmieniliśmy"},
	"para": {"mudei", "alterei", "mudou", "alterou", "mudamos", "alteramos", "definida", "definido", "definimos", "trocada", "trocado", "troquei"},
	"a":    {"cambié", "cambiado", "cambiada", "cambiamos", "puesto", "puesta", "puse", "establecida", "establecido", "impostata", "impostato", "cambiata", "cambiato"},
	"sur":  {"réglé", "réglée", "défini", "définie", "mis", "mise"},
	"en":   {"changé", "changée", "modifié", "modifiée"},
	"на":   {"поменял", "сменил", "изменил", "установил", "поменяла", "сменила", "изменила", "установила"},
	"auf":  {"gesetzt", "geändert", "umgestellt"},
}

// directSlot returns the place of the word at text[i] after the credential word that ends at kwEnd, words words
// before it.
func directSlot(text string, kwEnd, i, words int) int {
	if words == 0 {
		if strings.IndexByte(text[kwEnd:i], ':') >= 0 || text[i] == ':' || strings.HasPrefix(text[i:], "：") {
			return slotCopula
		}
		if i == kwEnd {
			return slotNone // glued to the word: <password>@db, password16
		}
		return slotFirst
	}
	j := i
	for j > kwEnd && isSpaceByte(text[j-1]) {
		j--
	}
	k := j
	for k > kwEnd && !isSpaceByte(text[k-1]) {
		k--
	}
	w := text[k:j]
	if strings.HasSuffix(w, ":") || strings.HasSuffix(w, "：") {
		return slotCopula
	}
	var buf [16]byte
	lw := string(appendLower(buf[:0], w[:min(len(w), len(buf))]))
	if copulaWords[lw] {
		return slotCopula
	}
	if verbs := setPrepositions[lw]; verbs != nil && (words == 1 && lw == "auf" || slices.Contains(verbs, strings.ToLower(prevWord(text, k, kwEnd)))) {
		// "set to …" in other languages: ustawiłem na …, mudei para …, cambié a …; German puts the verb after
		// the value, so its "auf" counts right after the word: das Kennwort auf … gesetzt.
		return slotCopula
	}
	if lw == "to" || lw == "now" {
		// "set to …", "changed to …", "is now …"
		switch strings.ToLower(prevWord(text, k, kwEnd)) {
		case "set", "changed", "reset", "updated", "rotated", "is", "was", "it's", "it":
			return slotCopula
		}
	}
	return slotNone
}

// loginVerb reports whether the keyword kw is a verb of logging in rather than a credential word: what it
// names is a login, and the value after it must be random by its shape ([switchy]).
func loginVerb(kw string) bool {
	if len(kw) < 7 || len(kw) > 18 {
		return false
	}
	for _, v := range loginVerbs {
		if len(v) == len(kw) && equalFoldASCII(kw, v) {
			return true
		}
	}
	return false
}

// loginVerbs are the keywords [loginVerb] knows.
var loginVerbs = []string{"logs in", "logged in", "sign in", "signs in", "signed in", "authenticates", "authenticated with", "authenticate with"}

// switchy reports whether v changes between lower case, upper case, digits and symbols four times or more and
// is no camelCase name ([wordy]): q9Ifqh1pGJk9zw, Ntzsoeo046?bhi, not Chrome127, AzureAD2024 or
// OAuth2ClientCredentials.
func switchy(v string) bool {
	return classSwitches(v) >= 4 && !wordy(v)
}

// passOwners, before a bare "pass", make it a password: "admin pass", "wifi pass", "the nas pass"; "tests
// pass" and "--- PASS" are not.
var passOwners = map[string]bool{"with": true, "admin": true, "root": true, "wifi": true, "wi-fi": true, "wlan": true, "db": true,
	"user": true, "vpn": true, "sudo": true, "nas": true, "router": true, "guest": true, "ssh": true, "ftp": true,
	"sftp": true, "same": true, "mysql": true, "postgres": true, "redis": true, "grafana": true, "jenkins": true}

// humanWord reports whether the credential word kw names a password people choose, so that a value in the copula
// slot may be a word and a number (tulipbrick77): not login, sudo or creds, whose values are often user names.
func humanWord(kw string) bool {
	var buf [16]byte
	switch string(appendLower(buf[:0], kw[:min(len(kw), len(buf))])) {
	case "login", "log in", "log_in", "log-in", "sudo", "creds", "credentials", "securestring",
		"logs in", "logged in", "sign in", "signs in", "signed in", "authenticates", "authenticated with", "authenticate with":
		return false
	}
	return true
}

// directValue judges the word text[i:j] in a direct slot. It must be a password by shape, not a host, an
// address, a path, a version, a date, an expansion or an environment assignment; then strong ([strongValue]),
// a passphrase of words and a number in any case ([looseCompound]), or, when relaxed (after a copula, for a
// password word), letters with a digit or a symbol (tulipbrick77), or six to twelve digits that are neither
// filler nor a date.
func directValue(text string, i, j int, relaxed bool) (span, bool) {
	i, j = trimValue(text, i, j)
	v := text[i:j]
	if v == "" {
		return span{}, false
	}
	if allBytes(v, func(c byte) bool { return '0' <= c && c <= '9' }) {
		return span{i, j}, relaxed && len(v) >= 6 && len(v) <= 12 && !isFiller(v) && !dateLike(v)
	}
	if len(v) < 8 || utf8.RuneCountInString(v) < 8 {
		return span{}, false
	}
	// The cheap test first: a password here has letters and a digit or a symbol; most words have not.
	n, lower, upper, digit, other := classes(v)
	if !(lower || upper) || !(digit || other) || notPassword(v, relaxed) {
		return span{}, false
	}
	if n >= 3 && credentialValue(v) || looseCompound(v) {
		return span{i, j}, true
	}
	return span{i, j}, relaxed && (lower || upper) && (digit || other) && !isWordish(v) && !isPlaceholder(v) && !isFiller(v) &&
		!namesCredential(v) && !algorithmName(v)
}

// algorithmNames begin the names of hashes, ciphers and encodings, which follow "the password is" as often as
// a password does: sha256crypt, argon2id, base64url, pbkdf2-sha256.
var algorithmNames = []string{"sha", "md5", "base", "argon", "bcrypt", "scrypt", "pbkdf", "aes", "rsa", "utf", "x509", "hmac",
	"blake", "crc", "des3", "chacha", "ed25519", "ecdsa", "yescrypt", "ntlm", "kerberos", "tls", "ssl", "oauth", "saml"}

// algorithmName reports whether v begins with one of [algorithmNames].
func algorithmName(v string) bool {
	for _, a := range algorithmNames {
		if hasPrefixFold(v, a) {
			return true
		}
	}
	return false
}

// namesCredential reports whether v holds a credential word, as a name in code does (password16, db_pass2,
// secret_v2) and a chosen password rarely does.
func namesCredential(v string) bool {
	return containsAnyFold(v, []string{"pass", "pwd", "secret", "token", "key", "cred"})
}

// trimValue returns the word text[i:j] without the quotes, brackets and punctuation around it, and outside the
// characters of Chinese, Japanese or Korean.
func trimValue(text string, i, j int) (int, int) {
	i, j = outsideCJK(text, i, j)
	for i < j && strings.IndexByte("\"'`([<{", text[i]) >= 0 {
		i++
	}
	for j > i && strings.IndexByte("\"'`)]>},;:.!?", text[j-1]) >= 0 && !closesOwnBracket(text[i:j]) {
		j--
	}
	return i, j
}

// elided reports whether v is a word with an elision or a possessive: letters on both sides of one
// apostrophe (l'utilisateur, qu'il, dell'utente, admin's, don't).
func elided(v string) bool {
	k := strings.IndexByte(v, '\'')
	if k < 0 {
		k = strings.Index(v, "’")
	}
	if k <= 0 {
		return false
	}
	_, size := utf8.DecodeRuneInString(v[k:])
	letters := func(s string) bool {
		return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
	}
	return letters(v[:k]) && letters(v[k+size:])
}

// notPassword reports whether v, in a direct slot, is something other than a password: see [directValue].
func notPassword(v string, relaxed bool) bool {
	var buf [64]byte
	if productNames[string(appendLower(buf[:0], v[:min(len(v), len(buf))]))] || v[0] == '-' || v[0] == '$' ||
		strings.Contains(v, "://") || strings.Contains(v, "${") || strings.Contains(v, "$(") || mailAddress(v) || isPath(v) ||
		isVersion(v) || (hostName(v) && !randomLetters(v)) || isUUID(v) || timestamp(v) || resourcePath(v) || colonKey(v) || envAssign(v) ||
		hasPrefixFold(v, "arn:") || hasPrefixFold(v, "vault:") || hasPrefixFold(v, "sha256:") || hasPrefixFold(v, "op://") || loneJWTHeader(v) {
		return true
	}
	if elided(v) {
		return true // l'utilisateur, d'accès, user's: a word of a sentence
	}
	if codeIdentifier(v) {
		// ENV_VAR_2, api_key_value, TestLogin2: a name from code; after a copula, words and a number are a password
		// (tulpMolen77, GattoBlu_2259).
		upperSnake := strings.IndexByte(v, '_') >= 0 && allBytes(v, func(c byte) bool { return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' })
		digits := strings.ContainsAny(v, "0123456789")
		if !relaxed || upperSnake || !digits {
			return true
		}
	}
	if dottedName(v) && !looseCompound(v) && !randomPart(v) && !randomLetters(v) && !(relaxed && dottedPassphrase(v)) {
		return true // x509.ParsePKCS8PrivateKey, settings.API_KEY
	}
	if hyphenCompound(v) && !looseCompound(v) {
		// OAuth2-based, svc-deploy-2, TLS-1-3 are compounds; CieloRojo-2024x mixes cases and ends in a number.
		_, lower, upper, digit, _ := classes(v)
		last := v[strings.LastIndexByte(v, '-')+1:]
		if !(lower && upper && digit) || isWordish(last) {
			return true
		}
	}
	return false
}

// dottedPassphrase reports whether v is two or more capitalised words joined by dots that end in a number of
// two digits or more, as password generators write them (Violet.Pebble4491, Harbor.Crane.52); code names
// members in lower case or in one capitalised word (settings.API_KEY, x509.ParsePKCS8PrivateKey).
func dottedPassphrase(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return false
	}
	digits := 0
	for n, p := range parts {
		k := 0
		if n == len(parts)-1 && len(parts) > 2 && allBytes(p, func(c byte) bool { return '0' <= c && c <= '9' }) {
			digits = len(p) // Harbor.Crane.52
			break
		}
		if len(p) < 4 || !('A' <= p[0] && p[0] <= 'Z') {
			return false
		}
		for k = 1; k < len(p) && 'a' <= p[k] && p[k] <= 'z'; k++ {
		}
		if k < 3 {
			return false
		}
		rest := p[k:]
		if rest != "" && (n != len(parts)-1 || !allBytes(rest, func(c byte) bool { return '0' <= c && c <= '9' })) {
			return false
		}
		digits += len(rest)
	}
	return digits >= 2
}

// mailAddress reports whether v is an e-mail address or an ssh target: an @ and a lower-case host after it,
// with a letter or a dot (Tara@8812 is a password).
func mailAddress(v string) bool {
	k := strings.IndexByte(v, '@')
	host := v[k+1:]
	return k > 0 && k < len(v)-1 && allBytes(host, func(c byte) bool {
		return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.'
	}) && strings.IndexFunc(host, func(r rune) bool { return r == '.' || 'a' <= r && r <= 'z' }) >= 0
}

// envAssign reports whether v assigns a variable: NAME=… or name=… with a name of three characters or more.
func envAssign(v string) bool {
	k := strings.IndexByte(v, '=')
	if k < 3 {
		return false
	}
	name := v[:k]
	return allBytes(name, func(c byte) bool { return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' }) ||
		allBytes(name, func(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-' })
}

// dateLike reports whether the digits v are a date: YYYYMMDD or DDMMYYYY from 1900 to 2099.
func dateLike(v string) bool {
	if len(v) != 8 {
		return false
	}
	year := func(s string) bool { return s[:2] == "19" || s[:2] == "20" }
	month := func(s string) bool { return s[0] == '0' && s[1] != '0' || s[0] == '1' && s[1] <= '2' }
	return year(v[:4]) && month(v[4:6]) || year(v[4:]) && month(v[2:4])
}

// nextRun returns where the first run of bytes other than spaces in text[i:le] starts and ends; both are le
// when there is none.
func nextRun(text string, i, le int) (int, int) {
	for i < le && isSpaceByte(text[i]) {
		i++
	}
	j := i
	for j < le && !isSpaceByte(text[j]) {
		j++
	}
	return i, j
}

// looseCompound reports whether v is a generated passphrase in any case: three parts or more joined by one of
// - _ . +, at least two of them words of three letters or more (a number may follow a word: jasper65), and a
// number among them, or four words or more of four letters or more (fjord-quartz-cobalt-copper-oyster).
func looseCompound(v string) bool {
	parts := compoundParts(v)
	if parts == nil {
		return false
	}
	words, long, digits := 0, 0, false
	for _, p := range parts {
		k := 0
		for k < len(p) && 'a' <= p[k]|0x20 && p[k]|0x20 <= 'z' {
			k++
		}
		rest := p[k:]
		if rest != "" && !allBytes(rest, func(c byte) bool { return '0' <= c && c <= '9' }) {
			return false
		}
		digits = digits || rest != ""
		switch {
		case k == 0:
		case k >= 3 && strings.ToUpper(p[:k]) != p[:k]:
			words++
			if k >= 4 && rest == "" {
				long++
			}
		default:
			return false
		}
	}
	return words >= 2 && digits || long >= 4 && long == len(parts)
}

// randomPart reports whether a part of the dotted v changes between letters and digits three times or more, as
// generated passwords do and names in code (x509.ParsePKCS8PrivateKey) do not.
func randomPart(v string) bool {
	for p := range strings.SplitSeq(v, ".") {
		switches := 0
		for i := 1; i < len(p); i++ {
			if ('0' <= p[i] && p[i] <= '9') != ('0' <= p[i-1] && p[i-1] <= '9') {
				switches++
			}
		}
		if switches >= 3 {
			return true
		}
	}
	return false
}

// passphraseStop are words that a sentence in quotes has and a generated passphrase does not.
var passphraseStop = map[string]bool{"the": true, "and": true, "for": true, "with": true, "from": true, "your": true, "this": true,
	"that": true, "are": true, "was": true, "not": true, "you": true, "our": true, "its": true, "into": true, "one": true,
	"all": true, "any": true, "enter": true, "password": true, "passphrase": true, "key": true, "same": true, "usual": true}

// quotedPassphrase returns the words in quotes that open at text[i], before le, when they are a passphrase of
// three to eight lower-case words of three letters or more ("gravel kettle saddle falcon"), none of them a
// word of a sentence.
func quotedPassphrase(text string, i, le int) (span, bool) {
	open, close := "", ""
	switch {
	case text[i] == '"':
		open, close = `"`, `"`
	case strings.HasPrefix(text[i:], "“"):
		open, close = "“", "”"
	default:
		return span{}, false
	}
	s := i + len(open)
	k := strings.Index(text[s:le], close)
	if k < 0 {
		return span{}, false
	}
	words := strings.Fields(text[s : s+k])
	if len(words) < 3 || len(words) > 8 {
		return span{}, false
	}
	for _, w := range words {
		if len(w) < 3 || passphraseStop[w] || !allBytes(w, func(c byte) bool { return 'a' <= c && c <= 'z' }) {
			return span{}, false
		}
	}
	return span{s, s + k}, true
}

// wordSuffix returns the length of an inflection that follows the credential word text[at:at+n] in its
// language: Turkish şifresi, şifreniz; Swedish and Norwegian lösenordet, passordet; Finnish salasanasi.
func wordSuffix(text string, at, n int) int {
	kw := text[at : at+n]
	var sufs []string
	// By length first: most words that reach here (tokens, secrets, password_hash) have none of these lengths or
	// letters.
	switch {
	case n == 6 && (strings.EqualFold(kw, "şifre") || kw == "Şifre"):
		sufs = []string{"niz", "si", "m", "n"}
	case n == 7 && strings.EqualFold(kw, "passord"), n == 8 && strings.EqualFold(kw, "losenord"), n == 9 && strings.EqualFold(kw, "lösenord"):
		sufs = []string{"et"}
	case n == 8 && strings.EqualFold(kw, "salasana"):
		sufs = []string{"si", "nsa"}
	default:
		return 0
	}
	for _, s := range sufs {
		if e := at + n + len(s); strings.HasPrefix(text[at+n:], s) && (e == len(text) || !isWordByte(text[e])) {
			return len(s)
		}
	}
	return 0
}

// nextLine returns where the line after the one that ends at le starts, or 0 when there is none.
func nextLine(text string, le int) int {
	if le+1 < len(text) && text[le] == '\n' {
		return le + 1
	}
	return 0
}

// wrapped reports whether the line that ends at le goes on in the line at next: it does not end a sentence or
// open a list, and the next line goes on in lower case or opens a parenthesis.
func wrapped(text string, le, next int) bool {
	if next == 0 || le == 0 || next >= len(text) || strings.IndexByte(".!?:;", text[le-1]) >= 0 || isSpaceByte(text[le-1]) {
		return false
	}
	if c := text[next]; !('a' <= c && c <= 'z' || c == '(') {
		// A line cut after a copula, a comma or a credential word goes on with its value, whatever it begins
		// with: "… the password is⏎Bj25…", "I set a temporary password,⏎aENF…". A list, a quote, a heading, a
		// table or an indented block opens something else.
		if isSpaceByte(c) || strings.IndexByte("-*+#>|`", c) >= 0 || !lineCutBefore(text, le) {
			return false
		}
	}
	// Wrapped prose is a long line of words; a line of code or a list item before a lower-case line is not.
	ls := lineStart(text, le, 240)
	return le-ls >= 50 && strings.Count(text[ls:le], " ") >= 7 && !isSpaceByte(text[ls])
}

// lineCutBefore reports whether the line that ends at le breaks a clause before its value: it ends in a comma,
// a copula (is, are, was, were, lautet, est, es, ist, är, jest, é, è) or a credential word.
func lineCutBefore(text string, le int) bool {
	if text[le-1] == ',' {
		return true
	}
	var buf [24]byte
	pw := prevWord(text, le, lineStart(text, le, 40))
	w := string(appendLower(buf[:0], pw[:min(len(pw), len(buf))]))
	switch w {
	case "is", "are", "was", "were", "lautet", "ist", "est", "es", "är", "jest", "é", "è", "to":
		return true
	}
	return lex().classes[w]&(inPassword|inToken) != 0 || strings.HasSuffix(w, "password") || w == "key" || w == "secret" || w == "code"
}

// lastByte returns the last byte of s, or 0.
func lastByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[len(s)-1]
}

// findPIN finds a PIN or a lock's code handed over in a sentence: PIN written in capitals (the verb pin is not),
// Пин-код, "pin code", a code after lock, door, keypad, gate, alarm or safe, or a combination on the line of
// such a word, then in a direct slot
// ([directSlot]) four to eight digits that are not filler (1234, 0000) or a year.
func findPIN(text string, at, n int) ([]span, int) {
	kw := text[at : at+n]
	e := at + n
	if n == 3 && equalFoldASCII(kw, "pin") {
		if sp, ok := pinSetting(text, at, e); ok {
			return []span{sp}, 0
		}
	}
	// An account's backup or recovery codes are given as a list of codes in groups ([recoveryCode]).
	codes := false
	switch {
	case len(kw) == 11 || strings.EqualFold(kw, "combo"):
		// "combination" (or "combo"): of a lock named on its line before it ("Safe in the server room:
		// combination …", "locker 14 is hers and the combo is …").
		found := false
		for w := range strings.FieldsSeq(strings.ToLower(text[lineStart(text, at, 60):at])) {
			found = found || lockWords[strings.Trim(w, ":,;.()")]
		}
		if !found || strings.EqualFold(nextWord(text, e), "of") {
			return nil, 0 // "the safe combination of flags": a combination of something else
		}
	case lowerByte(kw[0]) == 'c':
		// "lock code", "door code", "smart lock app code": the word before, or the one before it, says what opens.
		w1 := strings.ToLower(prevWord(text, at, lineStart(text, at, 40)))
		k := at - len(w1)
		for k > 0 && !isSpaceByte(text[k-1]) {
			k--
		}
		w2 := strings.ToLower(prevWord(text, max(lineStart(text, at, 60), k-1), lineStart(text, at, 60)))
		codes = w1 == "recovery" || w1 == "backup" || w2 == "recovery" || w2 == "backup"
		if codes && e+1 < len(text) && text[e]|0x20 == 's' && !isWordByte(text[e+1]) {
			e++ // "the recovery codes for the shared ops account are …"
		}
		// Or the words after it: "le code d'accès est …", "el código de acceso", "access code"; or what asks
		// for it, as a device does ("the ticket-gate menu asks for a code; it's …").
		if !lockWords[w1] && !lockWords[w2] && !authorityWords[w1] && !authorityWords[w2] && !accessAfter(text, e) &&
			!(containsAnyFold(text[max(lineStart(text, at, 80), at-40):at], []string{" for "}) && askedFor().MatchString(text[lineStart(text, at, 80):at])) {
			return nil, 0
		}
	case kw == "PIN" || kw == "PUK" || kw == "ПИН" || kw == "Пин" || kw == "пин" || strings.EqualFold(kw, "passcode") || kw == "パスコード" || kw == "暗証番号":
	default:
		// "pin code", "Pin-Code", and a pin named by what it opens or whose it is ("the printer admin pin", "door
		// pin"): the verb pin ("pin numpy to 1.26") is not one.
		w0 := strings.ToLower(prevWord(text, at, lineStart(text, at, 40)))
		named := lockWords[w0] || authorityWords[w0] || w0 == "sim" || w0 == "card"
		if !named && (e >= len(text) || !(text[e] == ' ' || text[e] == '-')) {
			return nil, 0
		}
		if w := strings.ToLower(nextWord(text, e+1)); !named && w != "code" && w != "number" {
			return nil, 0
		}
	}
	if e < len(text) && isWordByte(text[e]) {
		return nil, 0
	}
	if e < len(text) && text[e] == '-' {
		// PIN-код, PIN-Code
		for e < len(text) && !isSpaceByte(text[e]) && text[e] != ':' {
			e++
		}
	}
	le := lineEnd(text, at, 160)
	if next := nextLine(text, le); wrapped(text, le, next) {
		le = lineEnd(text, next, 160) // "… the alarm code changed: it is⏎9821…"
	}
	for i, words := e, 0; i < le && words < sentenceAhead; words++ {
		var j int
		i, j = nextRun(text, i, le)
		if j == i {
			break
		}
		s, t := outsideCJK(text, i, j) // 暗証番号：4821、…: the digits between the script's own characters
		for s < t && strings.IndexByte("\"'`(", text[s]) >= 0 {
			s++
		}
		for t > s && strings.IndexByte("\"'`),;:.!?", text[t-1]) >= 0 {
			t--
		}
		if v := text[s:t]; codes && recoveryCode(v) {
			if directSlot(text, e, i, words) == slotNone || pinFiller(strings.ReplaceAll(v, "-", "")) || inFence(text, at) {
				return nil, 0
			}
			// Every code of the list: "… are 3799-0833, 2987-3236."
			out := []span{{s, t}}
			for k := j; len(out) < 16; {
				k = skipBlanks(text, k)
				if hasPrefixFold(text[k:], "and ") {
					k += len("and ")
				}
				a, b := nextRun(text, k, le)
				c, d := a, b
				for d > c && strings.IndexByte(",;.", text[d-1]) >= 0 {
					d--
				}
				if b == a || !recoveryCode(text[c:d]) || pinFiller(strings.ReplaceAll(text[c:d], "-", "")) {
					break
				}
				out = append(out, span{c, d})
				if d < b && text[d] != ',' {
					break // the list ends with its sentence
				}
				k = b
			}
			return out, 0
		}
		if v := text[s:t]; len(v) >= 4 && len(v) <= 8 && allBytes(v, func(c byte) bool { return '0' <= c && c <= '9' }) {
			if directSlot(text, e, i, words) == slotNone || isFiller(v) || pinFiller(v) || len(v) == 4 && (v[:2] == "19" || v[:2] == "20") || inFence(text, at) {
				return nil, 0
			}
			ss, se := sentenceBounds(text, at)
			if se < t {
				_, se = sentenceBounds(text, s) // the sentence goes on to the value's line
			}
			if containsAnyFold(text[afterHeading(text, ss, at):se], []string{"error", "status", " means", "exit"}) {
				return nil, 0 // "Alarm code 9157 is the vendor's error code": a code that reports, not one that opens
			}
			out := []span{{s, t}}
			// A PUK unlocks a blocked PIN and is written down with it ("the PIV PIN is … and the PUK is …"); alone,
			// "puk" opens too many English words to be a keyword of its own.
			if k := strings.Index(text[t:se], "PUK"); kw != "PUK" && k >= 0 && !isWordByte(text[t+k-1]) {
				if sp, _ := findPIN(text, t+k, 3); sp != nil {
					out = append(out, sp...)
				}
			}
			return out, 0
		}
		if strings.IndexByte(".!?", text[j-1]) >= 0 && (j == le || isSpaceByte(text[j])) {
			break
		}
		i = j
	}
	return nil, 0
}

// afterHeading returns where a sentence that starts at text[ss:] begins past a note's heading before the
// keyword at text[at:]: one to three words and a colon ("Status: …", "Next step: …"). The heading labels the
// note, not the code: "Status: the HSM admin PIN is …" reports no status.
func afterHeading(text string, ss, at int) int {
	for i, words := ss, 1; i < at && words <= 3; i++ {
		switch c := text[i]; {
		case c == ':' && i > ss:
			if i+1 < len(text) && isSpaceByte(text[i+1]) {
				return i + 1
			}
			return ss
		case c == ' ':
			words++
		case !isAlnum(c) && c != '-':
			return ss
		}
	}
	return ss
}

// lockWords, before "code", make it a code that opens something.
var lockWords = map[string]bool{"lock": true, "door": true, "keypad": true, "gate": true, "alarm": true, "safe": true,
	"unlock": true, "entry": true, "locker": true, "access": true,
	// an account's backup and recovery codes open it when the second factor is lost
	"backup": true, "recovery": true}

// authorityWords before a code or a pin make it one that unlocks a role: a till's manager override code, a
// printer's admin pin, a master code.
var authorityWords = map[string]bool{"override": true, "master": true, "manager": true, "supervisor": true, "admin": true}

// accessAfter reports whether the words after "code" at text[e] make it one that opens a door, in the
// languages whose copulas are read: code d'accès, code d'entrée, código de acceso, codice di accesso.
func accessAfter(text string, e int) bool {
	rest := text[skipBlanks(text, e):min(len(text), e+24)]
	for _, p := range []string{"d'accès", "d’accès", "d'entrée", "d’entrée", "de acceso", "de acesso", "di accesso", "d'acces"} {
		if hasPrefixFold(rest, p) {
			return true
		}
	}
	return false
}

// pinSetting finds a PIN set in a config or a literal, a key pin (the word at text[at:e]) given digits in
// quotes: "pin": "736672", pin: '4409', PIN = "918273". Quoted, the digits are a string, as a secret is; a
// number is a setting (a GPIO pin: "pin": 18, pin: 4). Four to eight digits, not filler nor a year.
func pinSetting(text string, at, e int) (span, bool) {
	k := e
	if at > 0 && (text[at-1] == '"' || text[at-1] == '\'') {
		if k >= len(text) || text[k] != text[at-1] {
			return span{}, false
		}
		k++
	} else if at > 0 && !isSpaceByte(text[at-1]) && strings.IndexByte("{,(", text[at-1]) < 0 {
		return span{}, false
	}
	k = skipBlanks(text, k)
	if k >= len(text) || text[k] != ':' && text[k] != '=' {
		return span{}, false
	}
	k = skipBlanks(text, k+1)
	if k >= len(text) || text[k] != '"' && text[k] != '\'' {
		return span{}, false
	}
	q := text[k]
	c := strings.IndexByte(text[k+1:min(len(text), k+11)], q)
	if c < 0 {
		return span{}, false
	}
	v := text[k+1 : k+1+c]
	if len(v) < 4 || len(v) > 8 || !allBytes(v, func(c byte) bool { return '0' <= c && c <= '9' }) || isFiller(v) || pinFiller(v) ||
		len(v) == 4 && (v[:2] == "19" || v[:2] == "20") || inFence(text, at) {
		return span{}, false
	}
	return span{k + 1, k + 1 + c}, true
}

// askedFor matches the words before a code that something asks for: "the menu asks for a code", "the
// door prompts you for its code".
var askedFor = lazyRegexp(`(?i)\b(?:asks?|asked|prompts?|prompted|wants|needs|requires|requested)\s+(?:you\s+)?for\s+(?:an?\s+|the\s+|its\s+|your\s+)?(?:[\w-]+\s+)?$`)

// recoveryCode reports whether v has the shape of an account's backup or recovery code: two or three groups of
// three to six digits or lower-case letters and digits joined by hyphens (3799-0833, a1b2c-3d4e5), or eight to
// ten digits.
func recoveryCode(v string) bool {
	if len(v) >= 8 && len(v) <= 10 && allBytes(v, func(c byte) bool { return '0' <= c && c <= '9' }) {
		return true
	}
	groups := strings.Split(v, "-")
	if len(groups) < 2 || len(groups) > 3 {
		return false
	}
	digits := 0
	for _, g := range groups {
		if len(g) < 3 || len(g) > 6 || !allBytes(g, func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' }) {
			return false
		}
		for k := 0; k < len(g); k++ {
			if '0' <= g[k] && g[k] <= '9' {
				digits++
			}
		}
	}
	return digits >= 3 // a code, not words joined by hyphens (see-the-wiki)
}

// pinFiller reports whether the digits v are a placeholder PIN: four ascending or descending (1234, 4321), fewer
// than three distinct digits in six or more (11112222), or equal digits in a row over half of the PIN, at least
// three (0000, 777771); a run of four in an eight-digit PUK (61122224) is chance, as in any random digits.
func pinFiller(v string) bool {
	run, up, down := 1, 1, 1
	long := max(3, len(v)/2+1)
	var seen [10]bool
	distinct := 0
	for i := 0; i < len(v); i++ {
		if d := v[i] - '0'; d < 10 && !seen[d] {
			seen[d] = true
			distinct++
		}
		if i == 0 {
			continue
		}
		run, up, down = count(v[i] == v[i-1], run), count(v[i] == v[i-1]+1, up), count(v[i]+1 == v[i-1], down)
		if run >= long || up >= 4 || down >= 4 {
			return true
		}
	}
	return len(v) >= 6 && distinct < 3
}

func count(ok bool, n int) int {
	if ok {
		return n + 1
	}
	return 1
}

// chatAnswer finds a password given as the answer in a pasted chat: a message that asks about a credential
// (the word at text[at:at+n]: password, pass, wifi…) and the next line, another message, whose words hold a
// value that can only be a password ("[10:42] dana: what was the vpn password again?" then "[10:43] lee: …").
func chatAnswer(text string, at, n int) ([]span, int) {
	if c := text[at+n-1]; c == ' ' || c == '-' || c == '_' {
		n-- // "pass ": the keyword holds the blank after the word
	}
	if e := at + n; at > 0 && isWordByte(text[at-1]) || e < len(text) && isWordByte(text[e]) {
		return nil, 0
	}
	le := lineEnd(text, at, 160)
	next := nextLine(text, le)
	bare := n == 4 && lowerByte(text[at]) == 'p'
	if next == 0 || !bare && strings.IndexByte(text[at:le], '?') < 0 {
		return nil, 0 // no answer below, or no question: only a bare "pass" asks without a question mark
	}
	q := chatMessage(text, lineStart(text, at, 160), le)
	if q < 0 || q > at {
		return nil, 0
	}
	if strings.IndexByte(text[at:le], '?') < 0 {
		switch w := strings.ToLower(nextWord(text, q)); w {
		case "what", "which", "whats", "how", "where", "did", "is", "was", "got", "any", "can", "could":
		default:
			return nil, 0 // not a question
		}
	}
	ne := lineEnd(text, next, 160)
	a := chatMessage(text, next, ne)
	if a < 0 {
		return nil, 0
	}
	for i, words := a, 0; i < ne && words < 6; words++ {
		for i < ne && isSpaceByte(text[i]) {
			i++
		}
		j := i
		for j < ne && !isSpaceByte(text[j]) {
			j++
		}
		if j == i {
			break
		}
		if sp, ok := directValue(text, i, j, true); ok && j-i >= 8 {
			return []span{sp}, 0
		}
		i = j
	}
	return nil, 0
}

// chatMessage returns where the message starts in the chat line text[ls:le] ("  priya: …", "[10:43] lee: …",
// "ana: …"), or -1 when the line is not one: an optional time in brackets, then a name of letters, digits, dots,
// hyphens or underscores and a colon.
func chatMessage(text string, ls, le int) int {
	i := skipBlanks(text, ls)
	if i < le && text[i] == '[' {
		k := strings.IndexByte(text[i:le], ']')
		if k < 0 || k > 12 {
			return -1
		}
		i = skipBlanks(text, i+k+1)
	}
	j := i
	for j < le && j-i <= 20 && (isAlnum(text[j]) || text[j] == '.' || text[j] == '-' || text[j] == '_') {
		j++
	}
	if j == i || j >= le || text[j] != ':' || j+1 < le && !isSpaceByte(text[j+1]) {
		return -1
	}
	return j + 1
}

// accountNames are the user names a login is written with when no word says it is one: "admin / …",
// "root / …".
var accountNames = map[string]bool{"admin": true, "administrator": true, "root": true, "deploy": true, "deployer": true,
	"ubuntu": true, "ec2-user": true, "pi": true, "postgres": true, "sa": true, "elastic": true, "guest": true, "test": true,
	"qa": true, "operator": true, "builder": true, "jenkins": true, "oracle": true, "mysql": true, "redis": true,
	"kafka": true, "ftp": true, "sftp": true, "superuser": true, "sysadmin": true, "service": true, "support": true}

// loginWords, before a user on its line, say that user / value is a login: "u/p acme_ingest / …", "Log in as
// deploy / …", "SASL user/pass … -> writer / …".
var loginWords = []string{"u/p", "user/pass", "username/password", "user / pass", "log in as", "login as", "logged in as",
	"sign in as", "log in with", "logged in with", "sign in with", "basic auth", "creds", "credentials", "login"}

// findSlashPair finds a login written as user / password in a sentence at the " / " at text[at]: the user an
// e-mail address, an account name ([accountNames]) or any name after a word of [loginWords] on its line; the
// password, in backticks or quotes or not, a value that could only be one by the direct-slot bar
// ([directValue]), relaxed only after words of logging in.
func findSlashPair(text string, at, n int) ([]span, int) {
	if at == 0 || text[at] != ' ' || text[at+n-1] != ' ' {
		return nil, 0
	}
	// The user: the word before, without quotes.
	ue := at
	for ue > 0 && (text[ue-1] == '`' || text[ue-1] == '"' || text[ue-1] == '\'') {
		ue--
	}
	us := ue
	for us > 0 && ue-us < 64 && (isAlnum(text[us-1]) || strings.IndexByte("._+-@", text[us-1]) >= 0) {
		us--
	}
	if us == ue {
		return nil, 0
	}
	user := text[us:ue]
	var buf [16]byte
	named := mailAddress(user) || len(user) <= len(buf) && accountNames[string(appendLower(buf[:0], user))]
	login := containsAnyFold(text[lineStart(text, us, 120):us], loginWords)
	if !named && !login {
		return nil, 0
	}
	// The password: the word after, without quotes.
	vs := at + n
	ve := vs
	for ve < len(text) && ve-vs < maxValue && !isSpaceByte(text[ve]) {
		ve++
	}
	if ve == vs {
		return nil, 0
	}
	// Words of logging in admit a password of words and a number (tulipbrick77); a name alone, a strong one.
	sp, ok := directValue(text, vs, ve, login)
	if !ok && named {
		// A strong value is the password by its place, whatever its shape: root / MoonRiver2024!.
		if s, e := trimValue(text, vs, ve); e-s >= 8 && strongValue(text[s:e]) && !notPassword(text[s:e], true) {
			sp, ok = span{s, e}, true
		}
	}
	if !ok || strings.EqualFold(text[sp.start:sp.end], user) || !endsLogin(text, sp.end) || inFence(text, at) {
		return nil, 0
	}
	return []span{sp}, 0
}

// endsLogin reports whether a login's password that ends at text[end] ends its phrase: the line or a clause ends,
// or a word follows that goes on about the login ("… to log in", "… and sudo is passwordless"), not a noun of
// which the value would be a part ("admin / Maintainer2 / viewer", "guest / Visitor-WiFi-2 SSID").
func endsLogin(text string, end int) bool {
	for end < len(text) && (text[end] == '`' || text[end] == '"' || text[end] == '\'') {
		end++
	}
	if end == len(text) || text[end] == '\n' || strings.IndexByte(".,;:)!?", text[end]) >= 0 {
		return true
	}
	i := skipBlanks(text, end)
	if i == len(text) || text[i] == '\n' || text[i] == '(' || strings.HasPrefix(text[i:], "—") || strings.HasPrefix(text[i:], "- ") {
		return true
	}
	switch w, _ := wordAt(text, i); w {
	case "to", "and", "for", "until", "on", "at", "in", "via", "from", "as", "or", "is", "was", "works", "against", "but",
		// and, then, to or for in the languages whose password words are read: … et ouvrir le port, … und dann
		"et", "puis", "pour", "sur", "und", "dann", "auf", "y", "para", "en", "e", "per", "och", "og":
		return true
	}
	return false
}

// tableCell finds a password in a Markdown table whose header names the credential at text[at:at+n] as a
// column ("| host | user | password |", "| DB password |"): the cell of that column in the rows below, by the
// direct-slot bar.
func tableCell(text string, at, n int) (span, bool) {
	// The cheap test first: a bar after the word; most hits are in prose.
	if k := skipBlanks(text, at+n); k >= len(text) || text[k] != '|' {
		return span{}, false
	}
	ls, le := lineStart(text, at, 240), lineEnd(text, at, 240)
	head := strings.TrimSpace(text[ls:le])
	if !strings.HasPrefix(head, "|") || strings.TrimSpace(text[at+n:at+n+strings.IndexByte(text[at+n:le]+"|", '|')]) != "" {
		return span{}, false // not a header cell that ends with the word ("| DB password |")
	}
	col := strings.Count(text[ls:at], "|")
	for row, i := 0, le+1; row < 12 && i < len(text); row++ {
		re := lineEnd(text, i, 240)
		line := text[i:re]
		if !strings.HasPrefix(strings.TrimSpace(line), "|") {
			break
		}
		// The cell col of the row: after its col-th bar.
		k, c := i, 0
		for k < re && c < col {
			if text[k] == '|' {
				c++
			}
			k++
		}
		if c == col {
			ce := k + strings.IndexByte(text[k:re]+"|", '|')
			cs, cend := k, ce
			for cs < cend && isSpaceByte(text[cs]) {
				cs++
			}
			for cend > cs && isSpaceByte(text[cend-1]) {
				cend--
			}
			if cend-cs >= 8 && !strings.ContainsAny(text[cs:cend], " \t") && !strings.HasPrefix(text[cs:cend], "---") {
				if sp, ok := directValue(text, cs, cend, true); ok {
					return sp, true
				}
			}
		}
		i = re + 1
	}
	return span{}, false
}

// settingName reports whether name is a setting's name as code writes it: a code identifier ([isIdentifier])
// holding a word, a run of three lower-case letters or more (ClockSyncMinutes, lockout_threshold), which
// random letters (JfUs) seldom have.
func settingName(name string) bool {
	if !isIdentifier(name) {
		return false
	}
	run := 0
	for i := 0; i < len(name); i++ {
		if run = run + 1; name[i] < 'a' || name[i] > 'z' {
			run = 0
		}
		if run >= 3 {
			return true
		}
	}
	return false
}
