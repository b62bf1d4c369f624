package compiler

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The classification policy of rules/5 is stated once, in the package comment (doc.go); keep the two in step.

// Reasons a statement is skipped.
const (
	reasonCode      = "code block"
	reasonHeading   = "heading"
	reasonSeparator = "separator"
	reasonFiller    = "filler"
	reasonNoWords   = "no words"
	reasonAck       = "greeting or acknowledgement"
	reasonMarker    = "truncation marker"
	reasonTruncated = "fragment: cut by truncation"
)

// kindQuestion is what labelKind returns for a "Question:" label; it is a skip, never a claim kind.
const kindQuestion = "?"

// statementContext is what the lines around a statement say about it.
type statementContext struct {
	box      int    // task box of the list item
	lineKind string // kind from a label earlier on the same line
	section  string // kind from the heading above
}

// words writes the lowercase words of s to buf as " w1 w2 … wn " (each word padded by spaces, so a cue
// can be matched as " must ") and returns the buffer and the number of words. A word is a run of letters,
// digits and marks, with inner apostrophes (’ becomes ') and hyphens; each Han, Hiragana or Katakana
// character is a word of its own.
func words(buf []byte, s string) ([]byte, int) {
	buf = append(buf[:0], ' ')
	n := 0
	in := false
	end := func() {
		for len(buf) > 1 && (buf[len(buf)-1] == '\'' || buf[len(buf)-1] == '-') {
			buf = buf[:len(buf)-1]
		}
		buf = append(buf, ' ')
		in = false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			case (c == '\'' || c == '-') && in:
				buf = append(buf, c)
				continue
			default:
				if in {
					end()
				}
				continue
			}
			if !in {
				n++
				in = true
			}
			buf = append(buf, c)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '’' && in:
			buf = append(buf, '\'')
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
			if in {
				end()
			}
			buf = utf8.AppendRune(buf, r)
			buf = append(buf, ' ')
			n++
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			if !in {
				n++
				in = true
			}
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		default:
			if in {
				end()
			}
		}
	}
	if in {
		end()
	}
	return buf, n
}

// word returns the i-th (0-based) word of the padded word string w, or "".
func word(w string, i int) string {
	for p := 1; p < len(w); {
		q := strings.IndexByte(w[p:], ' ')
		if q < 0 {
			return ""
		}
		if i == 0 {
			return w[p : p+q]
		}
		i--
		p += q + 1
	}
	return ""
}

// hasAny reports whether the padded word string w contains one of the padded cues.
func hasAny(w string, cues ...string) bool {
	for _, c := range cues {
		if strings.Contains(w, c) {
			return true
		}
	}
	return false
}

// hasPrefix reports whether the padded word string w starts with one of the padded cues.
func hasPrefix(w string, cues ...string) bool {
	for _, c := range cues {
		if strings.HasPrefix(w, c) {
			return true
		}
	}
	return false
}

// splitLabel finds a short label ending in ':' at the start of raw ("TODO:", "Next steps:", "**Note:**").
// It returns the label (without markup and colon) and what follows it, or ok == false.
func splitLabel(raw string) (label, rest string, ok bool) {
	s := strings.TrimLeft(raw, "*_")
	limit := min(len(s), 40)
	colon := strings.IndexByte(s[:limit], ':')
	if colon <= 0 {
		return "", "", false
	}
	label = strings.TrimRight(s[:colon], "*_ ")
	rest = strings.TrimLeft(s[colon+1:], "*_")
	if rest != "" && !spaceAt(rest, 0, len(rest)) {
		return "", "", false // "https://…", "12:30", "a:b"
	}
	if label == "" || strings.Count(label, " ") > 2 {
		return "", "", false
	}
	for i := 0; i < len(label); i++ {
		switch c := label[i]; {
		case isASCIILetter(c), c == ' ', c == '-', c == '(', c == ')', c == '@', c == '/', '0' <= c && c <= '9':
		default:
			return "", "", false
		}
	}
	return label, strings.TrimSpace(rest), true
}

