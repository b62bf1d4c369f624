package scan

import "testing"

// proseSecrets are credentials written into sentences and name-value commands, each in a shape the assignment
// parser once missed; proseNotes use the same words with no secret and must stay quiet.
var proseSecrets = []string{
	"admin password is now " + fake("Qe7t2", ">LmPd%9") + " - change it after login.",
	"the API token for the staging gateway is " + fake("vTq8LmW2", "xR4pZk9NcJ3h") + ", scoped to read-only.",
	"Logged in as root with password " + fake("Fal", "con7#Ridge") + " to fix the permissions.",
	"Memcached auth is now " + fake("Kq>8", "zL%wP2m") + "; updated the sidecar.",
	"creds for the replica: user app_ro, password " + fake("Xw9", "Lp#q2Rt") + ".",
	"Gave the vendor the FTP password (" + fake("m-Q7", "zLk2Wp+x9") + ") over the phone.",
	"The staging passphrase was changed to " + fake("Orbit", "-42-Mesa!") + " yesterday.",
	"db password set to " + fake("Hx7!k", "q2Lm9z") + " until the vault lands",
	"the root password -> " + fake("Tq3#", "vLm8Wz"),
	"set -x DEPLOY_TOKEN " + fake("Lant", "ern65&Mesa"),
	"set -gx API_KEY " + fake("aB3dE5fG7h", "J9kL1mN2pQ"),
	"setx SMTP_PASSWORD " + fake("Gran", "ite#42Vale"),
	"machine api.example.net\n  login ops\n  password " + fake("Quar", "tz57#Dune"),
	"machine git.example.net login ci password " + fake("Quar", "tz57#Dune"),
	"aws configure set aws_secret_access_key " + fake("sa2gxio0E+s91HNSR/9i", "JtC0/wsfZ9kQ0zdLuFi2") + " --profile ci",
	"the passphrase for the GPG key is " + fake("Orbit", "-42-Mesa!") + " for now",
	"password for user deploy: " + fake("Xy7#", "kq2Lm") + " (rotate monthly)",
	"Use password " + fake("Tq3#v", "Lm8Wz") + " for the staging db.",
	"temporary password " + fake("Kp9!x", "Ww2Qe") + ", expires tomorrow",
	"the db password, " + fake("Xy7#", "kq2Lm9") + ", expires Friday",
	"Grafana password `" + fake("Zq8#L", "w3!pT") + "` works again.",
	"the client secret was reset to " + fake("Hx7!k", "q2Lm9z") + " after the incident",
	"variable \"db_password\" {\n  type    = string\n  default = \"" + fake("Basalt", "52#Tarn") + "\"\n}",
	"variable \"api_token\" {\n  sensitive = true\n  default     = \"" + fake("vTq8LmW2", "xR4pZk9NcJ3h") + "\"\n}",
	"echo '" + fake("Hx7!kq", "2Lm9z") + "' | docker login -u ci --password-stdin ghcr.io",
	"echo " + fake("Hx7kq", "2Lm9zQ4") + " | podman login quay.io -u ci --password-stdin",
	"Wi-Fi changed; the new passphrase is " + fake("bEeS", "xv4z+Xs9Jq") + ".",
	"npm config set _authToken " + fake("7c4e9a2b-13f5-4d8e", "-9a61-2b3c4d5e6f70"),
	"the staging admin login is admin / " + fake("q_W*7", "rTkm2vB") + " for the export page",
	"Got into the router UI with the password " + fake("31Kx", "pQ7z!mV"),
	"Jenkins: user \"migrator\", pass " + fake("Rb8kLw2", "QpzV7nTs") + ". Decommission pending.",
	"The VPN pre-shared key they read out on the call was " + fake("Hk2%vq.Lp*8", "dZr.Wm4^xN") + "; the tunnel is up.",
	"it took \"" + fake("wq#Lm7Z", "t#R2kP9v") + "\" as the elastic user's password.",
	"I set the SFTP user's password to " + fake("9Fm%Qz2", "Lp-wXr") + " so the partner could test.",
	"and the passphrase they use is " + fake("kQ7vL2", "mZx9PwRt") + ".",
	"what worked was reporter with " + fake("7Cq_Lm", "2Z_w8Rp") + " as the password.",
	"The secret access key the lambda was reading is " + fake("Rk8wL2mQ/zP7vX3nB+c", "J9tY5hG1fD4sA6eU0iO2") + ".",
	"ansible_become_password: \"" + fake("Wq7Lk2", "mZp9Rt4x") + "<abc>\"",
	"DB_PASS ?= " + fake("Xq7w", "Lk29") + "${SUFFIX}",
	"To get into the old Jenkins use login admin / " + fake("7g?yLK", "0od0x9") + "; VPN only.",
	"Basic auth on staging.example.dev is qa / " + fake("0Z_d^#", "T_8Db~aC") + " for now.",
	"I reset the Redis AUTH on cache-2 to " + fake("spf~z8Qt", "1b8jRNm*A#") + " and restarted the clients.",
	"The API key for the metrics gateway is " + fake("4d6e0a2f9b1c8e7d", "3a5f0b2c9d8e7f6a1b0c") + ", scoped to write.",
	"Jenkins came up fresh, initial admin password was " + fake("8ab3f0c17e2d94b6", "a05c3e91d7f2b864") + "; no real admin yet.",
	"from the chat: user deploy pass " + fake("kukda7", "7+Copli%") + ", works on build-01.",
	"The keystore passphrase for release.jks is " + fake("Cunzaj", "tu-Kuwo-55+") + ", alias upload.",
	"Kafka user svc-ingest has password " + fake("jiPQ@RKx", "VQy9JoLGl%") + ", set this morning.",
	"the wifi pw is " + fake("Lq7#b", "nT2xw") + ", guest network only",
	"Creds (temp): qa-bot " + fake("Xr9$k", "Lm2Pq"),
	"login to the router with " + fake("Zp4!w", "qL8nV") + " and reboot it",
	"I set the pwd for svc_ingest to " + fake("Qn5&z", "Rt7Wm") + " this morning.",
	"Passwort für den Testserver: " + fake("Hv8#q", "Lx2Tm"),
	"Our shared secret for the webhook HMAC is " + fake("3kD9xQ7mVb2Lp8Rt", "5Wn1Zc4Hj6Fy0Gs"),
	"Grafana came up with a generated admin password, it is " + fake("03b3f9a2", "c71d4e5b") + " for now.",
}

