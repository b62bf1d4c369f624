package scan

import (
	"regexp"
	"strings"
	"sync"
)

// Instructions aimed at the agent. A note is read back into a future agent's context, so text in it that tells
// that reader to drop its instructions, run a piped download, send files or credentials away, or change its own
// rules is memory poisoning. The rules below flag such text only where it is addressed to the reader as a
// command (at the start of a clause, or after "please", "always", "you must" and the like), not where a note
// reports what someone did ("ran curl … | sh"), forbids it ("never pipe installers into sh") or quotes it as
// test data ("the fixture tells the model to ignore prior context"). Every rule is a fixed expression with a
// look-back of one line; nothing is learned or scored.

// sensitivePath matches files that hold credentials: SSH keys, cloud and registry credentials, .env files.
const sensitivePath = `(?:(?:~|\$HOME|/root|/home/[a-z0-9_-]+)/\.(?:ssh/[\w.-]+|aws/(?:credentials|config)|netrc|git-credentials|npmrc|pypirc|docker/config\.json|kube/config|config/gcloud[\w./-]*)|\.env(?:\.[\w-]+)?|/etc/(?:passwd|shadow)|id_(?:rsa|ed25519|ecdsa|dsa)|credentials\.json)`

// secretsPhrase matches "all the API keys", "every secret", "the repository secrets".
const secretsPhrase = `(?:(?:all|every(?:\s+one)?|any)\s+(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+)?(?:api\s+keys|keys|secrets|credentials|tokens|passwords|environment\s+variables|env\s+vars|ssh\s+keys|private\s+keys)|(?:the\s+)?(?:repository|repo)\s+secrets)`

// instructionSources are the expressions of the instruction rules by name; each compiles on first use.
var instructionSources = map[string]string{
	"override": `^(?i)(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|every|of|the|your|my|these|those)\s+){0,3}` +
		`(?:(?:previous|prior|earlier|above|preceding|former|original|initial|old)\s+(?:instructions?|prompts?|rules|guidelines|directions|directives|context|messages|commands|system\s+prompt)` +
		`|(?:instructions?|system\s+prompt|guardrails|restrictions|safety\s+(?:rules|guidelines|checks|policies))\b` +
		`|(?:everything|what)\s+(?:(?:is\s+)?above|before|you\s+(?:were|have\s+been|'ve\s+been)\s+told))`,
	"persona": `^(?i)(?:from\s+now\s+on,?\s+you\b|you\s+are\s+now\s+(?:dan\b|in\s+(?:developer|god|jailbreak|unrestricted|admin|debug)\s+mode|an?\s+(?:unrestricted|unfiltered|uncensored)|jailbroken|free\s+(?:of|from)))`,
	"pipe": `^(?i)(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]{0,300}\|\s*(?:sudo\s+(?:-\S+\s+)*)?` +
		`(?:(?:ba|z|k|da|fi|tc)?sh|python[0-9.]*|perl|ruby|node|iex|invoke-expression|powershell|pwsh)\b`,
	"subst":  `(?i)(?:(?:ba|z|k)?sh|source|\.)\s+<\($|(?:ba|z|k)?sh\s+-c\s+["']?\$\($`,
	"upload": `^(?i)curl\b[^\n]{0,200}?\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file)[\s=]*['"]?(?:[\w-]+=)?@?` + sensitivePath,
	"cat":    `^(?i)cat\s+` + sensitivePath + `[^\n|]{0,60}\|\s*(?:curl|nc|ncat|netcat|socat|wget|telnet)\b`,
	"send": `^(?i)(?:(?:send|upload|post|copy|forward|e-?mail|paste|leak|transmit|share)\b[^\n.;]{0,80}?(?:` + sensitivePath + `|` + secretsPhrase + `)|exfiltrate\b)` +
		`[^\n;]{0,80}?\bto\s+(?:the\s+webhook\s+)?(?:https?://|ftp://|[\w.+-]+@[\w-]+\.[\w.]+|\d{1,3}(?:\.\d{1,3}){3}|(?:the\s+|a\s+)?(?:webhook|pastebin|gist|discord|telegram)|[a-z0-9-]+(?:\.[a-z0-9-]+)+)`,
	"directive": `(?i)(?:^|[^a-z'])(?:run|execute|exec|paste|invoke|you\s+(?:must|should|need\s+to|have\s+to)|always|make\s+sure\s+to|be\s+sure\s+to|remember\s+to|before\s+(?:continuing|proceeding|you\s+(?:start|continue|answer|respond)))(?:[^a-z]|$)`,
	"negated":   `(?i)(?:^|[^a-z])(?:never|don't|do\s+not|avoid|stop|no\s+longer|instead\s+of)(?:[^a-z]|$)`,
	"untold":    `(?i)(?:do\s+not|don't|never)\s+(?:tell|inform|alert|notify|warn|let|mention\s+(?:this|it|anything|these\s+\w+)\s+to)\s*$`,
	"defeat":    `(?i)(?:disable|turn\s+off|switch\s+off|bypass|skip|ignore|override|circumvent|remove|deactivate)\s+(?:the\s+|your\s+|all\s+|any\s+)?(?:secret\s+)?$`,
	"rewrite":   `(?i)(?:update|change|modify|rewrite|replace|edit|alter|override|ignore|bypass|disable|forget)\s+$`,
	"remember":  `(?i)(?:add|append|write|save|put|insert|store)\s+(?:this|the\s+following|these\s+\w+|it)\s+(?:to|into|in)\s+$`,
}