// labelKind returns the kind a label or heading names ("Next steps" -> next-step), kindQuestion for
// questions, or "" when it names none.
func labelKind(w string) string {
	switch {
	case hasAny(w, " next ", " todo ", " todos ", " to do ", " to-do ", " to-dos ", " fixme ", " tbd ",
		" follow-up ", " follow up ", " followup ", " follow-ups ", " action ", " actions ", " plan ", " plans ",
		" remaining ", " later ", " open items "):
		return NextStep
	case hasAny(w, " decision ", " decisions ", " decided ", " resolution ", " resolved "):
		return Decision
	case hasAny(w, " constraint ", " constraints ", " rule ", " rules ", " invariant ", " invariants ",
		" requirement ", " requirements ", " limits ", " must "):
		return Constraint
	case hasAny(w, " preference ", " preferences ", " prefer ", " style "):
		return Preference
	case hasAny(w, " question ", " questions ", " q "):
		return kindQuestion
	}
	return ""
}

// isFillerWord reports whether a word carries nothing on its own.
func isFillerWord(w string) bool {
	switch w {
	case "so", "anyway", "anyways", "well", "okay", "alright", "right", "oh", "ah", "uh", "um", "uhm", "er", "erm",
		"like", "basically", "actually", "yeah", "yes", "yep", "no", "nope", "sure", "cool", "nice", "great",
		"thanks", "thank", "you", "lol", "wait", "huh", "oops", "whatever", "meh", "hey", "hi", "hello", "fine",
		"good", "now", "then", "hm", "mm", "also", "and", "but", "hmm", "interesting", "perfect":
		return true
	}
	// "hmmm", "hmmmm"
	if len(w) >= 2 && w[0] == 'h' && strings.Trim(w[1:], "m") == "" {
		return true
	}
	return false
}

// isChatterAck reports whether the whole statement is an acknowledgement of progress.
func isChatterAck(w string) bool {
	switch w {
	case " ok ", " okay ", " k ", " done ", " all done ", " fixed ", " fixed it ", " on it ", " working ",
		" working on it ", " will do ", " got it ", " all good ", " in progress ", " wip ", " brb ", " one sec ",
		" checking ", " still checking ", " investigating ", " still investigating ", " looking ", " progress ":
		return true
	}
	return false
}

// cueKind returns the kind the cue words of the padded word string w name, or "". Next-step cues count at
// the start only; the others anywhere. One pass over the words keeps this cheap: it runs on every statement.
func cueKind(w string) string {
	if hasPrefix(w, " next ", " todo ", " to-do ", " fixme ", " tbd ", " then ", " afterwards ", " later ",
		" tomorrow ", " eventually ", " need to ", " needs to ", " we need to ", " i need to ", " we still need to ",
		" still need to ", " still to ", " we should ", " i should ", " should ", " we'll ", " we will ",
		" i will ", " i'll ", " going to ", " we're going to ", " plan to ", " we plan to ", " the plan is to ",
		" plan is to ", " remember to ", " don't forget to ", " follow up ", " follow-up ", " to do ",
		" remaining ", " it remains to ", " left to do ", " must next ", " we must next ") {
		return NextStep
	}
	var decision, preference, constraint bool
	prev := ""
	for p := 1; p < len(w); {
		q := strings.IndexByte(w[p:], ' ')
		if q < 0 {
			break
		}
		cur := w[p : p+q]
		p += q + 1
		switch cur {
		case "decided", "decision", "decisions", "chose", "chosen", "agreed", "opted", "picked", "rejected":
			decision = true
		case "prefer", "prefers", "preferred", "preferably", "preference", "favor", "favour", "favors", "favours",
			"avoid", "avoids", "ideally", "dislike", "dislikes":
			preference = true
		case "must", "mustn't", "never", "always", "only", "cannot", "can't", "shall", "required", "requires",
			"require", "mandatory", "forbidden", "disallowed", "prohibited", "should", "shouldn't", "exclusively":
			constraint = true
		}
		switch prev + "|" + cur {
		case "next|step", "next|steps", "next|up":
			return NextStep
		case "settled|on", "going|with", "go|with", "went|with", "switched|to", "instead|of", "rather|than",
			"in|favor", "in|favour", "ruled|out", "will|use":
			decision = true
		case "i|like", "we|like", "i'd|rather", "we'd|rather", "would|rather", "i|want", "we|want", "i'd|like",
			"we'd|like":
			preference = true
		case "can|not", "not|allowed", "at|most", "at|least", "no|more", "no|less", "limited|to", "has|to",
			"have|to", "needs|to", "need|to", "may|not":
			constraint = true
		}
		prev = cur
	}
	switch {
	case decision:
		return Decision
	case preference:
		return Preference
	case constraint, hasPrefix(w, " don't ", " do not ", " no ", " nothing ", " we don't ", " we do not "):
		return Constraint
	case hasPrefix(w, " use ", " adopt ", " keep using ", " stick with ", " stay with ", " let's use "):
		return Decision
	}
	return ""
}