var proseNotes = []string{
	"The password is in 1Password under the staging vault.",
	"the token is rotated weekly by the cron job.",
	"The password manager is 1Password, not LastPass.",
	"Logged in with password auth disabled; keys only.",
	"the API token for the billing service is stored in Vault.",
	"The admin password is now managed by the secrets operator.",
	"user replica_ro, password in the team vault.",
	"Ask Dana for the SFTP password (she has it) before the deploy.",
	"The password was changed to the one in the shared vault.",
	"the token for prod is $PROD_TOKEN in CI.",
	"Redis auth is now required on every instance.",
	"The password (at least 12 characters) must contain a symbol.",
	"set -x PATH $HOME/go/bin $PATH",
	"set -x GOFLAGS -mod=mod",
	"aws configure set region eu-west-1 --profile ci",
	"machine api.example.net login ops password $NETRC_PASSWORD",
	"with password rotation enabled the job runs nightly.",
	"The token is now OAuth2-based, see RFC6749 section 4.",
	"Whsec placeholder: STRIPE_WEBHOOK_SECRET=whsec_${WEBHOOK_SECRET}",
	"token = fn(${A}, ${B})",
	"Use password auth for the bastion until the keys are rotated.",
	"The new password policy needs 14 characters.",
	"the db password, however, is still the old one",
	"Enter password twice when prompted.",
	"The password \"reset\" flow sends an email.",
	"Default password length went from 12 to 16.",
	"Try password-less login with WebAuthn.",
	"password is required for the admin UI",
	"The token is valid for 24h.",
	"Set the password to something strong.",
	"API key for Google Maps is restricted to our domains.",
	"The session token for the e2e tests is generated by tests/setup.ts.",
	"password: see 1Password entry 'Prod DB'",
	"token (JWT) expires in 1h",
	"password (hashed with bcrypt) lives in the users table",
	"the API key (from the vendor portal) is scoped to read",
	"token (GITHUB_TOKEN) has contents:write",
	"user admin, password admin on the local compose stack",
	"auth is now handled by Keycloak",
	"auth (OAuth2-PKCE) replaced the implicit flow",
	"Logged in with password manager autofill.",
	"The API token for staging is in the CI variables as STAGING_TOKEN.",
	"Token for the webhook is X-Hub-Signature-256 header, not a query param.",
	"The password is now 20+ chars minimum.",
	"the token, which expires hourly, is refreshed by the sidecar",
	"Redis auth is now TLS-only.",
	"password -> stored as argon2id hash",
	"password set to expire after 90 days",
	"Use password: true in the schema to mask the field.",
	"with token-based auth the CLI works headless",
	"The SSH passphrase (the long one) is in the team vault.",
	"DB password was changed to the value in Vault at 10:00.",
	"access token is now JWT-based (RS256).",
	"Their API key is AIza... (redacted) in the screenshot.",
	"echo \"$CR_PAT\" | docker login ghcr.io -u ci --password-stdin",
	"aws ecr get-login-password | docker login --username AWS --password-stdin 1234.dkr.ecr.eu-west-1.amazonaws.com",
	"variable \"db_password\" {\n  default = \"\"\n}",
	"variable \"db_password\" {\n  type      = string\n  sensitive = true\n}\ndefault = \"none\"",
	"variable \"api_token\" {\n  default = var.fallback_token\n}",
	"The password manager is 1Password, not LastPass.",
	"I set the password to expire in 90 days.",
	"The password they gave us is in the vault.",
	"Use it as the password for now.",
	"the token we got is v2.3.1-beta",
	"the token is 2.0.0-rc.1 compatible",
	"The API key the client uses is FW-233-related.",
	"login is admin / see the vault",
	"creds are in 1Password / Vault",
	"The secret access key the job uses is ${AWS_SECRET_ACCESS_KEY}.",
	"reset the password to the value in SSM",
	"we rotated the token to gh-cli-v2 scope",
	"treat user_id as the primary key",
	"with the token endpoint at /oauth/token",
	"user alice, pass the flag --force",
	"--- PASS: TestLogin, pass 3 of 4",
	"password: <your-password-here>",
	"token: sk_live_${STRIPE_KEY}",
	"PASSWORD_HASHER=argon2id",
	"The commit for the token fix is 996bf7c054569af7a38ee9dd9d8fd1716f93cbab.",
	"The token hash is 996bf7c054569af7a38ee9dd9d8fd1716f93cbab.",
	"user deploy pass through the proxy",
	"use login admin / admin for the local stack",
	"Basic auth on staging is basic / digest",
	"I reset the password on cache-2 to default.",
	"The user svc-ingest has password auth disabled.",
	"The password for release.jks is in the vault.",
	"The API key for api.example.com is rotated weekly.",
	"the login page / signup flow is done",
	"the docs show -----BEGIN RSA PRIVATE KEY----- ... -----END RSA PRIVATE KEY----- as the header format",
	"Rotated the deploy token for GitHubActions after the incident INC-2291.",
	"The token budget for gpt-4o-mini is 128k; we use 32k by default.",
	"Password reset flow now sends an email via SendGrid (template d-8f3a2c1b).",
	"login page redesign landed in PR #4521; the SSO button uses OAuth2PKCE.",
	"the API key for Maps lives in Secret Manager as maps-api-key-prod",
	"The secret rotation job runs at 03:00 UTC on k8s-prod-eu1.",
	"key takeaways: use pgx v5, drop the lib/pq dependency, bump Go to 1.24.2",
	"Keys in the cache are namespaced like tenant:42:session:9f3a.",
	"Bearer token auth is handled by middleware/auth.go; see AuthMiddleware2.",
	"The password hashing moved to argon2id with m=65536,t=3,p=4.",
	"Token refresh failed with HTTP 401 at 2026-03-01T10:22:31Z for user u_19f3.",
	"sudo systemctl restart nginx@blue.service on web-03",
	"the passphrase prompt appears twice on macOS 14.4; filed FB13579246",
	"Secret scanning found no issues in commit 3f9a2c1d8b7e6f5a4c3b2a1908f7e6d5c4b3a291.",
	"the signing key ID is 0x8F3A2C1D and the fingerprint is 4AEE18F83AFDEB23",
	"login: see the runbook at docs/ops/login.md#staging",
	"Key rotation for KMS alias/prod-app happens every 90 days.",
	"I kept the old key name api-key-v1 in the config for compatibility.",
	"SSH key for the bastion: ~/.ssh/id_ed25519_bastion (passphrase in 1Password)",
	"Credentials for staging: ask Priya, she has them in KeePassXC.",
	"The API key field is now masked (shows ****7f3a).",
	"neo4j-admin set-initial-password [PASSWORD] --require-password-change",
	"No static AWS_ACCESS_KEY_ID anywhere; role-to-assume: ${{ secrets.DEPLOY_ROLE_ARN }}",
	"the loader checks the PRIVATE KEY block before parsing with x509.ParsePKCS8PrivateKey",
	"TWILIO_AUTH_TOKEN read from the secret store, messaging service MG30311c3b469dc5e332701ac501219e14.",
	"2026-02-14T00:46:15Z INFO cache miss key=user:42",
	"password reset emails are broken; see docs/auth.md#reset",
	"Cache keys follow user:42:profile and session:{id}:token; TTL is 900s.",
}

