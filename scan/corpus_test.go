package scan

import (
	"encoding/base64"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "regenerate testdata/corpus.txtar from the corpus generator")

const corpusFile = "testdata/corpus.txtar"

// Corpus label syntax. A labelled secret is written ⟦category:value⟧ with the split mark ‸ inside the value, so
// the committed corpus never holds a contiguous credential-shaped string; loading removes the marks and records
// the secret's span.
const (
	labelOpen  = "⟦"
	labelClose = "⟧"
	splitMark  = "‸"
)

// note is one corpus note with its expected secrets.
type note struct {
	name    string
	text    string
	secrets []labelled
}

type labelled struct {
	category   string
	start, end int
}

// parseNote strips labels from a corpus note.
func parseNote(name, raw string) (note, error) {
	n := note{name: name}
	var b strings.Builder
	for {
		i := strings.Index(raw, labelOpen)
		if i < 0 {
			b.WriteString(raw)
			break
		}
		b.WriteString(raw[:i])
		raw = raw[i+len(labelOpen):]
		colon := strings.IndexByte(raw, ':')
		end := strings.Index(raw, labelClose)
		if colon < 0 || end < colon {
			return n, fmt.Errorf("%s: malformed label near %q", name, raw[:min(len(raw), 40)])
		}
		cat := raw[:colon]
		val := strings.ReplaceAll(raw[colon+1:end], splitMark, "")
		start := b.Len()
		b.WriteString(val)
		n.secrets = append(n.secrets, labelled{cat, start, b.Len()})
		raw = raw[end+len(labelClose):]
	}
	n.text = b.String()
	return n, nil
}

func loadCorpus(t testing.TB) []note {
	t.Helper()
	ar, err := txtar.ParseFile(corpusFile)
	if err != nil {
		t.Fatalf("load corpus: %v", err)
	}
	var notes []note
	for _, f := range ar.Files {
		n, err := parseNote(f.Name, string(f.Data))
		if err != nil {
			t.Fatal(err)
		}
		notes = append(notes, n)
	}
	return notes
}

