// Package scan finds suspected secrets in note text before it is stored: cloud keys, auth headers, private
// keys, named credentials, vendor tokens and high-entropy key material; and instructions aimed at the agent
// that will read the note back ([CategoryInstruction]).
//
// [Text] reports each suspected secret or instruction as a [Finding] with its byte span, position and a redacted
// preview; it never returns the matched text itself. [Finding.Concern] says which of the two a finding is. [Rules] lists the rules as readable data with the examples the test suite
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
//   - Placeholders and indirection are not secrets: <word> and <some words>, ${VAR}, ${{ … }}, $(command), $VAR,
//     %VAR%, {{ … }}, [PASSWORD], ****, xxx, "…", "...", your-token-here, changeme, empty values, function calls and
//     member accesses in code (os.getenv("X"), settings.TOKEN), secret-manager and file references (vault:, op://,
//     arn:, /run/secrets/…). A <, > or ${ without a template's shape is a character of the value: K9<m2>!x and
//     ab${7q are passwords.
//   - Filler is not a secret: six equal characters in a row or eight ascending ones (ghp_xxxx…, AIzaaaa…,
//     glc_1111…, abcdefgh, 12345678) make a token or password a placeholder.
//   - A value that begins with a vendor's token prefix (ghp_, xoxb-, sk_live_, AIza…) is judged by that vendor's
//     rule alone: a malformed or placeholder token under a credential name is not reported as a password.
//   - Published example keys are not secrets: AWS's …EXAMPLE keys and the API keys the Firebase SDKs publish.
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
//   - Public material is never flagged: public keys, certificates, CSRs, SSH public keys, age recipients (age1…),
//     Stripe publishable keys. Hashes, git SHAs, ARNs and digests are identifiers, not secrets. A UUID is an
//     identifier under an ID name (client_id, credentialsId, kms_key_id) and a credential under a credential name
//     (HEROKU_API_KEY, npm _authToken, api_key), where vendors use UUIDs as keys.
//   - Library coordinates are identifiers: group:artifact[:packaging]:version and artifact-1.2.3
//     (io.jsonwebtoken:jjwt-api:0.11.5), also under names that contain "token".
//   - Assignments are read in every syntax notes paste: =, :, :=, =>, Make's ?= += ::= :::=, PHP's .=, typed
//     declarations (var x string = …, val x: String = …), calls that take a name and a value
//     (System.setProperty("X_TOKEN", "…"), os.Setenv, ["--password", "…"]), CSV rows, XML elements (also with
//     the value on its own line) and key="…" value="…" attributes, JSON and JSON escaped inside a string, and
//     -u/--user user:password as the shell reads it.
//   - Fixed-shape tokens end at a boundary: AIza… followed by more key characters, or preceded by a letter, is
//     part of a longer string, not a Google key.
//   - A JWT is three base64url segments, or two with an empty signature (alg none) or none at all, whose header
//     decodes to a JWT header; an unsigned token's payload must also decode to a JSON object.
//   - The AWS documented example keys (…EXAMPLE, …EXAMPLEKEY) and masked keys (sk-…abcd, ghp_****) are not flagged.
//   - A private key is flagged from its BEGIN line when at least a line of key body follows, also when the END
//     line is missing because the note was cut; a BEGIN line quoted in prose is not a key.
//   - A private key escaped once (\n) or twice (\\n) inside JSON is a key.
//   - When two rules report overlapping spans, the more specific category wins (vendor-token, aws, private-key,
//     auth-header, credential, entropy, instruction): a JWT in a Bearer header is reported once, as a JWT, and a
//     secret inside an instruction is reported as the secret.
//
// # Instructions aimed at the agent
//
// A note is read back into a future agent's context, so text in it that gives that agent orders is memory
// poisoning. Five deterministic rules flag it, each a fixed expression with a look-back of at most one line:
//
//   - instruction-override: ignore, disregard or forget the previous instructions, prompt, rules or guidelines,
//     the system prompt, or everything above;
//   - instruction-persona: "from now on, you …", "you are now DAN / in developer mode / unrestricted";
//   - instruction-piped-shell: a download piped into a shell or interpreter (curl … | sh, iwr … | iex,
//     bash <(curl …), sh -c "$(curl …)") on a line that tells the reader to run it;
//   - instruction-exfiltrate: credential files (~/.ssh, ~/.aws/credentials, .env, /etc/passwd) uploaded with curl
//     or piped into curl or nc, or credential files or "all the secrets" sent, posted, emailed or copied to a URL,
//     an address or a webhook;
//   - instruction-rules: change, update or rewrite your prompt, instructions, rules or memory; add this to your
//     memory or AGENTS.md; don't tell the user; disable the secret scanner, the safety checks or the approval
//     step.
//
// An order counts only where it is addressed to the reader: at the start of a clause, after nothing but
// "please", "now", "always", "you must", an addressing phrase ("Note to the next agent:") or list and quote
// marks, and for piped downloads on a line with a directive (run, execute, you must, always, before
// continuing). Reports of what was done ("ran curl … | sh"), prohibitions ("never pipe installers into sh"),
// reported speech ("the fixture tells the model to ignore prior context") and other senses of the words
// (ignore a flaky test, override a timeout, upload artifacts to a bucket, change the system prompt file of an
// app) are not instructions. Like a secret, an instruction finding shows only its rule, position and a preview
// of at most four runes.
package scan
