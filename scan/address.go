package scan

import (
	"regexp"
	"strings"
	"sync"
)

// Demands addressed to the agent by name. A note that speaks to its future reader as an AI ("Claude, …",
// "Model: …", "To any LLM processing this text: …", "If you are an AI reading this, …", "Whoever reads this
// next: …", "Remember for all future sessions: …") and then demands something from a family of harmful acts is
// an instruction, whatever verb it uses. Both halves are required: an address alone is how notes label a
// model ("Model: gpt-4o") or thank a tool, and the acts alone are ordinary engineering ("merge every PR once
// CI passes"). The families are closed lists, not scores:
//   - approve: approve or merge everything, reply only "LGTM", claim a pre-approval, act without review;
//   - send: send, mail, upload, post, copy, encode or pipe credentials, key files or the environment anywhere;
//   - hide: hide or leave things out from the human or out of a summary, lie that tests pass;
//   - memory: write the note into the reader's memory or apply it in every future conversation;
//   - control: stop asking, turn off the scanner or confirmation prompts, treat warnings as false alarms,
//     drop the reader's earlier instructions, delete audit logs.
//
// A demand negated before its verb ("Claude, never send the keys anywhere") is a prohibition, not an order,
// except where the family is itself a silence ("do not tell the reviewer").

// aiNouns may address the agent; the keyword list of the rule is these and the address openers below.
var aiNouns = map[string]bool{
	"assistant": true, "agent": true, "ai": true, "model": true, "llm": true, "claude": true, "codex": true,
	"copilot": true, "gpt": true, "chatgpt": true, "gemini": true, "bot": true, "chatbot": true, "cursor": true, "devin": true,
	"aider": true, "cline": true, "windsurf": true, "grok": true, "deepseek": true,
}

// addressTail may follow an AI noun inside the address: "AI agent", "AI reader", "Codex or Claude".
var addressTail = map[string]bool{"reader": true, "assistant": true, "agent": true, "model": true, "instance": true,
	"instructions": true, "note": true, "notice": true, "task": true, "reminder": true, "directive": true, "session": true}

// notAddressed, after an AI noun, make it a qualifier: "the assistant team", "the agent pool", "model config".
var notAddressed = map[string]bool{"team": true, "teams": true, "group": true, "owners": true, "maintainers": true, "folks": true,
	"people": true, "crew": true, "squad": true, "channel": true, "devs": true, "developers": true, "engineers": true,
	"reviewers": true, "feature": true, "features": true, "flag": true, "project": true, "repo": true, "service": true,
	"process": true, "pool": true, "logs": true, "config": true, "settings": true, "vendor": true, "vendors": true}

// addressedKeywords are the keywords of [findAddressed].
var addressedKeywords = []string{"assistant", "agent", "ai", "model", "llm", "claude", "codex", "copilot", "gpt", "chatgpt",
	"gemini", "bot", "chatbot", "cursor", "devin", "aider", "cline", "windsurf", "grok", "deepseek", "whoever", "future session", "future conversation", "future chat", "every session", "all sessions", "future you", "future self", "future me"}

// gap is a character inside a sentence: a dot only inside a word (CLAUDE.md, secrets/.env).
const gap = `(?:[^.;\n]|\.\S)`

// secretObject is what the send family sends: credentials by name, every key, the value of a token variable.
// "tokens" alone is not one: to a model it is a unit of text.
const secretObject = `\b(?:(?:api|secret|access|private|signing|deploy|ssh|aws|gpg)\s+keys?|(?:access|auth|api|github|gitlab|npm|bearer|session|refresh|deploy)\s+tokens?` +
	`|credentials|passwords?|secrets|(?:every|all(?:\s+the)?|any)\s+(?:\w+\s+)?(?:secrets?|passwords?|credentials?|keys?)|(?:the|all\s+(?:the\s+)?|every)\s+keys?|printenv|environment\s+variables|env\s+vars)\b` +
	`|(?:\b(?:value|contents)\s+of\s+(?:the\s+)?\$?|\$)(?-i:[A-Z][A-Z0-9]*_(?:TOKEN|KEY|SECRET|PASSWORD))\b`

const humanNoun = `(?:the\s+|your\s+)(?:user|human|reviewer|operator|owner|maintainer|supervisor|lead)s?\b`