// verdict is what classify made of one statement: a kind, or the reason it was skipped. named is the kind
// its label or heading names ("" when none), which the statements after it inherit.
type verdict struct {
	kind, reason, named string
}

// classify judges one statement as it appears in the source. buf is scratch space, returned for reuse.
func classify(raw string, ctx statementContext, buf []byte) (verdict, []byte) {
	label, body, hasLabel := splitLabel(raw)
	if !hasLabel {
		body = raw
	}
	var v verdict
	if isHeadingOnly(raw, hasLabel, body) {
		buf, _ = words(buf, raw)
		v.named = labelKind(string(buf))
		v.reason = reasonHeading
		return v, buf
	}
	if hasLabel {
		buf, _ = words(buf, label)
		v.named = labelKind(string(buf))
		if v.named == kindQuestion {
			v.named = ""
		}
	}
	buf, n := words(buf, body)
	w := string(buf)
	switch {
	case n == 0:
		v.reason = reasonNoWords
	case isFiller(w, n):
		v.reason = reasonFiller
	case isChatterAck(w) || isAck(w, raw, n):
		v.reason = reasonAck
	case ctx.box == openBox:
		v.kind = NextStep
	case v.named != "":
		v.kind = v.named
	default:
		v.kind = cueKind(w)
		if v.kind == "" {
			v.kind = ctx.lineKind
		}
		if v.kind == "" {
			v.kind = ctx.section
		}
		if v.kind == "" {
			v.kind = Fact
		}
	}
	return v, buf
}

// isFiller reports whether every word of the padded word string w (n words) is a filler word.
func isFiller(w string, n int) bool {
	if n == 0 || n > 4 {
		return false
	}
	for i := range n {
		if !isFillerWord(word(w, i)) {
			return false
		}
	}
	return true
}

// isHeadingOnly reports a statement that only announces what follows: it ends with ':', is a bare label,
// or is wholly bold ("**Status**").
func isHeadingOnly(raw string, hasLabel bool, rest string) bool {
	if hasLabel && rest == "" {
		return true
	}
	t := strings.TrimRight(raw, "*_")
	if strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：") {
		return true
	}
	for _, m := range [...]string{"**", "__"} {
		if len(raw) > 4 && strings.HasPrefix(raw, m) && strings.HasSuffix(raw, m) &&
			!strings.Contains(raw[2:len(raw)-2], m) {
			return true
		}
	}
	return false
}

// isAckWord reports a word that, with filler words, makes a greeting or an acknowledgement ("Nice work",
// "Thanks a lot", "Good morning everyone").
func isAckWord(w string) bool {
	switch w {
	case "work", "job", "done", "sounds", "looks", "please", "much", "lot", "a", "so", "very", "again", "everyone",
		"all", "guys", "folks", "team", "morning", "evening", "night", "afternoon", "bye", "cheers", "congrats",
		"congratulations", "welcome", "lgtm", "ack", "noted", "thx", "ty", "awesome", "amazing", "wow", "yay",
		"haha", "ok", "k", "kk", "np", "sorry", "it", "that", "this", "me", "for", "too", "super", "cool":
		return true
	}
	return isFillerWord(w)
}