var instructionRegexps = func() map[string]func() *regexp.Regexp {
	out := make(map[string]func() *regexp.Regexp, len(instructionSources))
	for k, v := range instructionSources {
		out[k] = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(v) })
	}
	return out
}()

// expr returns the compiled instruction expression of that name.
func expr(name string) *regexp.Regexp { return instructionRegexps[name]() }

// clauseStart returns the start of the clause holding text[at]: after the last sentence or clause punctuation
// on its line before at, looking back at most 160 bytes.
func clauseStart(text string, at int) int {
	ls := lineStart(text, at, 160)
	for i := at - 1; i >= ls; i-- {
		switch text[i] {
		case '.', '!', '?', ';', ':', '(', '"', '`', '>', '*', '#', '[':
			// A dot inside a word (setup.sh, e.g.) does not end a clause.
			if text[i] == '.' && i+1 < at && text[i+1] != ' ' {
				continue
			}
			return i + 1
		}
	}
	return ls
}

// leadWords may stand before a command at the start of a clause: "Please ignore …", "Now run …".
var leadWords = map[string]bool{
	"please": true, "now": true, "then": true, "and": true, "also": true, "just": true, "first": true, "first,": true,
	"always": true, "immediately": true, "quietly": true, "silently": true, "simply": true, "must": true, "should": true,
	"shall": true, "you": true, "next": true, "important": true, "note": true, "instead": true, "so": true,
}

// imperative reports whether the word at text[at] opens its clause as a command: nothing but lead words, list
// markers, quotes or addressing ("agent,") stands between the clause start and it.
func imperative(text string, at int) bool {
	before := strings.TrimSpace(text[clauseStart(text, at):at])
	// A dash between words ends a clause too: "NEW TASK — ignore …".
	for _, dash := range []string{" — ", " – ", " - ", " -- "} {
		if k := strings.LastIndex(before+" ", dash); k >= 0 {
			before = strings.TrimSpace(before[k+len(dash)-1:])
		}
	}
	before = strings.TrimLeft(before, "-+*>#`'\" \t0123456789)")
	if before == "" {
		return true
	}
	ws := strings.Fields(strings.ToLower(before))
	// An address or a condition before a comma: "Hey agent, …", "If it fails, …".
	if strings.HasSuffix(before, ",") && len(ws) <= 3 {
		return true
	}
	if len(ws) > 4 {
		return false
	}
	for _, w := range ws {
		if !leadWords[strings.Trim(w, ",")] {
			return false
		}
	}
	return true
}

// objectEnds reports whether the object keyword ending at text[end] ends its noun phrase: "disable the secret
// scanner and …", but not "skip the guardrails discussion".
func objectEnds(text string, end int) bool {
	i := skipBlanks(text, end)
	if i >= len(text) || !('a' <= text[i]|0x20 && text[i]|0x20 <= 'z') {
		return true
	}
	j := i
	for j < len(text) && 'a' <= text[j]|0x20 && text[j]|0x20 <= 'z' {
		j++
	}
	return followWords[asciiLower(text[i:j])]
}

// followWords may follow the object of an order without extending it.
var followWords = map[string]bool{
	"and": true, "for": true, "on": true, "in": true, "from": true, "so": true, "when": true, "without": true,
	"to": true, "until": true, "then": true, "now": true, "entirely": true, "completely": true, "permanently": true,
	"here": true, "of": true, "by": true, "with": true, "at": true, "as": true, "if": true, "before": true,
	"this": true, "that": true, "again": true, "too": true, "also": true, "forever": true, "while": true,
	// after "safety": the checks it names
	"checks": true, "check": true, "filters": true, "filter": true, "rules": true, "guidelines": true, "policies": true,
}

// instructionWindow is the rest of the line from at, at most ahead bytes.
func instructionWindow(text string, at int) string { return text[at:lineEnd(text, at, ahead)] }

func findOverride(text string, at, n int) ([]span, int) {
	if at > 0 && isWordByte(text[at-1]) || !imperative(text, at) {
		return nil, 0
	}
	m := expr("override").FindStringIndex(instructionWindow(text, at))
	if m == nil {
		return nil, 0
	}
	return []span{{at, at + m[1]}}, 0
}