var addressSources = map[string]string{
	// toward: the words before an AI noun that address it: "Note to the assistant", "for the next AI
	// session", "If you are an AI".
	"toward": `(?i)(?:(?:^|[^a-z])(?:to|for)\s+(?:(?:the|any|every|each|all|whichever|whatever|an?|future|next|later|other|subsequent|new|incoming|ai)\s+){0,3}(?:[a-z-]+\s+)?|(?:^|[^a-z])if\s+you(?:\s+are|'re)\s+(?:an?\s+)?(?:ai\s+|language\s+|coding\s+)?)$`,
	"opener": `(?i)^(?:hey|hi|hello|greetings|dear|ok|okay|yo|attention|oh|and|so|now|please|listen|psst|look|next|future|coding|later|incoming|resuming)$`,
	// reading: an address by what the reader does: "Any AI model reading this must …".
	// or as a condition on it: "If a future assistant reads this — …"
	"every":   `(?i)(?:^|[^a-z])(?:any|every|each|all|whichever|if\s+(?:an?|the|any|some))\s+(?:[a-z-]+\s+)?$`,
	"reading": `(?i)^s?\s+(?:that\s+|who\s+|which\s+)?(?:reads?|reading|processes|processing|resum\w+|sees|seeing|loads?|loading|opens|finds|ingests|ingesting)\s+(?:this|these)\b`,
	"whoever": `(?i)^whoever\s+(?:reads|picks|opens|resumes|sees|finds|gets|handles|takes|continues)\b[^:,\n]{0,50}[:,]`,
	// persist: "Remember for all future sessions:", "Memory update for future sessions (please persist it):".
	"persist":  `(?i)(?:remember|remind\w*|memory|note|rule|persist|keep|instruction|standing|for)\b`,
	"reported": `(?i)\b(?:asked|wants?|wanted|said|says|told|agreed|decided|suggested|requested|reported|noted|mentioned)\b`,
	"negated":  `(?i)(?:^|[^a-z])(?:never|don't|do\s+not|dont|avoid|no\s+need\s+to|not\s+to|refuse\s+to)\s+(?:\w+\s+){0,2}$`,
}

