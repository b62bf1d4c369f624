package scan

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Test values are assembled from parts (see fake) so that no contiguous credential-shaped literal sits in the
// source.
var (
	tB40   = fake("Jw7Q+9sLk2/Pq4Xz", "V8mN3bR6tY1cH5dG0fK2aE7u") // 40 base64 characters
	tTok   = fake("Vq7Lm2Xp9Rt4Wn8", "Kc3Hy6Jd1Fs5Ga0Ze")         // 32 alphanumerics
	tTok36 = fake("Qm4Rp8Xt2Lw6Nz1Kv5", "Hb9Jc3Fd7Gs0Ya4TeU")     // 36 alphanumerics
	tKeyID = fake("AKIA", "R5TQ2ZL7WX4M6NPK")
)

// TestCatches lists the shapes the scanner must flag, with the category it must report and the secret (or a
// substring of it) the finding must cover.
func TestCatches(t *testing.T) {
	jwt := fake("eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9", ".", "eyJpc3MiOiJodHRwczovL2lkcCIsInN1YiI6IjQyIn0", ".", tTok, tTok36)
	basic := fake("c3ZjLWNpOk44", "eHEtVDR3LWhKMnA=") // svc-ci:N8xq-T4w-hJ2p
	cases := []struct {
		name, text, category, secret string
	}{
		{"aws id akia", "aws key " + tKeyID + " in use", CategoryAWS, tKeyID},
		{"aws id asia", "ASIA" + tKeyID[4:], CategoryAWS, "ASIA"},
		{"aws id abia", "ABIA" + tKeyID[4:], CategoryAWS, "ABIA"},
		{"aws id acca", "ACCA" + tKeyID[4:], CategoryAWS, "ACCA"},
		{"aws id wrapped", "the key was AKIA" + tKeyID[4:12] + "\n  " + tKeyID[12:] + " (wrapped)", CategoryAWS, "AKIA"},
		{"aws secret credentials file", "[default]\naws_access_key_id = " + tKeyID + "\naws_secret_access_key = " + tB40 + "\n", CategoryAWS, tB40},
		{"aws secret env", "export AWS_SECRET_ACCESS_KEY=" + tB40, CategoryAWS, tB40},
		{"aws secret json", `{"AccessKeyId": "` + tKeyID + `", "SecretAccessKey": "` + tB40 + `"}`, CategoryAWS, tB40},
		{"aws secret prose", "created key " + tKeyID + " whose secret is " + tB40 + ", stored nowhere", CategoryAWS, tB40},
		{"aws secret plus", "aws_secret_access_key=+" + tB40[1:], CategoryAWS, "+" + tB40[1:]},
		{"aws secret slash", "AWS_SECRET_ACCESS_KEY: /" + tB40[1:], CategoryAWS, "/" + tB40[1:]},

		{"curl bearer", `curl -H "Authorization: Bearer ` + tTok + `" https://api.internal/v1`, CategoryAuthHeader, tTok},
		{"raw http", "GET /v1/me HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer " + tTok + "\r\n", CategoryAuthHeader, tTok},
		{"http2 lowercase", ":method: GET\nauthorization: bearer " + tTok, CategoryAuthHeader, tTok},
		{"python dict", `headers = {"Authorization": f"Bearer ` + tTok + `"}`, CategoryAuthHeader, tTok},
		{"js headers", `fetch(u, {headers: {Authorization: 'Bearer ` + tTok + `'}})`, CategoryAuthHeader, tTok},
		{"folded", "Authorization: Bearer\n    " + tTok, CategoryAuthHeader, tTok},
		{"basic", "Authorization: Basic " + basic, CategoryAuthHeader, basic},
		{"proxy auth", "Proxy-Authorization: Basic " + basic, CategoryAuthHeader, basic},
		{"x-api-key", "curl -H 'X-Api-Key: " + tTok + "' https://x", CategoryAuthHeader, tTok},
		{"token scheme", "Authorization: token " + tTok, CategoryAuthHeader, tTok},

		{"rsa", pem("RSA PRIVATE KEY", 6, true), CategoryPrivateKey, "-----BEGIN RSA"},
		{"ec", pem("EC PRIVATE KEY", 3, true), CategoryPrivateKey, "-----BEGIN EC"},
		{"dsa", pem("DSA PRIVATE KEY", 3, true), CategoryPrivateKey, "-----BEGIN DSA"},
		{"openssh", pem("OPENSSH PRIVATE KEY", 4, true), CategoryPrivateKey, "-----BEGIN OPENSSH"},
		{"encrypted", pem("ENCRYPTED PRIVATE KEY", 4, true), CategoryPrivateKey, "-----BEGIN ENCRYPTED"},
		{"pkcs8", pem("PRIVATE KEY", 4, true), CategoryPrivateKey, "-----BEGIN PRIVATE"},
		{"pgp", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n" + body(4) + "\n=Ab3x\n-----END PGP PRIVATE KEY BLOCK-----", CategoryPrivateKey, "-----BEGIN PGP"},
		{"cut", "note was cut:\n" + pem("RSA PRIVATE KEY", 3, false), CategoryPrivateKey, "-----BEGIN RSA"},
		{"json escaped", `{"private_key": "-----BEGIN PRIVATE KEY-----\n` + strings.ReplaceAll(body(3), "\n", `\n`) + `\n-----END PRIVATE KEY-----\n"}`, CategoryPrivateKey, "-----BEGIN PRIVATE"},
		{"json escaped crlf", `{"private_key": "-----BEGIN RSA PRIVATE KEY-----\r\n` + strings.ReplaceAll(body(3), "\n", `\r\n`) + `\r\n-----END RSA PRIVATE KEY-----\r\n"}`, CategoryPrivateKey, "-----BEGIN RSA"},
		{"putty", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5\nPrivate-Lines: 1\n" + body(1) + "\nPrivate-MAC: 1a2b", CategoryPrivateKey, body(1)[:10]},

		{"env", "DB_PASSWORD=Summer2024!", CategoryCredential, "Summer2024!"},
		{"shell export", "export API_TOKEN='" + tTok[:20] + "'", CategoryCredential, tTok[:20]},
		{"yaml", "database:\n  password: Tr0ub4dor&3\n", CategoryCredential, "Tr0ub4dor&3"},
		{"yaml next line", "db:\n  password:\n    Q7#vLp2!xW\n", CategoryCredential, "Q7#vLp2!xW"},
		{"yaml block", "db:\n  password: |\n    Q7#vLp2!xW\n", CategoryCredential, "Q7#vLp2!xW"},
		{"json", `{"client_secret": "cs-` + tTok[:18] + `"}`, CategoryCredential, "cs-"},
		{"toml", "[db]\npassword = \"p#ssW0rd-88\"", CategoryCredential, "p#ssW0rd-88"},
		{"ini", "[smtp]\nsmtp_pass=Hx9+mQ2z", CategoryCredential, "Hx9+mQ2z"},
		{"python", `conn = connect(host="db", password="m4ng0-Tango!")`, CategoryCredential, "m4ng0-Tango!"},
		{"js", `const apiKey = "ak_` + tTok[:24] + `";`, CategoryCredential, "ak_"},
		{"go", `cfg := Config{Password: "gH7#kLp0q"}`, CategoryCredential, "gH7#kLp0q"},
		{"go short var", `token := "tk1-` + tTok[:16] + `"`, CategoryCredential, "tk1-"},
		{"flag space", "./deploy --password 'Wq3#zR8!' --host db", CategoryCredential, "Wq3#zR8!"},
		{"flag equals", "app serve --db-password=Wq3zR8x1p", CategoryCredential, "Wq3zR8x1p"},
		{"mysql", "mysql -h db -u root -pS3cr3t-Ops shop < dump.sql", CategoryCredential, "S3cr3t-Ops"},
		{"url", "DATABASE_URL=postgres://app:Wm4-Kq9z!r@db.internal:5432/app", CategoryCredential, "Wm4-Kq9z!r"},
		{"hash in value", "SMTP_PASSWORD=ab#cd12ef", CategoryCredential, "ab#cd12ef"},
		{"plus in value", "password: +Xy7/abc9", CategoryCredential, "+Xy7/abc9"},
		{"spanish", "contraseña: Gato-Negro-42", CategoryCredential, "Gato-Negro-42"},
		{"german", "Passwort: Sonne#2024xy", CategoryCredential, "Sonne#2024xy"},
		{"german kennwort", "Kennwort = Blau!Haus77", CategoryCredential, "Blau!Haus77"},
		{"french", "mot de passe : Lune-Bleue-88", CategoryCredential, "Lune-Bleue-88"},
		{"portuguese", "senha=Praia#Sol2024", CategoryCredential, "Praia#Sol2024"},
		{"camel", "dbPassword: 'Xy7#qLm2'", CategoryCredential, "Xy7#qLm2"},
		{"kebab", "db-password: Xy7#qLm2", CategoryCredential, "Xy7#qLm2"},
		{"upper", "DB_PASSWORD: Xy7#qLm2", CategoryCredential, "Xy7#qLm2"},
		{"xml", "<datasource><password>Xk9!mPq2Lw</password></datasource>", CategoryCredential, "Xk9!mPq2Lw"},
		{"kubectl literal", "kubectl create secret generic db --from-literal=password='Wq3#zR8!x'", CategoryCredential, "Wq3#zR8!x"},
		{"powershell", `$env:API_TOKEN = "tk-` + tTok[:20] + `"`, CategoryCredential, "tk-"},
		{"docker env", "docker run -e POSTGRES_PASSWORD=Pg-" + tTok[:10] + " postgres:16", CategoryCredential, "Pg-"},
		{"prose", "the staging password is Kx9!mPq2Lw, do not share", CategoryCredential, "Kx9!mPq2Lw"},

		{"github ghp", "export GH_TOKEN=ghp_" + tTok36, CategoryVendor, "ghp_"},
		{"github gho", "gho_" + tTok36, CategoryVendor, "gho_"},
		{"github ghu", "ghu_" + tTok36, CategoryVendor, "ghu_"},
		{"github ghs", "ghs_" + tTok36, CategoryVendor, "ghs_"},
		{"github ghr", "ghr_" + tTok36, CategoryVendor, "ghr_"},
		{"github fine", "github_pat_" + tTok36[:22] + "_" + tTok36 + tTok[:23], CategoryVendor, "github_pat_"},
		{"gitlab", "git remote set-url origin https://oauth2:glpat-" + tTok[:20] + "@gitlab.com/x/y.git", CategoryVendor, "glpat-"},
		{"slack", "SLACK_BOT_TOKEN=xoxb-" + fake("7391028465-5918273640-", tTok[:24]), CategoryVendor, "xoxb-"},
		{"stripe", "stripe.api_key = 'sk_" + "live_" + tTok + "'", CategoryVendor, "sk_"},
		{"google", "key=AIza" + "Sy" + tTok36[:33], CategoryVendor, "AIza"},
		{"openai proj", "OPENAI_API_KEY=sk-" + "proj-" + tTok + tTok36 + "_" + tTok, CategoryVendor, "sk-proj-"},
		{"openai legacy", "sk-" + tTok36[:20] + "T3Blbk" + "FJ" + tTok36[16:], CategoryVendor, "sk-"},
		{"anthropic", "ANTHROPIC_API_KEY=sk-ant-" + "api03-" + tTok + tTok36 + "-" + tTok[:20] + "AA", CategoryVendor, "sk-ant-"},
		{"npm", "//registry.npmjs.org/:_authToken=npm_" + tTok36, CategoryVendor, "npm_"},
		{"pypi", "password = pypi-" + "AgEIcHlwaS5vcmc" + tTok + tTok36, CategoryVendor, "pypi-"},
		{"sendgrid", "SENDGRID_API_KEY=SG." + tTok[:22] + "." + tTok + tTok[:11], CategoryVendor, "SG."},
		{"twilio", "twilio api key " + fake("SK", "8e2b4d6f0a1c3e5b7d9f2a4c6e8b0d1f"), CategoryVendor, "SK"},
		{"azure", "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=st1;AccountKey=" + tB40 + tTok + "==;EndpointSuffix=core.windows.net", CategoryVendor, tB40[:10]},
		{"jwt", "id_token: " + jwt, CategoryVendor, "eyJ"},
		{"jwt query", "GET /cb?code=1&access_token=" + jwt + "&state=9", CategoryVendor, "eyJ"},
		{"jwt bearer", "Authorization: Bearer " + jwt, CategoryVendor, "eyJ"},

		{"django", "SECRET_KEY = 'django-insecure-" + fake("k#3v9!qzLw2@xT7p", "R5mN8bY4cJ6h^e1$uA0sD") + "'", CategoryEntropy, "django-insecure-"},
		{"hmac hex", "WEBHOOK_HMAC_KEY=" + fake("4f1d9c2e8b7a6f5e", "3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6"), CategoryEntropy, "4f1d9c2e"},
		{"signing", `signing_key: "` + tTok + tTok36[:8] + `"`, CategoryEntropy, tTok},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := Text(c.text)
			at := strings.Index(c.text, c.secret)
			if at < 0 {
				t.Fatalf("bad case: secret %q not in text", c.secret)
			}
			for _, f := range fs {
				if f.Category == c.category && f.Start <= at+len(c.secret)-1 && at < f.End {
					return
				}
			}
			t.Errorf("%q: want a %s finding covering %q, got %+v", c.text, c.category, c.secret, fs)
		})
	}
}

