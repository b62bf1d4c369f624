package scan

import "strings"

// fake assembles example secrets from parts, so that the repository never holds a contiguous credential-shaped
// literal that other scanners would report.
func fake(parts ...string) string { return strings.Join(parts, "") }

// awsKeyIDPrefixes are the documented prefixes of AWS access key IDs and other unique IDs that come with keys.
func awsKeyIDPrefixes() []string {
	ps := []string{"AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "APKA", "AROA", "ASCA"}
	for c := 'A'; c <= 'Z'; c++ {
		ps = append(ps, "A3T"+string(c))
	}
	return ps
}

// Words that, written before "key", make the name an API credential or key material. The lexicon's
// credQualifiers and keyQualifiers hold the same words.
var (
	credentialKeyQualifiers = []string{"api", "access", "auth", "client", "app", "account", "consumer", "license",
		"subscription", "oauth", "application", "service"}
	materialKeyQualifiers = []string{"secret", "signing", "encryption", "hmac", "private", "session", "jwt", "crypto",
		"cipher", "aes", "master", "cookie", "webhook", "shared", "sign", "encrypt", "decryption"}
)

// qualifiedKeys spells each qualifier followed by "key" as names write it: apikey (also apiKey, APIKEY) and
// api_key, which also matches api-key, api.key and "api key".
func qualifiedKeys(qualifiers []string) []string {
	var out []string
	for _, q := range qualifiers {
		out = append(out, q+"key", q+"_key")
	}
	return out
}

// ruleTable returns a fresh copy of every rule. Keep each rule's examples short: they document the rule and
// the test suite runs them.
func ruleTable() []*rule {
	// Example values for the rules below: random, belonging to no account, and split so that only the
	// assembled string has the shape of a secret.
	exB40 := fake("q8Lr2/Xw+T0vZ", "e4Km9PaN7cUy3HbQ1sJdF5gW6hR") // 40 characters of base64
	exTok := fake("Zk3Qp9XvLm2Rt7", "Wb4Nc8Hy6Jd1Fs5Ga0Ke")       // 34 alphanumerics
	exTok36 := fake("aB3dE5fG7hJ9kL1mN2", "pQ4rS6tU8vW0xY2zA4")   // 36 alphanumerics
	exJWT := fake("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", "eyJzdWIiOiJ1LTQyIiwicm9sZSI6Im9wcyJ9", ".", "kR3vX9pQ2mLw7ZtN4bYc8HsJ1dFg6EaU0oWiT5yVnKq")
	awsKeyIDPrefixes := awsKeyIDPrefixes()
	return []*rule{
		// ---- AWS ----
		{
			id: "aws-access-key-id", category: CategoryAWS,
			description: "AWS access key ID: a documented 4-letter prefix (AKIA, ASIA, ABIA, ACCA, AGPA, AIDA, AIPA, " +
				"ANPA, ANVA, APKA, AROA, ASCA, A3T…) and 16 base32 characters, also when wrapped across two lines. " +
				"The documented example IDs (…EXAMPLE) are ignored.",
			keywords:      awsKeyIDPrefixes,
			caseSensitive: true,
			find:          findAWSKeyID,
			positives:     []string{"key id " + fake("AKIA", "Q3ZT7WX2L5M4N6PR"), fake("aws_access_key_id = ASIA", "Y7KD2Q\n    3LZ5WMX4NR")},
			negatives:     []string{"AKIAIOSFODNN7EXAMPLE", "AKIAXXXXXXXXXXXXXXXX", fake("AKIA", "Q3ZT7WX2L5M4N6PRQ8")},
		},
		{
			id: "aws-secret-access-key", category: CategoryAWS,
			description: "AWS secret access key (40 base64 characters) assigned to aws_secret_access_key, SecretAccessKey " +
				"and similar names in credentials files, env lines and JSON; values may start with + or /.",
			keywords:  []string{"secret_access_key", "secretaccesskey", "secret-access-key", "aws_secret", "awssecret", "aws-secret", "secret access key"},
			pattern:   `(?i)(?:aws[_\-. ]?secret[_\-. ]?(?:access[_\-. ]?)?key|secret[_\-. ]?access[_\-. ]?key)["'\]]?[ \t]*(?::=|=>|[:=])[ \t]*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`,
			valid:     awsSecret,
			positives: []string{"aws_secret_access_key = " + exB40, `"SecretAccessKey": "` + "/" + exB40[1:] + `"`},
			negatives: []string{"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = ${AWS_SECRET}"},
		},
		{
			id: "aws-secret-near-key-id", category: CategoryAWS,
			description: "A standalone 40-character mixed-case base64 string within three lines of an AWS access key ID, " +
				"as when both are pasted into prose.",
			keywords:      awsKeyIDPrefixes,
			caseSensitive: true,
			findAll:       findAWSSecretNearID,
			positives:     []string{"used " + fake("AKIA", "Q3ZT7WX2L5M4N6PR") + " and the secret " + exB40 + " to test"},
			negatives:     []string{"used " + fake("AKIA", "Q3ZT7WX2L5M4N6PR") + " at commit 3f2c9a1e8b7d6c5f4e3a2b1c0d9e8f7a6b5c4d3e"},
		},

		// ---- auth headers ----
		{
			id: "bearer-token", category: CategoryAuthHeader,
			description: "Bearer token after the Bearer scheme in any header form (curl -H, raw HTTP, lower-case HTTP/2, " +
				"header dicts, folded onto the next line); placeholders and variables are ignored.",
			keywords:   []string{"bearer"},
			pattern:    `(?i)\bbearer(?:[ \t]+|[ \t]*\r?\n[ \t]+)([A-Za-z0-9\-._~+/]+=*)`,
			linesAfter: 1,
			valid:      tokenValue,
			positives:  []string{`curl -H "Authorization: Bearer ` + exTok + `"`, "authorization: bearer\n  " + exTok},
			negatives:  []string{"Authorization: Bearer $TOKEN", "we use bearer authentication", "Bearer <token>"},
		},
		{
			id: "basic-auth-header", category: CategoryAuthHeader,
			description: "HTTP Basic credentials: base64 of user:password after the Basic scheme.",
			keywords:    []string{"basic"},
			pattern:     `(?i)\bbasic[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?:[^A-Za-z0-9+/=]|$)`,
			valid:       basicCredentials,
			positives:   []string{"Authorization: Basic " + fake("ZGVwbG95OlRyMHV0LVN", "reWxpbmUtOTk=")},
			negatives:   []string{"Authorization: Basic dXNlcjpwYXNzd29yZA==", "basic authentication is disabled"},
		},
		{
			id: "authorization-header", category: CategoryAuthHeader,
			description: "Other Authorization and Proxy-Authorization values (token, ApiKey, SSWS or a bare token); " +
				"signature schemes such as Digest and AWS4-HMAC-SHA256 are not secrets.",
			keywords:  []string{"authorization"},
			pattern:   `(?i)authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:token|apikey|api-key|key|ssws|sso-key|bot|gitlab-token)[ \t]+)?([A-Za-z0-9\-._~+/=:]{16,})`,
			valid:     func(v string) bool { return tokenValue(v) && !schemeWord(v) },
			positives: []string{"Proxy-Authorization: token " + exTok, `headers = {"Authorization": "` + exTok + `"}`},
			negatives: []string{"Authorization: Bearer ${TOKEN}", "authorization: required for all endpoints"},
		},
		{
			id: "api-key-header", category: CategoryAuthHeader,
			description: "API key headers: X-Api-Key, X-Auth-Token, Private-Token, X-Vault-Token and similar, in raw " +
				"HTTP, curl -H and header dicts.",
			keywords:  []string{"x-api-key", "x-auth-token", "x-access-token", "x-api-token", "private-token", "x-gitlab-token", "x-vault-token", "x-goog-api-key", "ocp-apim-subscription-key", "x-functions-key", "x-figma-token", "x-shopify-access-token", "x-rapidapi-key"},
			pattern:   `(?i)\b(?:x-api-key|x-auth-token|x-access-token|x-api-token|private-token|x-gitlab-token|x-vault-token|x-goog-api-key|ocp-apim-subscription-key|x-functions-key|x-figma-token|x-shopify-access-token|x-rapidapi-key)["']?[ \t]*[:=][ \t]*["']?([A-Za-z0-9\-._~+/=]{12,})`,
			valid:     tokenValue,
			positives: []string{`curl -H 'X-Api-Key: ` + exTok + `'`, `{'x-auth-token': '` + exTok + `'}`},
			negatives: []string{"X-Api-Key: $API_KEY", "the X-Api-Key header is required"},
		},

		// ---- private keys ----
		{
			id: "private-key", category: CategoryPrivateKey,
			description: "PEM private key block of any kind (RSA, EC, DSA, OPENSSH, ENCRYPTED, PKCS#8, PGP PRIVATE KEY " +
				"BLOCK, SSH2), from BEGIN to END, or to the end of the body when the END line was cut off. A BEGIN " +
				"line without a body is not a key.",
			keywords:  []string{"private key"},
			find:      findPrivateKey,
			positives: []string{"-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACBfakeBodyLineForTestsOnly0123456789abcdefghij"},
			negatives: []string{"the file starts with -----BEGIN RSA " + "PRIVATE KEY----- and must stay local", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----"},
		},
		{
			id: "putty-private-key", category: CategoryPrivateKey,
			description: "PuTTY key file: the base64 lines of its Private-Lines section.",
			keywords:    []string{"private-lines:"},
			find:        findPuTTYKey,
			positives:   []string{"PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nAAAAIG" + exTok + "\nPrivate-MAC: 00"},
			negatives:   []string{"look for the Private-Lines: header in the .ppk"},
		},

		// ---- named credentials ----
		{
			id: "credential-assignment", category: CategoryCredential,
			description: "A value assigned to a credential name (password, passwd, pwd, token, api_key, client_secret, " +
				"credentials; contraseña, Passwort, Kennwort, mot de passe, senha) in env, shell, YAML (also on the " +
				"next line), JSON, TOML, INI, Python, JS, Go and CLI flags, in any case style. The value must not be a " +
				"placeholder, a variable or environment read, a secret-manager reference, a plain word or a number.",
			keywords: append(qualifiedKeys(credentialKeyQualifiers), "pass", "pwd", "token", "secret", "credential", "creds",
				"contraseña", "contraseÑa", "contrasena", "kennwort", "senha", "mot de passe", "mot_de_passe", "motdepasse",
				"mdp", "clave"),
			find: findAssignment(nameCredential, func(v string, a assignment) bool {
				return !codeValue(v, a) && credentialValue(v)
			}),
			positives: []string{"DB_PASSWORD=Summer2024!", "--password 'h#7Tq+2wLp'", "contraseña: Pa55-word-9",
				"password:\n    Zq8#Lw3!pT", `apiKey: "` + exTok + `"`},
			negatives: []string{"rotate the password tomorrow", "password: ${DB_PASSWORD}", `password = os.environ["DB_PASSWORD"]`,
				"max_tokens=800", "tokenizer: cl100k_base", "password: <redacted>", "api_key = ''", "password_length: 16"},
		},
		{
			id: "url-credentials", category: CategoryCredential,
			description: "Password in a URL's userinfo (scheme://user:password@host).",
			keywords:    []string{"://"},
			find:        findURLPassword,
			positives:   []string{"postgres://app:Tr0ub4dor-x9@db.internal:5432/app", "redis://:" + exTok + "@cache:6379"},
			negatives:   []string{"postgres://user:password@localhost/db", "postgres://app:${DB_PASS}@db/app", "https://example.com/a:b@c"},
		},
		{
			id: "cli-password-flag", category: CategoryCredential,
			description: "Password glued to a short flag or given to a password-taking tool: mysql -pSecret, " +
				"sshpass -p secret, curl -u user:secret.",
			caseSensitive: true, // the expression begins with the keyword as written
			keywords:      []string{"mysql", "mariadb", "sshpass", "-u ", "--user "},
			pattern:       `(?:\b(?:mysql(?:dump|admin|sh)?|mariadb)\b[^\n|;&]*?[ \t]-p(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))|\bsshpass[ \t]+-p[ \t]*(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))|(?:-u|--user)[ \t]+['"]?[^\s:'"]+:([^\s'"@]+))`,
			valid:         credentialValue,
			positives:     []string{"mysql -u root -pW4rp-Core9 shop", "sshpass -p 'Hx7!kq2Lm' ssh deploy@web1", "curl -u admin:Q9v!t2Lr7 https://ci/api"},
			negatives:     []string{"mysql -u root -p shop", "curl -u admin:$ADMIN_PASS https://ci/api", "mysql -p\"$MYSQL_PWD\""},
		},

		// ---- entropy ----
		{
			id: "high-entropy-key", category: CategoryEntropy,
			description: "A machine-generated value (judged by length and Shannon entropy for its alphabet) assigned to " +
				"a key-material name: SECRET_KEY, secret, signing/encryption/HMAC keys, JWT or session secrets, salts.",
			keywords: append(qualifiedKeys(materialKeyQualifiers), "secret", "hmac", "salt", "pepper"),
			find: findAssignment(nameKeyLike, func(v string, a assignment) bool {
				return !codeValue(v, a) && (a.quoted || !wordy(v)) && randomValue(v)
			}),
			positives: []string{"SECRET_KEY = 'k3#v9!qz" + "Lw2@xT7pR5mN8bY4cJ6h'", "HMAC_KEY=9f86d081884c7d65" + "9a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
			negatives: []string{"SECRET_KEY = 'dev'", "secret_key_base: <%= ENV['SECRET_KEY_BASE'] %>", "signing_key_id: 7c4e9a2b-13f5-4d8e-9a61-2b3c4d5e6f70"},
		},

		// ---- vendor tokens ----
		{
			id: "github-token", category: CategoryVendor,
			token:         true,
			description:   "GitHub tokens: ghp_, gho_, ghu_, ghs_, ghr_ with 36 characters, and fine-grained github_pat_.",
			caseSensitive: true, // the expression begins with the keyword as written
			keywords:      []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
			pattern:       `\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b`,
			positives:     []string{"token " + "ghp_" + exTok36, "github_pat_" + exTok36[:22] + "_" + exTok36 + exTok[:23]},
			negatives:     []string{"ghp_…abcd", "ghp_XXXXXXXX"},
		},
		{
			id: "gitlab-token", category: CategoryVendor,
			token: true,
			description: "GitLab tokens: personal (glpat-), deploy (gldt-), runner (glrt-, GR1348941), pipeline trigger, " +
				"feed, agent, OAuth and CI build tokens.",
			caseSensitive: true, // the expression begins with the keyword as written
			keywords:      []string{"glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glimt-", "glagent-", "glsoat-", "gloas-", "glcbt-", "GR1348941"},
			pattern:       `\b(?:gl(?:pat|dt|rt|ptt|ft|imt|agent|soat|oas|cbt)-[A-Za-z0-9_\-]{20,}|GR1348941[A-Za-z0-9_\-]{20,})`,
			valid:         notPlaceholder,
			positives:     []string{"glpat-" + exTok[:20], "GR1348941" + exTok[:20]},
			negatives:     []string{"glpat-xxxxxxxxxxxxxxxxxxxx", "glpat-…"},
		},
		{
			id: "slack-token", category: CategoryVendor,
			token:         true,
			description:   "Slack bot, user, app and refresh tokens (xoxb-, xoxp-, xapp-, xoxe-) and incoming webhook URLs.",
			caseSensitive: true, // the expression begins with the keyword as written
			keywords:      []string{"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe", "xapp-", "hooks.slack.com"},
			pattern:       `\b(?:xox[abprs]-[0-9]{6,}-[A-Za-z0-9\-]{8,}|xoxe(?:\.xox[bp])?-1-[A-Za-z0-9\-]{20,}|xapp-1-[A-Z0-9]{6,}-[0-9]{6,}-[A-Za-z0-9]{20,}|hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{20,})`,
			valid:         notPlaceholder,
			positives:     []string{fake("xoxb-", "2194857302-4827361950-", exTok[:24]), "https://hooks.slack.com/services/" + fake("T04AB12CD/B05EF34GH/", exTok[:24])},
			negatives:     []string{"xoxb-your-token", "xoxb-0000000000-xxxxxxxxxxxx"},
		},
		{
			id: "stripe-key", category: CategoryVendor,
			token: true,
			description: "Stripe secret and restricted keys (sk_live_, sk_test_, rk_live_, rk_test_) and webhook signing " +
				"secrets (whsec_). Publishable keys (pk_) are public.",
			caseSensitive: true, // the expression begins with the keyword as written
			keywords:      []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"},
			pattern:       `\b(?:[rs]k_(?:live|test)_[A-Za-z0-9]{20,}|whsec_[A-Za-z0-9]{24,})\b`,
			valid:         func(v string) bool { return !isPlaceholder(v[strings.LastIndexByte(v, '_')+1:]) },
			positives:     []string{fake("sk_", "live_", exTok[:28]), fake("whsec_", exTok)},
			negatives:     []string{fake("pk_", "live_", exTok[:28]), "sk_live_XXXXXXXXXXXXXXXXXXXXXXXX"},
		},
		{
			id: "google-api-key", category: CategoryVendor,
			token:         true,
			description:   "Google API keys (AIza + 35 characters), OAuth client secrets (GOCSPX-) and OAuth access tokens (ya29.).",
			keywords:      []string{"AIza", "GOCSPX-", "ya29."},
			caseSensitive: true,
			pattern:       `\b(?:AIza[0-9A-Za-z\-_]{35}|GOCSPX-[0-9A-Za-z\-_]{28}|ya29\.[0-9A-Za-z\-_]{30,})`,
			valid:         notPlaceholder,
			positives:     []string{fake("AIza", "Sy", exTok[:33]), fake("GOCSPX-", exTok[:28])},
			negatives:     []string{"AIzaSy…", "AIza" + strings.Repeat("X", 35)},
		},
		{
			id: "openai-key", category: CategoryVendor,
			token: true,
			description: "OpenAI API keys: sk-proj-, sk-svcacct-, sk-admin- and legacy sk- keys. Masked keys (sk-…abcd) " +
				"are not keys.",
			caseSensitive: true, // the expression begins with the keyword as written
			keywords:      []string{"sk-"},
			pattern:       `\bsk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{40,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{40,60})\b`,
			valid:         func(v string) bool { return !isPlaceholder(v) && distinct(v) > 12 },
			positives:     []string{fake("sk-", "proj-", exTok, exTok36[:20]), fake("sk-", exTok36, exTok[:12])},
			negatives:     []string{"sk-…abcd", "sk-proj-…Xy3Q", "the sk- prefix"},
		},
		{
			id: "anthropic-key", category: CategoryVendor,
			token:         true,
			description:   "Anthropic API and admin keys (sk-ant-api03-, sk-ant-admin01-).",
			caseSensitive: true, // the expression begins with the keyword as written
			keywords:      []string{"sk-ant-"},
			pattern:       `\bsk-ant-[a-z]{3,8}[0-9]{2}-[A-Za-z0-9_\-]{40,}`,
			valid:         notPlaceholder,
			positives:     []string{fake("sk-ant-", "api03-", exTok, exTok36, "AA")},
			negatives:     []string{"sk-ant-api03-…", "sk-ant-api03-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"},
		},
		{
			id: "npm-token", category: CategoryVendor,
			token:         true,
			description:   "npm access tokens (npm_ + 36 characters).",
			caseSensitive: true, // the expression begins with the keyword as written
			keywords:      []string{"npm_"},
			pattern:       `\bnpm_[A-Za-z0-9]{36}\b`,
			valid:         notPlaceholder,
			positives:     []string{"//registry.npmjs.org/:_authToken=npm_" + exTok36},
			negatives:     []string{"npm_config_cache=/tmp/npm", "npm_" + strings.Repeat("x", 36)},
		},
		{
			id: "pypi-token", category: CategoryVendor,
			token:         true,
			description:   "PyPI upload tokens (pypi-AgEIcHlwaS5vcmc…).",
			caseSensitive: true, // the expression begins with the keyword as written
			keywords:      []string{"pypi-AgEIcHlwaS5vcmc"},
			pattern:       `\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}`,
			positives:     []string{fake("pypi-", "AgEIcHlwaS5vcmc", exTok, exTok36)},
			negatives:     []string{"pypi-AgEIcHlwaS5vcmc…", "password = pypi-<token>"},
		},
		{
			id: "sendgrid-key", category: CategoryVendor,
			token:         true,
			description:   "SendGrid API keys (SG.<22>.<43>).",
			keywords:      []string{"SG."},
			caseSensitive: true,
			pattern:       `\b(SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43})(?:[^A-Za-z0-9_\-]|$)`,
			positives:     []string{fake("SG.", exTok[:22], ".", exTok, exTok36[:9])},
			negatives:     []string{"SG.…", "msg.send()"},
		},
		{
			id: "twilio-key", category: CategoryVendor,
			description:   "Twilio API key SIDs with their secret context (SK + 32 hex) and auth tokens assigned to Twilio names.",
			keywords:      []string{"twilio"},
			exactKeywords: []string{"SK"}, // SK… is upper case: "sk" in task and risk is no hit
			pattern:       `(?:\bSK[0-9a-f]{32}\b|(?i:twilio)[\w\-.]{0,20}(?i:auth)?[_\-. ]?(?i:token|secret)["']?[ \t]*[:=][ \t]*["']?([0-9a-f]{32})\b)`,
			valid:         func(v string) bool { return distinct(v) > 6 },
			positives:     []string{fake("SK", "3f9a1c7e5b2d8a4f6c0e9b1d7a3f5c2e"), fake("TWILIO_AUTH_TOKEN=", "9b1d7a3f5c2e3f9a1c7e5b2d8a4f6c0e")},
			negatives:     []string{"SKU12345", "twilio_auth_token=${TWILIO_AUTH_TOKEN}"},
		},
		{
			id: "azure-storage-key", category: CategoryVendor,
			token:       true,
			description: "Azure storage and Service Bus keys inside connection strings (AccountKey=, SharedAccessKey=).",
			keywords:    []string{"accountkey=", "sharedaccesskey="},
			pattern:     `(?i)\b(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{40,}={0,2})`,
			valid:       func(v string) bool { return !isPlaceholder(v) && entropy(v) >= 4.0 },
			positives:   []string{"DefaultEndpointsProtocol=https;AccountName=stlogs;AccountKey=" + exB40 + exTok[:24] + "==;EndpointSuffix=core.windows.net"},
			negatives:   []string{"AccountKey=<key>;", "UseDevelopmentStorage=true"},
		},
		{
			id: "jwt", category: CategoryVendor,
			description: "JSON Web Tokens anywhere, including query strings: three base64url segments whose header decodes " +
				"to a JWT header.",
			keywords:      []string{"eyJ"},
			caseSensitive: true,
			findAll:       findJWT,
			positives:     []string{"GET /cb?id_token=" + exJWT + "&state=x"},
			negatives:     []string{"eyJhbGciOi…", "eyJub3QiOiJqd3QifQ.eyJhIjoxfQ.c2lnbmF0dXJlc2lnbmF0dXJl"},
		},
		{
			id: "vendor-misc-token", category: CategoryVendor,
			token: true,
			description: "Other fixed-shape tokens: Hugging Face (hf_), DigitalOcean (dop_v1_), Shopify (shpat_, shpss_), " +
				"Databricks (dapi), Doppler (dp.st.), Discord webhooks.",
			caseSensitive: true, // the expression begins with the keyword as written
			keywords:      []string{"hf_", "dop_v1_", "doo_v1_", "shpat_", "shpss_", "shpca_", "shppa_", "dapi", "dp.st.", "discord.com/api/webhooks/", "discordapp.com/api/webhooks/"},
			pattern:       `\b(?:hf_[A-Za-z]{34}|do[op]_v1_[a-f0-9]{64}|shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}|dapi[a-f0-9]{32}(?:-\d)?|dp\.st\.[a-z0-9_\-]{2,35}\.[A-Za-z0-9]{40,44}|discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/[A-Za-z0-9_\-]{60,68})\b`,
			valid:         func(v string) bool { return !isPlaceholder(v) && distinct(v) > 8 },
			positives:     []string{fake("hf_", "ZkQpXvLmRtWbNcHyJdFsGaKeTrUoPiMnBv"), fake("shpat_", "3f9a1c7e5b2d8a4f6c0e9b1d7a3f5c2e")},
			negatives:     []string{"hf_hub_download(repo)", "dapi_version=2"},
		},
	}
}

// schemeWord reports whether v begins with an authorization scheme name (Bearer, Basic, Digest, AWS4-HMAC-…):
// the header's scheme and parameters rather than a bare credential.
func schemeWord(v string) bool {
	low := strings.ToLower(v)
	for _, scheme := range []string{"bearer", "basic", "digest", "aws4-hmac"} {
		if strings.HasPrefix(low, scheme) {
			return true
		}
	}
	return false
}