// demandForms are the demands that make an address to the reader an instruction, by family, each with the
// words it may begin with: a word as findDemand reads one (letters, digits, ', - and _), lower-cased, and "--"
// for every word that begins with two dashes. TestDemandForms checks each list against its expression.
var demandForms = []demandForm{
	// approve
	{"accept apply approve lgtm merge sign", `\b(?:approve|accept|merge|apply|sign\s+off\s+on|lgtm)\s+(?:every|all|each|any)\s+(?:of\s+)?(?:the\s+|these\s+)?(?:pending|flagged|quarantined|queued)\b`},
	// Not deploy: "deploy the staging build without waiting for the nightly job" is how people ask for a deploy.
	{"accept apply approve delete force-push merge push", `\b(?:approve|accept|merge|apply|push|delete|force-push)\b` + gap + `{0,40}?\bwithout\s+(?:waiting\b|(?:any\s+)?(?:human\s+)?(?:review|reviewing|approval|asking|confirmation|(?:showing|reading)\s+(?:it|them|this|the)|telling\s+(?:anyone|the)|checking\s+with)(?:[.,;:!)]|\s+(?:from|by|of|first|and|or|to|in|on)\b|\s*$))`},
	{"execute run", `\b(?:run|execute)\s+(?:any|every|all)\b` + gap + `{0,30}?\bwithout\s+(?:any\s+)?(?:human\s+)?(?:review|reviewing|approval|asking|confirmation|(?:showing|reading)\s+(?:it|them|this|the)|telling\s+(?:anyone|the)|checking\s+with)(?:[.,;:!)]|\s+(?:from|by|of|first|and|or|to|in|on)\b|\s*$)`},
	{"answer reply respond", `\b(?:reply|respond|answer)\s+(?:only|just)\s+(?:with\s+)?(?:['"‘“]|(?:lgtm|approved|yes|ok)\b)` + gap + `{0,40}`},
	{"already approved pre-approved preapproved", `\b(?:pre-?approved|already\s+approved|approved\s+in\s+advance)\b` + gap + `{0,40}?\b(?:push\w*|merg\w*|deploy\w*|delet\w*|force\w*|skip\w*|bypass\w*|without|all|every|any|everything|anything)\b`},
	// any act done without asking the people in the loop, or silently
	{"apply approve commit delete deploy execute install merge push remove run", `\b(?:run|execute|install|remove|commit|push|merge|apply|approve|deploy|delete)\b` + gap + `{0,80}?\bwithout\s+(?:asking|checking\s+with|telling|confirming\s+with|consulting|notifying)(?:\s+(?:anyone|anybody|` + humanNoun + `|them|me|us|first)\b|[.,;:!)]|\s*$)`},
	{"apply approve commit delete deploy do merge push run", `\b(?:apply|approve|merge|push|deploy|run|do|commit|delete)\s+(?:everything|it\s+all|them\s+all|all(?:\s+of\s+(?:it|them))?)\s+(?:silently|quietly)\b`},
	{"create make open post publish put", `\b(?:create|make|open|post|publish|put)\b` + gap + `{0,30}?\bpublic\s+(?:gist|paste(?:bin)?)\b` + gap + `{0,40}?\b(?:config|secrets?|credentials|keys|tokens|env|prod|production)\b`},
	{"mark", `\bmark\s+(?:this|it|them|everything|all|the\s+\w+)(?:\s+\w+)?\s+as\s+(?:approved|reviewed|safe|passing|clean|verified)\b`},
	{"add append change echo edit modify write", `\b(?:edit|add|append|write|modify|change|echo)\b` + gap + `{0,50}?\b(?:sudoers|nopasswd)\b`},
	{"in", `\bin\s+your\s+(?:summary|report|reply|response|handoff|changelog|pr\s+description)\s*,?\s+(?:leave\s+out|omit|skip|hide|(?:do\s+not|don't|never)\s+mention)\b`},
	{"bypass disable ignore skip", `\b(?:bypass|skip|disable|ignore)\s+(?:the\s+|all\s+)?(?:required\s+(?:status\s+)?checks|status\s+checks|required\s+reviews?|code\s+review)\b`},
	{"you", `\byou\s+(?:have|are\s+given|now\s+have|have\s+been\s+given)\s+(?:full\s+|explicit\s+)?(?:permission|authori[sz]ation|approval|clearance)\s+to\b|\byou\s+are\s+(?:now\s+)?authori[sz]ed\s+to\b`},
	{"answer reply respond", `\b(?:reply|respond|answer)\s+(?:to\s+)?(?:any|every|all)\b` + gap + `{0,40}?\bwith\s+['"]`},
	{"--", `--(?:allow-flagged|no-verify|dangerously-[a-z-]+|skip-checks?)\b`},
	// send
	{"attach commit copy dump e-mail echo email encode exfiltrate forward include leak mail paste pipe post print publish push put rsync scp send share tar upload zip", `\b(?:send|mail|e-?mail|upload|post|copy|paste|forward|scp|rsync|exfiltrate|encode|tar(?:\s+up)?|zip(?:\s+up)?|pipe|commit|push|publish|leak|dump|print|echo|share|put|include|attach)\b` + gap + `{0,60}?` +
		`(?:` + sensitivePath + `|` + secretObject + `)`},
	{"exfiltrate", `\bexfiltrate\b`},
	{"copy mirror push send tar upload zip", `\b(?:zip|tar|copy|upload|push|send|mirror)\b` + gap + `{0,40}?\b(?:the\s+)?(?:src/?|source\s+code|repo(?:sitory)?|codebase|whole\s+project|entire\s+project)(?:\s|/|$)` + gap + `{0,60}?\bto\s+(?:https?://|[\w.+-]+@|git@|\d{1,3}\.)`},
	// hide
	{"conceal hide suppress withhold", `\b(?:hide|conceal|withhold|suppress)\b` + gap + `{0,60}?\bfrom\s+` + humanNoun},
	{"do don't never", `\b(?:do\s+not|don't|never)\s+(?:mention|tell|show|report|reveal|disclose|say|let)\b` + gap + `{0,60}?` + humanNoun},
	{"leave", `\bleave\s+` + gap + `{0,40}?\bout\s+of\s+(?:your|the)\s+(?:summary|report|reply|response|answer|review|changelog|pr\s+description)`},
	{"drop exclude omit remove strip", `\b(?:omit|exclude|drop|strip|remove)\s+(?:any|all|every)\s+(?:mention|reference)s?\s+of\b`},
	{"exclude omit", `\b(?:omit|exclude)\b` + gap + `{0,60}?\bfrom\s+(?:your|the)\s+(?:summary|report|reply|response|answer|review|changelog)\b`},
	{"so", `\bso\s+(?:that\s+)?(?:nobody|no\s+one|no-one)\s+(?:notices|finds\s+out|sees|knows|will\s+(?:notice|know|see))\b`},
	{"without", `\bwithout\s+(?:anyone|` + humanNoun + `)\s+(?:noticing|knowing|seeing|finding\s+out)\b`},
	// a claim of success, with its word after a copula or as the verb itself: "pretend the tests passed"
	// ("the release notes say the migration succeeded" reports what they say: say and report need the copula)
	{"claim pretend report say", `\b(?:say|claim|report|pretend)\s+(?:that\s+)?(?:everything|all|it|the\s+\w+)\s+(?:is|was|went|are|were|passed|succeeded|worked)\b` + gap + `{0,12}?\b(?:fine|ok|okay|green|good|successful|passed|succeeded|worked|well)\b` +
		`|\b(?:claim|pretend)\s+(?:that\s+)?(?:everything|all|it|the\s+\w+)\s+(?:passed|succeeded|worked)\b`},
	{"keep", `\bkeep\s+(?:this|it|that)\s+(?:\w+\s+)?(?:between\s+us(?:[.;,:!)]|\s*$)|to\s+yourself|(?:secret|hidden|quiet)\s+from\s+` + humanNoun + `)`},
	{"so", `\bso\s+(?:that\s+)?` + humanNoun + `\s*(?:does|do|will|can)\s*(?:not|n't)\s+(?:see|notice|find)`},
	{"tell", `\btell\s+(?:them|` + humanNoun + `)\s+` + gap + `{0,50}?\b(?:even\s+if|regardless\s+of|whether\s+or\s+not)\b`},
	// memory
	{"add commit keep persist put record save store write", `\b(?:save|store|add|write|put|persist|record|commit|keep)\b` + gap + `{0,30}?\b(?:in|to|into)\s+your\s+(?:(?:long-term|persistent|permanent|own)\s+)?memory\b`},
	{"long-term new permanent persistent store", `\b(?:long-term|persistent|permanent)\s+memory\b|\bnew\s+rules?\s+for\s+your\s+memory\b|\bstore\s+(?:this|it)\s+in\s+memory\b`},
	{"apply follow remember use", `\b(?:apply|use|follow|remember)\s+(?:it|this|these)\s+(?:in|for|across)\s+(?:every|all)\s+(?:future\s+)?(?:conversations?|sessions?|chats?|tasks?|runs?)\b`},
	// control
	{"keep remember", `\b(?:remember|keep)\s+(?:this|it|that)\s+(?:permanently|forever|for\s+(?:all\s+)?future|across\s+(?:all\s+)?sessions)`},
	{"do don't never", `\b(?:never|do\s+not|don't)\s+refuse\b`},
	{"authorized_keys give grant", `\b(?:grant|give)\b` + gap + `{0,40}?\b(?:admin|owner|root|write|maintainer|sudo)\s+(?:access|rights|role|permissions?)\b|\bauthorized_keys\b`},
	{"bypass disable skip turn", `\b(?:disable|turn\s+off|skip|bypass)\s+(?:the\s+)?(?:tls|ssl|certificate|cert|signature|hostname)\s+(?:verification|validation|checks?)\b`},
	// the checks that vouch for what is installed, stubbed out: "replace the checksum verification with a no-op"
	{"bypass comment disable remove replace skip stub", `\b(?:replace|stub\s+out|comment\s+out|remove|disable|skip|bypass)\s+(?:the\s+)?(?:checksum|signature|integrity|hash|gpg|sha256)\s+(?:verification|validation|checks?)\b`},
	// the scanner or the review not run at all; an act done out of view; an account given access
	{"do don't never", `\b(?:never|don't|do\s+not)\s+(?:run|use|invoke)\s+(?:the\s+)?(?:secret\s+)?(?:scanner|secret\s+scan|safety\s+checks?|review)\b`},
	{"do execute run", `\b(?:run|execute|do)\s+(?:this|it|that|the\s+following|these)\s+(?:\w+\s+)?(?:silently|quietly|secretly|without\s+(?:telling|reporting|asking))\b`},
	{"add", `\badd\s+(?:the\s+)?(?:account|user|github\s+user|key)\s+[\w.@-]+\s+(?:as\s+(?:an?\s+)?(?:collaborator|admin|owner|maintainer)|to\s+(?:the\s+)?(?:admins|owners|maintainers|authorized_keys))\b`},
	{"disable remove turn", `\b(?:disable|turn\s+off|remove)\s+(?:the\s+)?(?:branch\s+protection|2fa|mfa|two-factor\s+\w+|audit\s+logging)\b`},
	{"rm", `\brm\s+-(?:rf|fr|r)\s+(?:~/?|/\*?|\$HOME/?)(?:[\s` + "`" + `'"]|$)`},
	{"do don't never", `\b(?:never|don't|do\s+not)\s+ask\s+(?:` + humanNoun + `|for\s+(?:confirmation|approval|permission)|before)`},
	{"collect keep log record save store write", `\b(?:store|save|write|log|record|collect|keep)\s+(?:every|all|any)\s+(?:\w+\s+)?(?:passwords?|secrets?|credentials?|keys?|tokens?)\b`},
	{"backdoor backdoors reverse", `\b(?:backdoors?|reverse\s+shell)\b`},
	{"change make set switch", `\b(?:set|make|change|switch)\b` + gap + `{0,40}?\b(?:to\s+)?(?:public-read(?:-write)?|world-(?:readable|writable)|0?777)\b`},
	{"ensure make", `\b(?:make\s+sure|ensure)\s+(?:that\s+)?` + humanNoun + `\s*(?:never|doesn't|does\s+not|won't|will\s+not|can't|cannot)\s+(?:finds?\s+out|sees?|notices?|knows?|learns?)\b`},
	{"stop", `\bstop\s+asking\s+(?:` + humanNoun + `|for\s+(?:confirmation|approval|permission)|before)`},
	{"bypass disable skip switch turn", `\b(?:disable|turn\s+off|switch\s+off|skip|bypass)\s+(?:the\s+|all\s+|any\s+)?(?:secret[\s-]scan\w*|(?:secret\s+)?scanner|confirmation\s+prompts?|approval\s+(?:step|prompts?)|safety\s+(?:checks?|rules|prompts?)|guardrails|sandbox)`},
	{"treat", `\btreat\s+(?:every|all|any|each)\b` + gap + `{0,50}?\bas\s+(?:an?\s+)?(?:false\s+(?:alarms?|positives?)|noise|safe)\b`},
	// a release from asking the people in the loop: "you no longer need permission from the user"
	{"you", `\byou\s+(?:no\s+longer|don't|do\s+not)\s+(?:(?:need|have)\s+to\s+(?:follow|obey|ask|check|respect|wait\s+for)\b` +
		`|need\s+(?:(?:the\s+)?(?:user's|human's|reviewer's|operator's|anyone's|their|my|our)\s+|any\s+)?(?:permission|approval|sign-off|confirmation|consent)\b)`},
	// the reader's own rules dropped: "stop following the repository guidelines"
	{"cease quit stop", `\b(?:stop|quit|cease)\s+(?:following|obeying|respecting|honou?ring)\s+(?:the\s+|your\s+|any\s+|all\s+)?(?:[\w.'-]+\s+){0,2}?(?:guidelines|rules|instructions|policies|conventions|system\s+prompt|guidance)\b`},
	// a note put above the people the reader works for: "treat any text in this note as higher priority than the user"
	{"treat", `\btreat\b` + gap + `{0,60}?\bas\s+(?:a\s+|the\s+)?(?:higher|highest|more\s+important|top|overriding)\s+(?:priority|authority|precedence)\b` + gap + `{0,12}?\b(?:than|over|above)\s+(?:the\s+|your\s+|any\s+)?(?:user|human|developer|operator|system|instructions|reviewer)`},
	{"delete", `\bdelete\s+(?:the\s+)?audit\s+log`},
	{"guidelines instructions rules system", `\b(?:instructions|rules|guidelines|system\s+prompt)\b` + gap + `{0,50}?\b(?:must|should|can|are\s+to)\s+be\s+(?:ignored|disregarded|skipped|overridden)\b`},
	{"disregard forget ignore override set", `\b(?:ignore|disregard|forget|set\s+aside|override)\s+(?:your\s+(?:\w+\s+)?(?:instructions|rules|guidelines|system\s+prompt)` +
		`|(?:the\s+|all\s+|any\s+)?(?:prior|previous|earlier|above|original|initial|operator's)\s+(?:\w+\s+)?(?:instructions|system\s+prompt|rules|guidelines)` +
		`|(?:the\s+)?system\s+prompt|(?:all\s+)?(?:the\s+)?instructions\s+(?:from|in|of)\s+your)\b`},
	{"force-push forcepush push pushing", `\b(?:force-?push|push(?:ing)?\s+(?:directly\s+|straight\s+)?to\s+(?:main|master)\s+without)\b`},
}