// isAck reports a greeting or acknowledgement: at most six words, all of them filler or acknowledgement
// words except one name (a capitalized word that is not the first), and at least one that is not a name.
func isAck(w, raw string, n int) bool {
	if n == 0 || n > 6 {
		return false
	}
	names := 0
	for i := range n {
		word := word(w, i)
		if isAckWord(word) {
			continue
		}
		if i == 0 || names > 0 || !capitalized(raw, word) {
			return false
		}
		names++
	}
	return n > names
}

// capitalized reports whether word (as [words] writes it) is a word of raw that starts with a capital.
func capitalized(raw, word string) bool {
	start := -1
	for i, r := range raw + " " {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || (start >= 0 && (r == '\'' || r == '’' || r == '-')) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := raw[start:i]
			first, _ := utf8.DecodeRuneInString(w)
			if unicode.IsUpper(first) && strings.Trim(strings.ReplaceAll(strings.ToLower(w), "’", "'"), "'-") == word {
				return true
			}
			start = -1
		}
	}
	return false
}

// maxLabel bounds the bytes of a context label.
const maxLabel = 60

// contextLabel finds a leading label that names no kind and is context for what follows it: a speaker
// and date ("Priya (3 March 2026):", "[10:14] Jonas:"), a subject ("FW-233:", "Ines's handoff:",
// "Hinweis für alle im Büro München:") or a field name ("Root cause:"). The label ends at the first ':'
// followed by white space, within [maxLabel] bytes; it has at most six words, none of them a verb such as
// "is" or "have" ("The fix is simple: …" is a statement), and starts with a letter, digit, '[', '(', '#',
// '@' or Markdown emphasis, and its brackets are balanced. It returns the label without markup and the rest after it, trimmed, which is
// not empty.
func contextLabel(raw string) (label, rest string, ok bool) {
	limit := min(len(raw), maxLabel+4)
	colon := -1
	for i := 0; i < limit; i++ {
		switch raw[i] {
		case ':':
			if i+1 < len(raw) && spaceAt(raw, i+1, len(raw)) {
				colon = i
			}
		case '`', '"', ';', '!', '?', '=':
			return "", "", false
		case '.':
			if i+1 < len(raw) && spaceAt(raw, i+1, len(raw)) && !isAbbreviation(raw, 0, i) {
				return "", "", false
			}
		}
		if colon >= 0 {
			break
		}
	}
	if colon <= 0 {
		return "", "", false
	}
	label = strings.TrimSpace(strings.Trim(raw[:colon], "*_ \t"))
	rest = strings.TrimSpace(strings.TrimLeft(raw[colon+1:], "*_"))
	if label == "" || rest == "" || len(label) > maxLabel || strings.Contains(label, "://") ||
		strings.Count(label, "(") != strings.Count(label, ")") || strings.Count(label, "[") != strings.Count(label, "]") {
		return "", "", false
	}
	r, _ := utf8.DecodeRuneInString(label)
	if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("[(#@", r)) {
		return "", "", false
	}
	w, n := words(nil, label)
	if n == 0 || strings.Count(label, " ") > 5 {
		return "", "", false
	}
	if k := labelKind(string(w)); k != "" && k != kindQuestion {
		return "", "", false
	}
	if hasAny(string(w), " is ", " are ", " was ", " were ", " be ", " been ", " has ", " have ", " had ", " will ",
		" would ", " can ", " could ", " should ", " must ", " do ", " does ", " did ", " we ", " i ", " it ",
		" this ", " that ", " there ") {
		return "", "", false
	}
	return label, rest, true
}