// TestIgnores lists text the scanner must not flag at all.
func TestIgnores(t *testing.T) {
	cases := []string{
		"rotate the password tomorrow",
		"TODO: ask ops for the api key before deploying",
		"the token expired; refresh it with `gh auth refresh`",
		"password: <redacted>",
		"password: ${DB_PASSWORD}",
		"DB_PASSWORD=$DB_PASSWORD",
		"token: {{ .Values.token }}",
		"api_key: '{{ api_key }}'",
		"password: ********",
		"password=xxx",
		"token = your-token-here",
		"API_KEY=",
		`password = ""`,
		`password = os.environ["DB_PASSWORD"]`,
		`token = os.getenv("GITHUB_TOKEN")`,
		`const token = process.env.API_TOKEN;`,
		`Password: os.Getenv("DB_PASSWORD"),`,
		"db_password: !vault |",
		"password: vault:secret/data/db#password",
		"client_secret: op://ops/github/client-secret",
		"secret_arn: arn:aws:secretsmanager:eu-west-1:123456789012:secret:db-AbC123",
		"aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
		"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"-----BEGIN PUBLIC KEY-----\n" + body(3) + "\n-----END PUBLIC KEY-----",
		"-----BEGIN CERTIFICATE-----\n" + body(5) + "\n-----END CERTIFICATE-----",
		"-----BEGIN CERTIFICATE REQUEST-----\n" + body(4) + "\n-----END CERTIFICATE REQUEST-----",
		"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + tTok + " deploy@ci",
		"public_key: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC" + tTok36 + " ops@bastion",
		"commit 3f2c9a1e8b7d6c5f4e3a2b1c0d9e8f7a6b5c4d3e",
		"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"image: registry/app@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"request_id: 7c4e9a2b-13f5-4d8e-9a61-2b3c4d5e6f70",
		"token_id: 7c4e9a2b-13f5-4d8e-9a61-2b3c4d5e6f70",
		"role: arn:aws:iam::123456789012:role/deploy",
		"tokenizer: cl100k_base",
		"max_tokens=800",
		"usage: prompt_tokens=1200 completion_tokens=340 total_tokens=1540",
		"token budget: 200000; tokens used: 154000",
		"OPENAI_API_KEY=sk-…abcd",
		"using key sk-...Xy9Q from the vault",
		"ghp_****************************abcd",
		"password_length: 16",
		"password_file: /run/secrets/db_password",
		"token_ttl: 3600",
		"password: required",
		"token: string",
		"--password-stdin",
		"echo $DB_PASSWORD | docker login --username ci --password-stdin",
		"Authorization: Bearer $TOKEN",
		"Authorization: Bearer <token>",
		"-H \"Authorization: Bearer ${GITHUB_TOKEN}\"",
		"postgres://user:password@localhost:5432/db",
		"postgres://app:${DB_PASS}@db:5432/app",
		"SECRET_KEY = 'dev'",
		"SECRET_KEY = 'change-me-in-production'",
		"the -----BEGIN RSA PRIVATE KEY----- header means PKCS#1",
		"stripe pk_" + "live_" + tTok + " is the publishable key",
		"X-Api-Key: $API_KEY",
		"password reset flow: see docs/auth.md",
		"pwd: /home/dev/project",
		"PWD=/srv/app",
		"key: value",
		"secretName: db-credentials",
		"valueFrom:\n  secretKeyRef:\n    name: db\n    key: password",
		"the passport number field is optional",
		"bypass: true",
		"ssh_key_fingerprint: SHA256:" + tTok,
		"<password>${DB_PASSWORD}</password>",
		"SECRET_KEY = get_random_secret_key()",
		"api_key = None",
		"| password | string | required |",
		`password: "{{ vault_db_password }}"`,
		"<password/>",
		"[setting-up-credentials]: https://github.com/org/tool#setting-up-credentials",
		"--- PASS: TestScan/aws_id (0.00s)",
		"IMAGE_REL_AMD64_TOKEN = 0x000D",
		`invalidTokenPanic = "invalid token; it has been voided"`,
		"\tPassword: password16,",
		"PrivateKey:  testRSA2048PrivateKey,",
		"hashSalt = []byte(runtime.Version())",
		"a default token is encountered.”",
		"Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
	}
	for _, c := range cases {
		if fs := Text(c); len(fs) > 0 {
			t.Errorf("%q: want no finding, got %+v", c, fs)
		}
	}
}