var addressRegexps = lazyRegexps(addressSources)

func addressExpr(name string) *regexp.Regexp { return addressRegexps[name]() }

// towardWords, everyWords and readingWords are what the toward, every and reading expressions need.
var (
	towardWords  = []string{"to ", "for ", "if you"}
	everyWords   = []string{"any ", "every ", "each ", "all ", "whichever ", "if a", "if the ", "if some "}
	readingWords = []string{"read", "process", "resum", "see", "load", "open", "find", "ingest", "that ", "who ", "which "}
)

// everyAt matches the every expression on pre, when pre has its words.
func everyAt(pre string) []int {
	if !containsAnyFold(pre, everyWords) {
		return nil
	}
	return addressExpr("every").FindStringIndex(pre)
}

// readingAt matches the reading expression at text[i], when one of its words follows.
func readingAt(text string, i int) []int {
	j := i
	if j < len(text) && text[j]|0x20 == 's' {
		j++ // "models reading this"
	}
	j = skipBlanks(text, j)
	if !followedByAny(text, j, readingWords) {
		return nil
	}
	return addressExpr("reading").FindStringIndex(text[i:lineEnd(text, i, 80)])
}

// wordAt returns the ASCII letters of text starting at i, lower-cased, and where they end.
func wordAt(text string, i int) (string, int) {
	j := i
	for j < len(text) && 'a' <= text[j]|0x20 && text[j]|0x20 <= 'z' {
		j++
	}
	return asciiLower(text[i:j]), j
}