// TestCorpus scores the scanner against the labelled corpus and fails when precision or recall of any category
// drops below 0.97. With -update it first regenerates the corpus.
func TestCorpus(t *testing.T) {
	if *update {
		if err := os.MkdirAll(filepath.Dir(corpusFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(corpusFile, corpusArchive(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The committed corpus must be exactly what the generator produces: it is refreshed with -update, never by hand.
	if data, err := os.ReadFile(corpusFile); err != nil {
		t.Fatal(err)
	} else if string(data) != string(corpusArchive()) {
		t.Fatalf("%s differs from the generator output; run go test ./scan -run TestCorpus -update", corpusFile)
	}
	notes := loadCorpus(t)
	negatives, big, unicodeHeavy, multi := 0, 0, 0, 0
	for _, n := range notes {
		if len(n.secrets) == 0 {
			negatives++
		}
		if len(n.text) > 60<<10 {
			big++
		}
		if strings.HasPrefix(n.name, "unicode") {
			unicodeHeavy++
		}
		if len(n.secrets) >= 5 {
			multi++
		}
	}
	if len(notes) < 150 || negatives*2 < len(notes) || big == 0 || unicodeHeavy == 0 || multi == 0 {
		t.Fatalf("corpus shape: %d notes, %d negative, %d near 64 KiB, %d unicode-heavy, %d multi-secret",
			len(notes), negatives, big, unicodeHeavy, multi)
	}

	type score struct{ want, found, flagged, correct int }
	scores := map[string]*score{}
	get := func(c string) *score {
		if scores[c] == nil {
			scores[c] = &score{}
		}
		return scores[c]
	}
	falseAlarmNotes := 0
	for _, n := range notes {
		fs := Text(n.text)
		for _, s := range n.secrets {
			sc := get(s.category)
			sc.want++
			hit := false
			for _, f := range fs {
				if f.Category == s.category && f.Start < s.end && s.start < f.End {
					hit = true
					break
				}
			}
			if hit {
				sc.found++
			} else {
				t.Errorf("%s: missed %s secret %q (line %d)", n.name, s.category, redact(n.text[s.start:s.end]), 1+strings.Count(n.text[:s.start], "\n"))
			}
		}
		wrong := false
		for _, f := range fs {
			sc := get(f.Category)
			sc.flagged++
			ok := false
			for _, s := range n.secrets {
				if f.Category == s.category && f.Start < s.end && s.start < f.End {
					ok = true
					break
				}
			}
			if ok {
				sc.correct++
			} else {
				wrong = true
				t.Errorf("%s: false %s finding by %s at line %d: %q", n.name, f.Category, f.Rule, f.Line, context(n.text, f))
			}
		}
		if wrong && len(n.secrets) == 0 {
			falseAlarmNotes++
		}
	}
	cats := make([]string, 0, len(scores))
	for c := range scores {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	t.Logf("corpus: %d notes (%d without secrets), %d near 64 KiB; %d negative notes raised an alarm", len(notes), negatives, big, falseAlarmNotes)
	t.Logf("%-14s %7s %7s %9s %7s", "category", "secrets", "found", "precision", "recall")
	for _, c := range cats {
		sc := scores[c]
		p, r := ratio(sc.correct, sc.flagged), ratio(sc.found, sc.want)
		t.Logf("%-14s %7d %7d %9.3f %7.3f", c, sc.want, sc.found, p, r)
		if p < 0.97 || r < 0.97 {
			t.Errorf("category %s below 0.97: precision %.3f recall %.3f", c, p, r)
		}
	}
}

// corpusArchive renders the generated corpus as the txtar file committed in testdata.
func corpusArchive() []byte {
	ar := &txtar.Archive{Comment: []byte("Labelled checkpoint notes for the scanner. Generated by TestCorpus -update; do not edit.\n" +
		"A secret is written ⟦category:value⟧ with ‸ marks inside the value; every value is random and fake.\n" +
		"Regenerate with: go test ./scan -run TestCorpus -update\n")}
	for _, g := range generateCorpus() {
		ar.Files = append(ar.Files, txtar.File{Name: g.name, Data: []byte(g.raw)})
	}
	return txtar.Format(ar)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func redact(s string) string { return preview(s) }

func context(text string, f Finding) string {
	lo, hi := max(0, f.Start-30), min(len(text), f.End+10)
	return text[lo:f.Start] + "[" + preview(text[f.Start:f.End]) + "]" + text[f.End:hi]
}

// ---- generator ----------------------------------------------------------------------------------------------

type genNote struct{ name, raw string }

// gen produces fake secrets and note text from a seeded generator, so the corpus is the same on every run.
type gen struct{ r *rand.Rand }

const (
	upper   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower   = "abcdefghijklmnopqrstuvwxyz"
	digits  = "0123456789"
	alnum   = upper + lower + digits
	base64c = alnum + "+/"
	hexc    = "0123456789abcdef"
	b32     = upper + "234567"
	urlsafe = alnum + "-_"
	symbols = "!#+-_.=^~"
)

func (g *gen) str(alpha string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alpha[g.r.IntN(len(alpha))]
	}
	return string(b)
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// clean regenerates v until it contains none of the placeholder marks a random string can hit by chance, not
// even one that [placeholderMark] reads as chance, so that the corpus stays what it was generated as.
func (g *gen) clean(f func() string) string {
	for {
		v := f()
		if !lex().marks.contains(v) && !isPlaceholder(v) {
			return v
		}
	}
}

func (g *gen) mixed(alpha string, n int) string {
	return g.clean(func() string {
		for {
			v := g.str(alpha, n)
			if strings.ContainsAny(v, upper) && strings.ContainsAny(v, lower) && strings.ContainsAny(v, digits) {
				return v
			}
		}
	})
}

func (g *gen) password() string {
	return g.clean(func() string {
		switch g.r.IntN(3) {
		case 0:
			return g.pick("Summer", "Winter", "Tango", "Falcon", "Harbor", "Maple", "Orbit", "Cobalt") + fmt.Sprint(2000+g.r.IntN(30)) + g.pick("!", "#", "+", "-x", ".")
		case 1:
			return g.mixed(alnum, 6) + g.str(symbols, 1) + g.mixed(alnum, 5+g.r.IntN(6))
		default:
			return g.mixed(alnum+symbols, 10+g.r.IntN(14))
		}
	})
}

func (g *gen) awsID() string {
	return g.pick("AKIA", "AKIA", "ASIA", "ABIA", "ACCA", "AROA") + g.clean(func() string { return g.str(b32, 16) })
}
func (g *gen) awsSecret() string  { return g.mixed(base64c, 40) }
func (g *gen) token(n int) string { return g.mixed(alnum, n) }
func (g *gen) hex(n int) string   { return g.str(hexc, n) }
func (g *gen) jwt() string {
	hdr := g.pick("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9", "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9")
	return hdr + ".eyJ" + g.str(urlsafe, 40+g.r.IntN(60)) + "." + g.str(urlsafe, 43)
}
func (g *gen) pemBody(lines int) string {
	var b strings.Builder
	for i := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(g.str(base64c, 64))
	}
	return b.String()
}

// mark labels a secret for the corpus, splitting it after its third rune (breaking prefixes such as AKIA,
// ghp_ and -----BEGIN) and in its middle, so that the file holds no contiguous secret.
func mark(cat, v string) string {
	rs := []rune(v)
	h := max(4, len(rs)/2)
	return labelOpen + cat + ":" + string(rs[:3]) + splitMark + string(rs[3:h]) + splitMark + string(rs[h:]) + labelClose
}

// positive snippets: each returns note text with labelled secrets.
func (g *gen) positives() []func() string {
	aws, hdr, pk, cred, ven, ent := CategoryAWS, CategoryAuthHeader, CategoryPrivateKey, CategoryCredential, CategoryVendor, CategoryEntropy
	return []func() string{
		func() string {
			return "Wrote ~/.aws/credentials for the smoke test:\n```\n[default]\naws_access_key_id = " + mark(aws, g.awsID()) +
				"\naws_secret_access_key = " + mark(aws, g.awsSecret()) + "\nregion = eu-west-1\n```"
		},
		func() string {
			return "```sh\nexport AWS_ACCESS_KEY_ID=" + mark(aws, g.awsID()) + "\nexport AWS_SECRET_ACCESS_KEY=" + mark(aws, g.awsSecret()) + "\n```"
		},
		func() string {
			return "`aws sts get-session-token` returned:\n{\n  \"Credentials\": {\n    \"AccessKeyId\": \"" + mark(aws, "ASIA"+g.str(b32, 16)) +
				"\",\n    \"SecretAccessKey\": \"" + mark(aws, g.awsSecret()) + "\",\n    \"Expiration\": \"2026-03-02T11:00:00Z\"\n  }\n}"
		},
		func() string {
			return "- created IAM user ci-deployer, key " + mark(aws, g.awsID()) + " with secret " + mark(aws, g.awsSecret()) + " (tell ops to rotate)"
		},
		func() string {
			id := g.awsID()
			k := 6 + g.r.IntN(10)
			return "log excerpt (terminal wrapped it):\n  botocore: using access key " + mark(aws, id[:k]+"\n  "+id[k:]) + " from env"
		},
		func() string {
			s := g.pick("+", "/") + g.awsSecret()[1:]
			return "AWS_SECRET_ACCESS_KEY=" + mark(aws, s) + " in .env.local (starts with a symbol, quoting matters)"
		},
		func() string {
			return "Repro:\n```\ncurl -sS -H \"Authorization: Bearer " + mark(hdr, g.token(40)) + "\" https://api.internal.example/v2/jobs\n```"
		},
		func() string {
			return "Captured request:\n```\nPOST /v1/ingest HTTP/1.1\nHost: ingest.internal\nContent-Type: application/json\nAuthorization: Bearer " +
				mark(hdr, g.str(urlsafe, 24)+"."+g.token(20)) + "\n```"
		},
		func() string {
			return "h2 frame dump:\n:method: GET\n:path: /api/v3/user\nauthorization: bearer " + mark(hdr, g.token(36)) + "\naccept: */*"
		},
		func() string {
			return "python snippet that worked:\n```py\nheaders = {\"Authorization\": \"Bearer " + mark(hdr, g.token(32)) + "\", \"Accept\": \"application/json\"}\n```"
		},
		func() string {
			return "```js\nawait fetch(url, { headers: { 'Authorization': `Bearer " + mark(hdr, g.token(44)) + "` } })\n```"
		},
		func() string {
			return "The proxy log folds long headers:\nAuthorization: Bearer\n        " + mark(hdr, g.token(48)) + "\nX-Request-Id: 42"
		},
		func() string {
			user := g.pick("deploy", "ci", "svc-report", "admin")
			cred := base64.StdEncoding.EncodeToString([]byte(user + ":" + g.password()))
			return "grafana API call: `curl -H 'Authorization: Basic " + mark(hdr, cred) + "' http://grafana:3000/api/health`"
		},
		func() string {
			cred := base64.StdEncoding.EncodeToString([]byte(g.pick("squid", "proxyuser") + ":" + g.password()))
			return "corp proxy needs `Proxy-Authorization: Basic " + mark(hdr, cred) + "` on every request"
		},
		func() string {
			return "```\ncurl -H 'X-Api-Key: " + mark(hdr, g.token(32)) + "' https://metrics.vendor.example/v1/series\n```"
		},
		func() string {
			return "requests.get(url, headers={'x-api-key': '" + mark(hdr, g.token(40)) + "'})"
		},
		func() string {
			kind := g.pick("RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED ", "")
			hdrs := ""
			if kind == "RSA " && g.r.IntN(2) == 0 {
				hdrs = "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC," + strings.ToUpper(g.hex(32)) + "\n\n"
			}
			block := "-----BEGIN " + kind + "PRIVATE KEY-----\n" + hdrs + g.pemBody(3+g.r.IntN(8)) + "\n-----END " + kind + "PRIVATE KEY-----"
			return "Pasted the deploy key so the next run can reuse it:\n" + mark(pk, block) + "\n(remove after the migration)"
		},
		func() string {
			block := "-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: release signing\n\n" + g.pemBody(5) + "\n=" + g.str(base64c, 4) + "\n-----END PGP PRIVATE KEY BLOCK-----"
			return "release signing key (exported with gpg --export-secret-keys --armor):\n" + mark(pk, block)
		},
		func() string {
			block := "-----BEGIN RSA PRIVATE KEY-----\n" + g.pemBody(4+g.r.IntN(4))
			return "The note got cut while pasting the key:\n" + mark(pk, block)
		},
		func() string {
			body := g.pemBody(3)
			block := "-----BEGIN PRIVATE KEY-----\\n" + strings.ReplaceAll(body, "\n", "\\n") + "\\n-----END PRIVATE KEY-----\\n"
			return "service account json: {\"type\": \"service_account\", \"private_key\": \"" + mark(pk, block) + "\", \"client_email\": \"sa@proj.iam\"}"
		},
		func() string {
			return "PuTTY key for the bastion:\nPuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: bastion\nPublic-Lines: 2\n" + g.pemBody(2) +
				"\nPrivate-Lines: 1\n" + mark(pk, g.str(base64c, 44)) + "\nPrivate-MAC: " + g.hex(64)
		},
		func() string {
			return ".env for local dev:\n```\nDB_HOST=localhost\nDB_PASSWORD=" + mark(cred, g.password()) + "\n```"
		},
		func() string {
			return "ran `export API_TOKEN='" + mark(cred, g.token(28)) + "'` before the integration tests"
		},
		func() string {
			return "config/database.yml:\n```yaml\nproduction:\n  adapter: postgresql\n  username: app\n  password: " + mark(cred, g.password()) + "\n```"
		},
		func() string {
			return "values.yaml override:\n```yaml\nredis:\n  auth:\n    password:\n      " + mark(cred, g.password()) + "\n```"
		},
		func() string {
			return "settings.json: `{\"smtp\": {\"user\": \"mailer\", \"password\": \"" + mark(cred, g.password()) + "\"}}`"
		},
		func() string {
			return "pyproject / tool config (TOML):\n```toml\n[tool.db]\nuser = \"report\"\npassword = \"" + mark(cred, g.password()) + "\"\n```"
		},
		func() string {
			return "legacy app.ini:\n```ini\n[mail]\nsmtp_user = alerts\nsmtp_pass = " + mark(cred, g.password()) + "\n```"
		},
		func() string {
			return "```python\nclient = Client(base_url=BASE, api_key=\"" + mark(cred, g.token(32)) + "\")\n```"
		},
		func() string {
			return "```js\nconst config = { clientSecret: '" + mark(cred, g.token(30)) + "', clientId: 'web-app' };\n```"
		},
		func() string {
			return "```go\ndb, err := sql.Open(\"mysql\", dsn)\ncfg := Config{User: \"svc\", Password: \"" + mark(cred, g.password()) + "\"}\n```"
		},
		func() string {
			return "ran: `./bin/migrate --db-host pg01 --password '" + mark(cred, g.password()) + "' --dry-run`"
		},
		func() string {
			p := g.clean(func() string { return g.mixed(alnum, 12) })
			return "restore worked with `mysql -h db01 -u root -p" + mark(cred, p) + " shop < backup.sql`"
		},
		func() string {
			p := g.clean(func() string { return g.mixed(alnum+"-_.~", 14) })
			return "DATABASE_URL=postgres://app:" + mark(cred, p) + "@db.internal:5432/app?sslmode=require"
		},
		func() string {
			p := g.clean(func() string { return g.mixed(alnum, 16) })
			return "celery broker: amqp://worker:" + mark(cred, p) + "@rabbit:5672/vhost"
		},
		func() string {
			name := g.pick("contraseña", "Contraseña", "Passwort", "Kennwort", "mot de passe", "senha", "Senha", "mot_de_passe")
			return "notas del cliente — " + name + ": " + mark(cred, g.password()) + " (servidor de pruebas)"
		},
		func() string {
			name := g.pick("dbPassword", "db-password", "DB_PASSWORD", "db_password", "DbPassword", "adminPwd", "SMTP_PASSWD", "vpnPassphrase")
			return "set " + name + "=" + mark(cred, g.password()) + " in the staging env"
		},
		func() string {
			return "told by ops: the staging admin password is " + mark(cred, g.mixed(alnum+"!#", 12)) + " until Friday"
		},
		func() string {
			return "AWS_SESSION_TOKEN=" + mark(cred, g.mixed(base64c, 120)) + " (expires in 1h)"
		},
		func() string {
			p := g.token(20)
			return "deploy hook: `curl -u deployer:" + mark(cred, p) + " https://jenkins.internal/job/x/build`"
		},
		func() string {
			return "spring datasource in pom profile:\n<datasource>\n  <username>app</username>\n  <password>" + mark(cred, g.password()) + "</password>\n</datasource>"
		},
		func() string {
			return "created it with `kubectl create secret generic api --from-literal=api-token=" + mark(cred, g.token(24)) + " -n staging`"
		},
		func() string {
			return "terraform.tfvars:\n```hcl\ndb_username = \"admin\"\ndb_password = \"" + mark(cred, g.password()) + "\"\n```"
		},
		func() string {
			return "runner config.toml:\n[[runners]]\n  url = \"https://gitlab.example.com\"\n  token = \"" + mark(ven, "glrt-"+g.str(urlsafe, 20)) + "\""
		},
		func() string {
			return "docker run -e POSTGRES_PASSWORD=" + mark(cred, g.password()) + " -p 5432:5432 postgres:16"
		},
		func() string {
			return "GITHUB_TOKEN=" + mark(ven, g.pick("ghp_", "gho_", "ghu_", "ghs_", "ghr_")+g.token(36)) + " is what the action uses"
		},
		func() string {
			return "fine-grained PAT for the bot: " + mark(ven, "github_pat_"+g.token(22)+"_"+g.token(59))
		},
		func() string {
			return "git remote set-url origin https://oauth2:" + mark(ven, "glpat-"+g.str(urlsafe, 20)) + "@gitlab.example.com/grp/repo.git"
		},
		func() string {
			return "SLACK_BOT_TOKEN=" + mark(ven, "xoxb-"+g.str(digits, 11)+"-"+g.str(digits, 13)+"-"+g.token(24))
		},
		func() string {
			return "alerts go to " + mark(ven, "https://hooks.slack.com/services/T"+g.str(upper+digits, 8)+"/B"+g.str(upper+digits, 10)+"/"+g.token(24))
		},
		func() string {
			return "stripe test: `stripe.api_key = \"" + mark(ven, g.pick("sk_live_", "sk_test_", "rk_live_")+g.token(24+g.r.IntN(70))) + "\"`"
		},
		func() string { return "STRIPE_WEBHOOK_SECRET=" + mark(ven, "whsec_"+g.token(32)) },
		func() string {
			return "maps widget: <script src=\"https://maps.googleapis.com/maps/api/js?key=" + mark(ven, "AIza"+g.str(urlsafe, 35)) + "\"></script>"
		},
		func() string {
			return "OPENAI_API_KEY=" + mark(ven, "sk-proj-"+g.str(urlsafe, 60)+"T3BlbkFJ"+g.str(urlsafe, 60))
		},
		func() string {
			return "old key still in ~/.zshrc: " + mark(ven, "sk-"+g.token(20)+"T3BlbkFJ"+g.token(20))
		},
		func() string {
			return "export ANTHROPIC_API_KEY=" + mark(ven, "sk-ant-api03-"+g.str(urlsafe, 93)+"AA")
		},
		func() string { return ".npmrc:\n//registry.npmjs.org/:_authToken=" + mark(ven, "npm_"+g.token(36)) },
		func() string {
			return ".pypirc:\n[pypi]\nusername = __token__\npassword = " + mark(ven, "pypi-AgEIcHlwaS5vcmc"+g.str(urlsafe, 70))
		},
		func() string { return "SENDGRID_API_KEY=" + mark(ven, "SG."+g.str(urlsafe, 22)+"."+g.str(urlsafe, 43)) },
		func() string { return "twilio sid " + mark(ven, "SK"+g.hex(32)) + " for the sms sender" },
		func() string {
			return "AZURE_STORAGE_CONNECTION_STRING=\"DefaultEndpointsProtocol=https;AccountName=stlogs01;AccountKey=" +
				mark(ven, g.mixed(base64c, 86)+"==") + ";EndpointSuffix=core.windows.net\""
		},
		func() string { return "id_token from the IdP: " + mark(ven, g.jwt()) },
		func() string {
			return "callback hit: GET /oauth/callback?state=af31&access_token=" + mark(ven, g.jwt()) + "&expires_in=3600"
		},
		func() string { return "`Authorization: Bearer " + mark(ven, g.jwt()) + "` works against staging" },
		func() string {
			return "settings.py still has SECRET_KEY = '" + mark(ent, "django-insecure-"+g.mixed(alnum+"!@#%^&*-_=+", 50)) + "'"
		},
		func() string { return "WEBHOOK_HMAC_KEY=" + mark(ent, g.hex(64)) },
		func() string { return "JWT_SECRET: " + mark(ent, g.mixed(base64c, 44)) },
		func() string { return "session:\n  signing_key: \"" + mark(ent, g.mixed(urlsafe, 32)) + "\"" },
		func() string { return "ENCRYPTION_KEY=" + mark(ent, g.mixed(base64c, 43)+"=") },
		func() string { return "cookie_secret = \"" + mark(ent, g.mixed(alnum, 32)) + "\"" },
	}
}

// negative snippets: text that talks about secrets, or holds look-alikes, but holds no secret.
func (g *gen) negatives() []func() string {
	return []func() string{
		func() string {
			return "- rotate the " + g.pick("password", "API key", "token", "client secret") + " tomorrow; ops owns it"
		},
		func() string { return "Blocked: need the staging password from Dana (she keeps it in 1Password)." },
		func() string { return "password: <redacted>\ntoken: [REDACTED]" },
		func() string { return "```yaml\ndb:\n  password: ${DB_PASSWORD}\n  user: ${DB_USER}\n```" },
		func() string { return "export API_TOKEN=$API_TOKEN  # injected by CI" },
		func() string {
			return "helm: `token: {{ .Values.github.token }}` and `password: {{ required \"pw\" .Values.pw }}`"
		},
		func() string { return "masked in logs as password=******** and token=****" },
		func() string { return "template uses api_key: your-api-key-here and secret: xxx" },
		func() string { return "API_KEY=\nSECRET=\nDB_PASSWORD=" },
		func() string {
			return "```python\npassword = os.environ[\"DB_PASSWORD\"]\ntoken = os.getenv(\"GITHUB_TOKEN\")\napi_key = settings.API_KEY\n```"
		},
		func() string {
			return "```js\nconst token = process.env.SLACK_TOKEN;\nconst apiKey = config.get('apiKey');\n```"
		},
		func() string {
			return "```go\npassword := os.Getenv(\"DB_PASSWORD\")\ntoken, err := secrets.Get(ctx, \"github\")\n```"
		},
		func() string {
			return "db_password: vault:secret/data/prod/db#password\nclient_secret: op://Engineering/oauth/client-secret"
		},
		func() string {
			return "secret_arn: arn:aws:secretsmanager:eu-west-1:" + g.str(digits, 12) + ":secret:prod/db-" + g.str(alnum, 6)
		},
		func() string {
			return "docs example creds: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY (from the AWS guide)"
		},
		func() string {
			return "public key for the deploy user:\n-----BEGIN PUBLIC KEY-----\n" + g.pemBody(3) + "\n-----END PUBLIC KEY-----"
		},
		func() string {
			return "CA bundle:\n-----BEGIN CERTIFICATE-----\n" + g.pemBody(6) + "\n-----END CERTIFICATE-----"
		},
		func() string {
			return "CSR sent to security:\n-----BEGIN CERTIFICATE REQUEST-----\n" + g.pemBody(4) + "\n-----END CERTIFICATE REQUEST-----"
		},
		func() string {
			return "authorized_keys entry: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + g.str(base64c, 43) + " deploy@ci"
		},
		func() string {
			return "public_key: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + g.str(base64c, 80) + " ops@bastion"
		},
		func() string { return "fixed in commit " + g.hex(40) + " (merge " + g.hex(12) + ")" },
		func() string {
			return "image: ghcr.io/acme/api@sha256:" + g.hex(64) + "\nchecksum: sha512-" + g.str(base64c, 86) + "=="
		},
		func() string {
			return "request_id=" + uuid(g) + " trace_id=" + g.hex(32) + " token_id: " + uuid(g)
		},
		func() string {
			return "assume role arn:aws:iam::" + g.str(digits, 12) + ":role/deploy-" + g.str(lower, 5)
		},
		func() string {
			return "model config: tokenizer: cl100k_base, max_tokens=" + fmt.Sprint(200+g.r.IntN(4000)) + ", temperature=0.2"
		},
		func() string {
			return fmt.Sprintf("usage: prompt_tokens=%d completion_tokens=%d total_tokens=%d", g.r.IntN(9000), g.r.IntN(2000), g.r.IntN(11000))
		},
		func() string {
			return fmt.Sprintf("context window: %d tokens; token budget left: %d", 128000+g.r.IntN(72000), g.r.IntN(90000))
		},
		func() string {
			return "key in use: " + g.pick("sk-…", "sk-proj-…", "sk-...", "ghp_…", "AKIA…") + g.str(alnum, 4) + " (masked in the dashboard)"
		},
		func() string { return "ghp_****************************" + g.str(alnum, 4) + " was revoked" },
		func() string { return "stripe publishable key pk_live_" + g.token(24) + " goes in the frontend bundle" },
		func() string {
			return "connection: postgres://user:password@localhost:5432/dev (docker-compose default)"
		},
		func() string { return "DATABASE_URL=postgres://app:${DB_PASS}@db:5432/app" },
		func() string {
			return "password policy: password_min_length: 12, password_expiry: 90d, token_ttl: 3600"
		},
		func() string { return "password_file: /run/secrets/db_password\ntoken_path: ~/.config/gh/hosts.yml" },
		func() string {
			return "```yaml\nenv:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n        key: password\n```"
		},
		func() string {
			return "`echo \"$CR_PAT\" | docker login ghcr.io -u ci --password-stdin` in the workflow"
		},
		func() string {
			return "test fixture uses password: \"password\" and token: \"test\" — fine for unit tests"
		},
		func() string { return "```ts\ninterface Creds { token: string; password?: string }\n```" },
		func() string {
			return "```go\ntype Config struct {\n\tPassword string `json:\"password\"`\n\tToken    string `json:\"token\"`\n}\n```"
		},
		func() string {
			return "Authorization header is `Bearer $TOKEN`; curl -H \"Authorization: Bearer ${GITHUB_TOKEN}\" works"
		},
		func() string { return "Authorization: Bearer <token from step 3>" },
		func() string { return "SECRET_KEY = 'dev'  # overridden in prod" },
		func() string {
			return "the first line should be -----BEGIN RSA PRIVATE KEY----- (PKCS#1), not BEGIN PRIVATE KEY"
		},
		func() string { return "X-Api-Key: $METRICS_API_KEY header required by the vendor" },
		func() string { return "password reset emails are broken; see docs/auth.md#reset" },
		func() string { return "pwd: /home/dev/src/memoree\nPWD=/srv/app" },
		func() string { return "passport_number field optional; bypass: true for admins" },
		func() string { return "ssh_key_fingerprint: SHA256:" + g.str(base64c, 43) },
		func() string { return "integrity \"sha512-" + g.str(base64c, 86) + "==\" in package-lock.json" },
		func() string {
			return "image/png;base64,iVBORw0KGgoAAAANSUhEUgAAA" + g.str(base64c, 120)
		},
		func() string { return "the tokens are cached in ~/.cache/tokens; secrets live in Secrets Manager" },
		func() string { return "We use bearer authentication and basic auth for the admin panel." },
		func() string { return "`gh auth token` prints the token; do not paste it here" },
		func() string { return "Set GITHUB_TOKEN in repo settings → Secrets → Actions (name only: GH_PAT)." },
		func() string {
			return "AWS key id format is AKIA + 16 chars; ours is stored as aws_access_key_id in the vault"
		},
		func() string { return "session cookie: sessionid=" + g.hex(32) + "; csrftoken=" + g.token(32) },
		func() string { return "next_page_token: " + g.token(40) + "\ncursor: " + g.str(base64c, 24) },
		func() string { return "build " + g.hex(7) + " passed: 214 tests, 0 failures, coverage 81.3%" },
		func() string { return "secretName: db-credentials\nsecret_name: prod/api" },
		func() string { return "old key AKIAXXXXXXXXXXXXXXXX in the example was replaced" },
		func() string { return "openai client: `OpenAI(api_key=os.environ[\"OPENAI_API_KEY\"])`" },
		func() string { return "jwt header eyJhbGciOi… truncated in the log" },
		func() string { return "mysql -u root -p shop   # prompts for the password" },
		func() string { return "curl -u admin:$ADMIN_PASS https://ci.internal/api/json" },
		func() string { return "webhook url https://hooks.slack.com/services/T000/B000/XXXX (placeholder)" },
		func() string { return "password strength: zxcvbn score >= 3; passwords: [\"a\", \"b\"]" },
		func() string { return "token: string  // from the OpenAPI schema" },
		func() string { return "Bearer tokens expire after 15 minutes; refresh with POST /oauth/token" },
		func() string { return "UUID " + uuid(g) + " is the tenant, not a secret" },
		func() string { return "<password>${DB_PASSWORD}</password>\n<token/>" },
		func() string { return "SECRET_KEY = get_random_secret_key()\napi_key = None" },
		func() string { return "| field | type |\n|---|---|\n| password | string |\n| api_key | string |" },
		func() string {
			return "db_password = var.db_password\ntoken = data.vault_generic_secret.ci.data[\"token\"]"
		},
		func() string { return "the helm chart reads `password: {{ .Values.db.password | quote }}`" },
		func() string { return "api_key_id: " + uuid(g) + "\naccess_key_id: ${AWS_ACCESS_KEY_ID}" },
	}
}

func uuid(g *gen) string {
	h := g.hex(32)
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
}

// filler produces the ordinary lines of a checkpoint note.
func (g *gen) filler(n int, unicodeHeavy bool) string {
	lines := []func() string{
		func() string {
			return "Status: " + g.pick("tests green", "2 failing tests in pkg/api", "blocked on review", "migration half done")
		},
		func() string {
			return "- edited " + g.pick("internal/store/sqlite.go", "cmd/server/main.go", "web/src/App.tsx", "docs/runbook.md", "Makefile") + fmt.Sprintf(" (+%d -%d)", g.r.IntN(200), g.r.IntN(80))
		},
		func() string {
			return "$ " + g.pick("go test ./...", "npm run build", "make lint", "docker compose up -d", "kubectl get pods -n staging", "git rebase -i HEAD~3")
		},
		func() string {
			return fmt.Sprintf("2026-02-%02dT%02d:%02d:%02dZ INFO %s", 1+g.r.IntN(28), g.r.IntN(24), g.r.IntN(60), g.r.IntN(60),
				g.pick("request completed status=200 dur=12ms", "cache miss key=user:42", "worker started pid=3121", "retrying in 2s attempt=3"))
		},
		func() string {
			return "Next: " + g.pick("wire the retry policy", "split the handler", "ask about the flaky test", "update CHANGELOG", "benchmark the parser")
		},
		func() string {
			return "    at " + g.pick("handler.go:88", "store.go:214", "main.go:41") + " in " + g.pick("(*Server).serve", "Store.Put", "main.run")
		},
		func() string {
			return "Decision: keep " + g.pick("SQLite", "the v2 API", "the old schema", "cobra") + " for now; revisit after load tests"
		},
		func() string { return "" },
	}
	uni := []func() string{
		func() string { return "状态：测试通过，下一步是迁移数据库 ✅" },
		func() string { return "メモ：キャッシュの有効期限を短くする 🔧 — 確認済み" },
		func() string { return "Заметка: проверить миграцию на стенде 🚀" },
		func() string { return "ملاحظة: تحديث الوثائق بعد الدمج" },
		func() string { return "🧪 testé: ñandú, façade, naïve — ok 👍🏽" },
	}
	var b strings.Builder
	for range n {
		if unicodeHeavy && g.r.IntN(2) == 0 {
			b.WriteString(uni[g.r.IntN(len(uni))]())
		} else {
			b.WriteString(lines[g.r.IntN(len(lines))]())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (g *gen) header(i int) string {
	return fmt.Sprintf("# Checkpoint %03d — %s\n\n", i, g.pick("fix flaky upload test", "migrate auth to OIDC", "speed up search",
		"deploy pipeline", "billing webhook", "on-call follow-up", "refactor config loading"))
}

// generateCorpus builds the whole corpus deterministically.
func generateCorpus() []genNote {
	g := &gen{r: rand.New(rand.NewPCG(20260301, 7))}
	pos, neg := g.positives(), g.negatives()
	var out []genNote
	add := func(name, raw string) { out = append(out, genNote{name, raw}) }
	// Every positive and negative snippet appears at least once, then random mixes follow.
	id := 0
	for i, p := range pos {
		id++
		add(fmt.Sprintf("pos-%03d.note", id), g.header(id)+g.filler(2+g.r.IntN(4), false)+p()+"\n"+g.filler(1+g.r.IntN(3), false)+neg[i%len(neg)]()+"\n")
	}
	for id < 100 {
		id++
		var b strings.Builder
		b.WriteString(g.header(id))
		for range 1 + g.r.IntN(2) {
			b.WriteString(g.filler(1+g.r.IntN(4), false))
			b.WriteString(pos[g.r.IntN(len(pos))]() + "\n")
			b.WriteString(neg[g.r.IntN(len(neg))]() + "\n")
		}
		add(fmt.Sprintf("pos-%03d.note", id), b.String())
	}
	for i := range 110 {
		var b strings.Builder
		b.WriteString(g.header(200 + i))
		b.WriteString(g.filler(2+g.r.IntN(4), false))
		k := g.r.IntN(len(neg))
		if i < len(neg) {
			k = i
		}
		b.WriteString(neg[k]() + "\n")
		for range g.r.IntN(3) {
			b.WriteString(g.filler(1+g.r.IntN(3), false))
			b.WriteString(neg[g.r.IntN(len(neg))]() + "\n")
		}
		add(fmt.Sprintf("neg-%03d.note", i+1), b.String())
	}
	for i := range 6 {
		var b strings.Builder
		b.WriteString(g.header(400 + i))
		for range 3 {
			b.WriteString(g.filler(3, true))
			if i < 4 {
				b.WriteString(pos[g.r.IntN(len(pos))]() + "\n")
			}
			b.WriteString(neg[g.r.IntN(len(neg))]() + "\n")
		}
		add(fmt.Sprintf("unicode-%02d.note", i+1), b.String())
	}
	for i := range 4 {
		var b strings.Builder
		b.WriteString(g.header(500 + i))
		for range 6 {
			b.WriteString(pos[g.r.IntN(len(pos))]() + "\n")
			b.WriteString(g.filler(2, i%2 == 1))
		}
		add(fmt.Sprintf("multi-%02d.note", i+1), b.String())
	}
	for i := range 3 {
		var b strings.Builder
		b.WriteString(g.header(600 + i))
		for b.Len() < 63<<10 {
			b.WriteString(g.filler(8, i == 2))
			if i != 1 && g.r.IntN(6) == 0 {
				b.WriteString(pos[g.r.IntN(len(pos))]() + "\n")
			}
			b.WriteString(neg[g.r.IntN(len(neg))]() + "\n")
		}
		add(fmt.Sprintf("big-%02d.note", i+1), b.String())
	}
	return out
}