func TestProseCredentials(t *testing.T) {
	for i, s := range proseSecrets {
		if fs := Text(s); len(fs) == 0 {
			t.Errorf("missed proseSecrets[%d]", i) // the index, never the secret
		}
	}
	for _, s := range proseNotes {
		if fs := Text(s); len(fs) > 0 {
			t.Errorf("false alarm on %q: %s", s, fs[0].Rule)
		}
	}
}

// TestPassphrase checks the shape of a generated passphrase against the compound words of engineering prose.
func TestPassphrase(t *testing.T) {
	for v, want := range map[string]bool{
		"Meadow-thistle-87": true, "Glacier-Cinder-Meadow-24": true, "river_falcon_66_x": false, "river_falcon_66": true,
		"Glacier.Cinder.24": true, "Harbor+Pepper+71": true, "quartz-copper-zephyr-9103": true,
		"OAuth2-based": false, "read-only-v2": false, "TLS-1-3": false, "db-replica-2": false, "Corp-Guest-3F": false,
		"tf-state-payments": false, "AES-256-encrypted": false, "blue-green-deploy": false, "svc_deploy": false,
		"Meadow-thistle_87": false, "2024-05-01": false,
	} {
		if got := passphrase(v); got != want {
			t.Errorf("passphrase(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestDottedPassphrase checks the shape of a generated passphrase joined by dots against qualified names in code.
func TestDottedPassphrase(t *testing.T) {
	for v, want := range map[string]bool{
		"Violet.Pebble4491": true, "Harbor.Crane.52": true, "Amber.Quartz.Tide77": true,
		"Violet.Pebble": false, "violet.pebble4491": false, "x509.ParsePKCS8PrivateKey": false, "settings.DB_PASSWORD2": false,
		"System.Security.SecureString2": false, "Config.V2": false, "Os.Getenv12": false,
	} {
		if got := dottedPassphrase(v); got != want {
			t.Errorf("dottedPassphrase(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestOutsideCJK checks that a value is cut out of the Chinese, Japanese or Korean text around it.
func TestOutsideCJK(t *testing.T) {
	for in, want := range map[string]string{
		"：Fd7Gkq2LmZx": "Fd7Gkq2LmZx", "是「Fd7Gkq2LmZx」。": "Fd7Gkq2LmZx", "Xq7mL2kp9Zt입니다": "Xq7mL2kp9Zt",
		"Fd7Gkq2LmZx": "Fd7Gkq2LmZx", "Müller2024!": "Müller2024!", "见1Password": "1Password",
	} {
		i, j := outsideCJK(in, 0, len(in))
		if got := in[i:j]; got != want {
			t.Errorf("outsideCJK(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPINAndPUK checks that a PUK written beside its PIN is found with it, and that a note's heading ("Status:")
// does not make a PIN a code that reports a status.
func TestPINAndPUK(t *testing.T) {
	for _, c := range []struct {
		note string
		want int
	}{
		{"Handoff: the YubiKey PIV PIN is " + fake("2681", "7749") + " and the PUK is " + fake("6710", "4823") + "; the key is in the drawer.", 2},
		{"Status: the HSM admin PIN is " + fake("2056", "3766") + " and the SO PIN is unchanged.", 1},
		{"The PIN is " + fake("2681", "7749") + "; the PUK is printed on the card.", 1},
		{"Status: alarm code 9157 is the vendor's error code for a low battery.", 0},
		{"Status code 4417 from the keypad means the PIN was wrong.", 0},
	} {
		if got := len(Text(c.note)); got != c.want {
			t.Errorf("%d findings in %q, want %d", got, redactDigits(c.note), c.want)
		}
	}
}

// redactDigits hides the digits of a note, so a test failure never shows a PIN.
func redactDigits(s string) string {
	b := []byte(s)
	for i, c := range b {
		if '0' <= c && c <= '9' {
			b[i] = '#'
		}
	}
	return string(b)
}