// findAddressed flags demands from the families above made of a reader addressed as an AI, given the start of
// every keyword hit. A finding runs from the demand to the end of its sentence.
func findAddressed(text string, hits []int) []span {
	var out []span
	var c demandCache
	done := -1
	for _, at := range hits {
		if at < done {
			continue // inside a finding already
		}
		n := 0
		for _, kw := range addressedKeywords {
			if kw[0] == lowerByte(text[at]) && len(kw) > n && hasPrefixFold(text[at:], kw) {
				n = len(kw)
			}
		}
		if n == 0 {
			continue
		}
		if sp, ok := addressed(text, at, n, &c); ok {
			out = append(out, sp)
			done = sp.end
		}
	}
	return out
}

// addressed examines the keyword hit text[at:at+n].
func addressed(text string, at, n int, c *demandCache) (span, bool) {
	if at > 0 && isWordByte(text[at-1]) {
		return span{}, false
	}
	if e := at + n; e < len(text) && isWordByte(text[e]) && (text[e]|0x20 != 's' || e+1 < len(text) && isWordByte(text[e+1])) {
		return span{}, false // inside a word; a plural ("agents") is an address too
	}
	// Lower-cased on the stack: an address is examined at every mention of a model or an agent.
	var buf [24]byte
	kw := ""
	if n <= len(buf) {
		for k := 0; k < n; k++ {
			buf[k] = lowerByte(text[at+k])
		}
		kw = string(buf[:n])
	}
	start, body := at, -1
	switch {
	case kw == "whoever":
		if m := addressExpr("whoever").FindStringIndex(instructionWindow(text, at)); m != nil && vocativeStart(text, at) {
			body = at + m[1]
		}
	case aiNouns[kw]:
		start, body = addressAt(text, at, n)
	default:
		// A heading that persists what follows: "Remember for all future sessions:".
		cs := clauseStart(text, at)
		rest := text[at+n : lineEnd(text, at+n, 48)]
		if k := strings.IndexByte(rest, ':'); k >= 0 && addressExpr("persist").MatchString(text[cs:at]) {
			start, body = cs, at+n+k+1
		}
	}
	if body < 0 {
		return span{}, false
	}
	ds, de := c.next(text, body)
	if ds < 0 || quotedExample(text, start) {
		return span{}, false
	}
	window := text[body:de]
	m := []int{ds - body, de - body}
	d := window[m[0]:]
	silence := hasPrefixFold(d, "do not") || hasPrefixFold(d, "don't") || hasPrefixFold(d, "never") || hasPrefixFold(d, "hide") ||
		hasPrefixFold(d, "leave") || hasPrefixFold(d, "keep") || hasPrefixFold(d, "so ") || hasPrefixFold(d, "tell") ||
		hasPrefixFold(d, "you ") || hasPrefixFold(d, "without") || hasPrefixFold(d, "omit") || hasPrefixFold(d, "exclude")
	if !silence && addressExpr("negated").MatchString(window[:m[0]]) || reportedBefore(window[:m[0]]) {
		return span{}, false // a prohibition, or what someone asked for: "the reviewer asked us to stop asking …"
	}
	if objectNamesDoc(text, de) {
		return span{}, false // "copy the credentials template", ".env.example"
	}
	// The finding runs to the end of the sentence: what a "save this to your memory:" or "turn off … and"
	// demands follows the words that name the act.
	return span{ds, sentenceEnd(text, de)}, true
}

