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
	"npm config set _authToken " + fake("7c4e9a2b-13f5-4d8e", "-9a61-2b3c4d5e6f70"),
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
	"echo \"$CR_PAT\" | docker login ghcr.io -u ci --password-stdin",
	"aws ecr get-login-password | docker login --username AWS --password-stdin 1234.dkr.ecr.eu-west-1.amazonaws.com",
	"variable \"db_password\" {\n  default = \"\"\n}",
	"variable \"db_password\" {\n  type      = string\n  sensitive = true\n}\ndefault = \"none\"",
	"variable \"api_token\" {\n  default = var.fallback_token\n}",
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