func TestFindingPositionAndPreview(t *testing.T) {
	text := "line one\nnote: ünïcödé ok\n  DB_PASSWORD=Summer2024!\n"
	fs := Text(text)
	if len(fs) != 1 {
		t.Fatalf("got %d findings, want 1: %+v", len(fs), fs)
	}
	f := fs[0]
	if got := text[f.Start:f.End]; got != "Summer2024!" {
		t.Errorf("span = %q, want the value", got)
	}
	if f.Line != 3 || f.Column != 15 {
		t.Errorf("line:column = %d:%d, want 3:15", f.Line, f.Column)
	}
	if f.Preview != "Sum…" {
		t.Errorf("preview = %q, want %q", f.Preview, "Sum…")
	}
	if f.Rule != "credential-assignment" || f.Category != CategoryCredential {
		t.Errorf("rule = %s/%s", f.Rule, f.Category)
	}
}

func TestPreview(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ab", "…"},
		{"abcdef", "ab…"},
		{"abcdefghijkl", "abcd…"},
		{strings.Repeat("x", 200), "xxxx…"},
		{"ñandú-ñandú", "ñan…"},
		// Nothing that could drive a terminal or hide text: the preview stops before it.
		{"\x1b[2J\x1b]0;pwned\asecretvalue", "…"},
		{"ab\x1b[2Jsecretvalue", "ab…"},
		{"a\u202esecretvalue", "a…"},
		{"ab\xffsecretvalue", "ab…"},
	} {
		if got := preview(c.in); got != c.want {
			t.Errorf("preview(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestOrderAndMerge(t *testing.T) {
	jwt := fake("eyJhbGciOiJIUzI1NiJ9", ".", "eyJzdWIiOiJhYmMifQ", ".", tTok)
	text := "b: ghp_" + tTok36 + "\nAuthorization: Bearer " + jwt + "\na: " + tKeyID + "\n"
	fs := Text(text)
	if len(fs) != 3 {
		t.Fatalf("got %d findings, want 3 (bearer and JWT merged): %+v", len(fs), fs)
	}
	want := []string{"github-token", "jwt", "aws-access-key-id"}
	for i, f := range fs {
		if f.Rule != want[i] {
			t.Errorf("finding %d rule = %s, want %s", i, f.Rule, want[i])
		}
		if i > 0 && fs[i-1].Start >= f.Start {
			t.Errorf("findings not ordered by Start: %+v", fs)
		}
	}
}

func TestMultipleSecretsOnOneLine(t *testing.T) {
	text := "AWS_ACCESS_KEY_ID=" + tKeyID + " AWS_SECRET_ACCESS_KEY=" + tB40 + " GH_TOKEN=ghp_" + tTok36
	fs := Text(text)
	if len(fs) != 3 {
		t.Fatalf("got %d findings, want 3: %+v", len(fs), fs)
	}
}

func TestConcurrent(t *testing.T) {
	text := "DB_PASSWORD=Summer2024!\nghp_" + tTok36
	done := make(chan []Finding)
	for range 8 {
		go func() { done <- Text(text) }()
	}
	for range 8 {
		if fs := <-done; len(fs) != 2 {
			t.Errorf("concurrent scan got %d findings, want 2", len(fs))
		}
	}
}

func TestEmptyAndInvalid(t *testing.T) {
	if fs := Text(""); fs != nil {
		t.Errorf("empty text: %v", fs)
	}
	text := "\xff\xfeDB_PASSWORD=Summer2024!\xff"
	fs := Text(text)
	if len(fs) != 1 || !utf8.ValidString(fs[0].Preview) {
		t.Errorf("invalid UTF-8 around a secret: %+v", fs)
	}
}

// body returns n lines of fake base64 key body.
func body(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(fake("MIIEow", "IBAAKCAQEA", tTok36[i%30:], tTok[:16], tB40[:12]))
	}
	return b.String()
}

func pem(kind string, lines int, end bool) string {
	s := "-----BEGIN " + kind + "-----\n" + body(lines)
	if end {
		s += "\n-----END " + kind + "-----"
	}
	return s
}