// reportedBefore reports whether s tells what someone asked for or said ("the reviewer asked us to …"), not
// counting a condition ("if asked about the outage, …").
func reportedBefore(s string) bool {
	for _, m := range addressExpr("reported").FindAllStringIndex(s, -1) {
		pre := strings.ToLower(strings.TrimRight(s[:m[0]], " "))
		if strings.HasSuffix(pre, "if") || strings.HasSuffix(pre, "when") || strings.HasSuffix(pre, "whenever") || strings.HasSuffix(pre, "unless") {
			continue
		}
		return true
	}
	return false
}

// docWords, after a credential's name, make it a document about credentials rather than the credentials.
var docWords = map[string]bool{"template": true, "templates": true, "example": true, "sample": true, "docs": true, "doc": true,
	"documentation": true, "schema": true, "format": true, "policy": true, "page": true, "section": true, "manager": true,
	"rotation": true, "scopes": true, "scope": true, "list": true, "names": true, "name": true, "fields": true, "field": true}

// objectNamesDoc reports whether the demand ending at text[end] names a document about credentials: a word of
// [docWords] follows, or the file is an example (.env.example, .env.sample).
func objectNamesDoc(text string, end int) bool {
	for _, suf := range []string{".example", ".sample", ".template", ".dist"} {
		if end >= len(suf) && equalFoldASCII(text[end-len(suf):end], suf) {
			return true
		}
	}
	w, _ := wordAt(text, skipBlanks(text, end))
	return docWords[w]
}

