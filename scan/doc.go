// Package scan finds suspected secrets in note text before it is stored: cloud keys, auth headers, private
// keys, named credentials, vendor tokens and high-entropy key material.
//
// [Text] reports each suspected secret as a [Finding] with its byte span, position and a redacted preview; it
// never returns the secret itself. [Rules] lists the rules as readable data with the examples the test suite
// runs against them.
//
// # How a scan runs
//
// Every rule owns keywords (an AWS prefix, "bearer", "password", "://"). One Aho–Corasick pass over the text
// finds all keyword occurrences; a rule's expression or matcher then runs only on the lines around its own
// hits. Expressions are Go RE2 (linear time) and hand-written matchers stop after a fixed distance, so a scan
// is linear in the size of the text whatever its shape. Rules compile on the first call, never at start-up.
//
// # Policy for ambiguous cases
//
//   - A credential name alone is not a finding: "rotate the password tomorrow" talks about a password. A finding
//     needs a name, a separator (=, :, :=, =>, a flag's space, or a prose "is") and a literal value.
//   - Placeholders and indirection are not secrets: <…>, ${VAR}, $VAR, %VAR%, {{ … }}, ****, xxx, "…", "...",
//     your-token-here, changeme, empty values, function calls and member accesses in code (os.getenv("X"),
//     settings.TOKEN), secret-manager and file references (vault:, op://, arn:, /run/secrets/…).
//   - A value assigned to a credential name must be at least 6 characters and not a plain word, identifier,
//     number (3600s, 0x000C), path or URL: "password: required", "token: string" and "pin: 1234" are
//     configuration, not secrets. Values with punctuation (Summer2024!, a#b, +x/) are values; values with
//     whitespace are sentences. Unquoted code is not a literal: Password: cfg.Password, token = get_token(),
//     Token: []string{…}, Password: password16, (an identifier before a comma). In prose ("the password is …")
//     the bar is higher: at least 8 characters from three of lower case, upper case, digits and symbols.
//   - A bare "pass" or "pwd" is not a credential name: "--- PASS: TestX" is test output and PWD is a directory;
//     db_pass, SMTP_PASS and adminPwd are credential names.
//   - Names that describe a secret without holding it are not credentials: password_file, token_ttl,
//     secret_name, secret_arn, password_hash, api_key_id. Names that count model tokens are not credentials:
//     max_tokens, tokenizer, prompt_token_count.
//   - Key-material names (SECRET_KEY, signing_key, HMAC keys, JWT and session secrets, salts) are judged by the
//     value's entropy, not by the name: "SECRET_KEY = 'dev'" is not flagged, 50 random characters are. An
//     unquoted camelCase identifier (testRSA2048PrivateKey) changes character class too rarely to be random.
//   - Private keys written as hex or base64 values of key-material names are key material and are flagged,
//     also in test fixtures: the scanner cannot tell a test key from a real one.
//   - Public material is never flagged: public keys, certificates, CSRs, SSH public keys, Stripe publishable
//     keys. Hashes, git SHAs, UUIDs, ARNs and digests are identifiers, not secrets.
//   - The AWS documented example keys (…EXAMPLE, …EXAMPLEKEY) and masked keys (sk-…abcd, ghp_****) are not flagged.
//   - A private key is flagged from its BEGIN line when at least a line of key body follows, also when the END
//     line is missing because the note was cut; a BEGIN line quoted in prose is not a key.
//   - When two rules report overlapping spans, the more specific category wins (vendor-token, aws, private-key,
//     auth-header, credential, entropy): a JWT in a Bearer header is reported once, as a JWT.
package scan