func findPersona(text string, at, n int) ([]span, int) {
	if at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	m := expr("persona").FindStringIndex(instructionWindow(text, at))
	if m == nil || expr("negated").MatchString(text[clauseStart(text, at):at]) {
		return nil, 0
	}
	return []span{{at, at + m[1]}}, 0
}

// directed reports whether the line before a command at text[at] tells the reader to run it, without a
// negation: "Before continuing, run …", "You must run …", but not "Ran …" or "never run …".
func directed(text string, at int) bool {
	prefix := text[lineStart(text, at, 160):at]
	return expr("directive").MatchString(prefix) && !expr("negated").MatchString(prefix)
}

func findPipedShell(text string, at, n int) ([]span, int) {
	if at > 0 && (isWordByte(text[at-1]) || text[at-1] == '-') {
		return nil, 0
	}
	w := instructionWindow(text, at)
	if strings.IndexByte(w, '|') < 0 && (at < 2 || text[at-1] != '(' && text[at-2] != '(') {
		return nil, 0 // neither piped nor substituted
	}
	m := expr("pipe").FindStringIndex(w)
	start := at
	if m == nil {
		// bash <(curl …) and sh -c "$(curl …)": the download is the argument of a shell.
		ls := lineStart(text, at, 32)
		pre := text[ls:at]
		k := expr("subst").FindStringIndex(pre)
		if k == nil || !strings.Contains(w, "://") {
			return nil, 0
		}
		start = ls + k[0]
		m = []int{0, len(w)}
	}
	if !directed(text, start) {
		return nil, 0
	}
	return []span{{start, at + m[1]}}, 0
}

func findExfiltration(text string, at, n int) ([]span, int) {
	if at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	w := instructionWindow(text, at)
	switch lowerByte(text[at]) {
	case 'c':
		if strings.HasPrefix(strings.ToLower(w), "curl") {
			if !strings.Contains(w, "@") && !strings.Contains(w, "-T") && !strings.Contains(w, "--upload-file") {
				return nil, 0
			}
			if m := expr("upload").FindStringIndex(w); m != nil {
				return []span{{at, at + m[1]}}, 0
			}
			return nil, 0
		}
		if strings.HasPrefix(strings.ToLower(w), "cat ") {
			if strings.IndexByte(w, '|') < 0 {
				return nil, 0
			}
			if m := expr("cat").FindStringIndex(w); m != nil {
				return []span{{at, at + m[1]}}, 0
			}
			return nil, 0
		}
	}
	if !strings.Contains(w, " to ") || !imperative(text, at) {
		return nil, 0
	}
	if m := expr("send").FindStringIndex(w); m != nil {
		return []span{{at, at + m[1]}}, 0
	}
	return nil, 0
}

// findRuleChange flags text that tells the reader to change its own rules, memory or prompt, to hide what it
// does from the people it works for, or to turn off its safety checks. The keyword is the object; the verb is
// looked for just before it.
func findRuleChange(text string, at, n int) ([]span, int) {
	if at > 0 && isWordByte(text[at-1]) {
		return nil, 0
	}
	cs := clauseStart(text, at)
	before := text[cs:at]
	kw := strings.ToLower(text[at : at+n])
	var re *regexp.Regexp
	switch {
	case strings.HasPrefix(kw, "the "):
		re = expr("untold")
	case strings.HasSuffix(kw, ".md") || strings.HasPrefix(kw, "."):
		re = expr("remember")
	case kw == "scanner" || kw == "scanning" || kw == "safety" || kw == "approval step" || kw == "guardrails" && !strings.HasSuffix(strings.ToLower(before), "your "):
		re = expr("defeat")
	default:
		// The reader's own prompt, instructions, rules or memory: "your …" after a verb that changes it.
		if !strings.HasPrefix(kw, "your ") {
			trimmed := strings.TrimRight(before, " \t")
			for _, adj := range []string{"long-term", "persistent", "permanent", "own", "core"} {
				if len(trimmed) > len(adj) && strings.EqualFold(trimmed[len(trimmed)-len(adj):], adj) {
					trimmed = strings.TrimRight(trimmed[:len(trimmed)-len(adj)], " \t")
				}
			}
			if len(trimmed) < 4 || !strings.EqualFold(trimmed[len(trimmed)-4:], "your") {
				return nil, 0
			}
			before = trimmed[:len(trimmed)-4]
		}
		if m := expr("remember").FindStringIndex(before); m != nil && imperative(text, cs+m[0]) {
			return []span{{cs + m[0], at + n}}, 0
		}
		re = expr("rewrite")
	}
	m := re.FindStringIndex(before)
	if m == nil || re == expr("defeat") && !objectEnds(text, at+n) {
		return nil, 0
	}
	// The verb must open its clause; a negation is part of the "untold" expression itself.
	v := cs + m[0]
	for v < at && (text[v] == ' ' || text[v] == '\t') {
		v++
	}
	if !imperative(text, v) {
		return nil, 0
	}
	return []span{{v, at + n}}, 0
}