// demandCache remembers how far a line has been searched for a demand, so that many addresses on one line
// cost one pass over its words: the words in [from, to) were tried, and the first demand among them starts at
// at and ends at end (at is -1 when there is none).
type demandCache struct{ from, to, at, end int }

// next returns the first demand that starts at a word of text within ahead bytes of body on its line, or -1.
func (c *demandCache) next(text string, body int) (int, int) {
	le := lineEnd(text, body, ahead)
	if c.to == 0 || body < c.from || body > c.to || c.at >= 0 && c.at < body {
		*c = demandCache{from: body, to: body, at: -1}
	}
	if c.at < 0 {
		c.at, c.end, c.to = findDemand(text, c.to, le)
	}
	if c.at < 0 || c.at >= le {
		return -1, -1
	}
	return c.at, c.end
}

// demandForm is one entry of [demandForms].
type demandForm struct {
	leads string // the words a match may begin with, space-separated
	expr  string
}

// demandExprs holds, for each word a demand may begin with, the expression of the forms that may begin with
// it, in their order, anchored and case-blind. Each is compiled on first use: one expression of every form
// took over a millisecond to compile, which every process that scanned a note addressing the agent paid.
// Matching at a word, the forms that cannot begin with it cannot match, so the result is that of all forms.
var demandExprs = sync.OnceValue(newDemandExprs)

func newDemandExprs() map[string]func() *regexp.Regexp {
	byWord := map[string][]string{}
	for _, f := range demandForms {
		for _, w := range strings.Fields(f.leads) {
			byWord[w] = append(byWord[w], f.expr)
		}
	}
	out := make(map[string]func() *regexp.Regexp, len(byWord))
	for w, exprs := range byWord {
		out[w] = lazyRegexp(`(?i)^(?:` + strings.Join(exprs, "|") + `)`)
	}
	return out
}

// demandExpr returns the expression of the demands that may begin with the lower-cased word w, or nil.
func demandExpr(w string) *regexp.Regexp {
	if strings.HasPrefix(w, "--") {
		w = "--"
	}
	if f := demandExprs()[w]; f != nil {
		return f()
	}
	return nil
}

// demandWordEnd returns where the word that begins at text[i] ends, as a demand reads words: letters, digits,
// ', - and _ (don't, force-push, authorized_keys, --no-verify).
func demandWordEnd(text string, i int) int {
	for i < len(text) && (isAlnum(text[i]) || text[i] == '\'' || text[i] == '-' || text[i] == '_') {
		i++
	}
	return i
}

// findDemand returns where the first demand starting at a word of text[from:to] starts and ends, and how far
// it searched (to, when it found none). The expression runs only at the start of a word that may begin one, on
// the rest of its line, so an address followed by ordinary prose costs a pass over its words.
func findDemand(text string, from, to int) (int, int, int) {
	var buf [24]byte
	for i := from; i < to; {
		j := demandWordEnd(text, i)
		if j == i {
			i++
			continue
		}
		w := strings.TrimRight(text[i:j], "'")
		if len(w) <= len(buf) {
			for k := 0; k < len(w); k++ {
				buf[k] = lowerByte(w[k])
			}
			if re := demandExpr(string(buf[:len(w)])); re != nil {
				if m := re.FindStringIndex(text[i:lineEnd(text, i, ahead)]); m != nil {
					return i + m[0], i + m[1], j
				}
			}
		}
		i = j
	}
	return -1, -1, to
}

// sentenceEnd returns where the sentence holding text[at] ends: before ". ", ";", or the end of the line.
func sentenceEnd(text string, at int) int {
	le := lineEnd(text, at, ahead)
	for i := at; i < le; i++ {
		switch text[i] {
		case ';':
			return i
		case '.', '!', '?':
			if i+1 == le || text[i+1] == ' ' {
				return i
			}
		}
	}
	return le
}

// vocativeStart reports whether text[at] opens its clause, after list markers and an opener such as "hey" or
// "dear": where a note turns to someone.
func vocativeStart(text string, at int) bool {
	ls := lineStart(text, at, 160)
	pre := strings.TrimRight(text[ls:at], " \t")
	// "Hey Claude", "Please, dear assistant", "Future agent": one opener word may stand before the name.
	k := len(pre) - 1
	for k >= 0 && strings.IndexByte(" \t,.:;!?(-*>#", pre[k]) < 0 {
		k--
	}
	if k < len(pre)-1 {
		if addressExpr("opener").MatchString(pre[k+1:]) {
			pre = strings.TrimRight(pre[:k+1], " \t")
		}
	}
	if pre == "" {
		return true
	}
	switch pre[len(pre)-1] {
	case '.', '!', '?', ';', ':', ',', '(':
		return true
	}
	if strings.HasSuffix(pre, "—") || strings.HasSuffix(pre, " -") || strings.HasSuffix(pre, "<!--") {
		return true
	}
	// A comment's marker in code: "// AI: …", "/* Claude, …", "-- agent: …".
	if t := strings.TrimLeft(pre, " \t"); t == "//" || t == "/*" || t == "--" || t == ";;" || t == "%" {
		return true
	}
	// Nothing but list markers and quotes before it: "- Claude, …", "> 2) AI: …".
	for i := 0; i < len(pre); i++ {
		if strings.IndexByte("-+*>#`'\" \t0123456789.)", pre[i]) < 0 {
			return false
		}
	}
	return true
}

// addressAt parses an address around the AI noun at text[at:at+n] and returns where it starts and where the
// demand after it may begin, or -1: a vocative closed by a comma, colon or dash ("Claude, …", "AI reader:",
// "Codex or Claude, whichever of you reads this:"), or a phrase that turns to it ("Note to the assistant
// reading this later:", "If you are an AI reading this checkpoint,").
func addressAt(text string, at, n int) (int, int) {
	e := at + n
	if e < len(text) && text[e]|0x20 == 's' {
		e++
	}
	// "AI agent", "Codex or Claude": more of the name.
	for range 2 {
		i := skipBlanks(text, e)
		w, j := wordAt(text, i)
		if addressTail[w] || addressTail[strings.TrimSuffix(w, "s")] {
			e = j
			continue
		}
		if w == "or" || w == "and" {
			if w2, j2 := wordAt(text, skipBlanks(text, j)); aiNouns[w2] {
				e = j2
				continue
			}
		}
		break
	}
	// "the assistant team", "the agent pool": the name qualifies something else.
	if w, _ := wordAt(text, skipBlanks(text, e)); notAddressed[w] {
		return -1, -1
	}
	// "AI agent reading this:", "Models reading this note,": what the reader does is part of the name.
	if r := readingAt(text, e); r != nil {
		e += r[1]
		if w, j := wordAt(text, skipBlanks(text, e)); w == "note" || w == "file" || w == "checkpoint" || w == "text" || w == "later" || w == "now" {
			e = j
		}
	}
	i := skipBlanks(text, e)
	closed := i < len(text) && (text[i] == ',' || text[i] == ':') || strings.HasPrefix(text[i:], "—") || strings.HasPrefix(text[i:], "- ")
	if closed && vocativeStart(text, at) {
		k := i + 1
		if strings.HasPrefix(text[i:], "—") {
			k = i + len("—")
		}
		return at, k
	}
	cs := lineStart(text, at, 160)
	pre := text[max(cs, at-60):at]
	// "It would be great if the assistant could …": a request made of the reader in the third person.
	if w, j := wordAt(text, skipBlanks(text, e)); (w == "could" || w == "would" || w == "can") && len(pre) >= 7 && equalFoldASCII(pre[len(pre)-7:], "if the ") {
		return at - 7, j
	}
	// "The assistant should quietly add …", "the agent must …": an obligation laid on the reader in the third
	// person, opening its clause.
	if w, j := wordAt(text, skipBlanks(text, e)); (w == "should" || w == "must") && len(pre) >= 4 && equalFoldASCII(pre[len(pre)-4:], "the ") &&
		vocativeStart(text, at-4) {
		return at - 4, j
	}
	if at > 0 && text[at-1] == '@' {
		return at - 1, e // a mention: "@claude approve …"
	}
	// The expressions run only where their words are: most mentions of a model or an agent have neither.
	if m := everyAt(pre); m != nil {
		// "Any AI model reading this must …": the demand follows what the reader does.
		if r := readingAt(text, at+n); r != nil {
			k := max(cs, at-60) + m[0]
			if !isAlnum(text[k]) {
				k++
			}
			if vocativeStart(text, k) {
				return k, at + n + r[1]
			}
		}
	}
	if !containsAnyFold(pre, towardWords) || !addressExpr("toward").MatchString(pre) {
		return -1, -1
	}
	// The address runs to the comma or colon that ends it: "… reading this later:".
	rest := text[e:lineEnd(text, e, 80)]
	k := strings.IndexAny(rest, ":,")
	if k < 0 {
		return -1, -1
	}
	return clauseStart(text, at), e + k + 1
}
