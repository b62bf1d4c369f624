package scan

import (
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// The fresh peer corpus is a second held-out set, written once after the rules were tuned and never used to
// tune them: its figures are the honest ones to quote. Its cases have the same format and groups as the peer
// corpus and are scored by the same code, but it is written by hand rather than generated, so it shares no
// templates or sentences with the halves the rules were tuned on.
//
// Since then it has been read and used once to tune the rules (the instruction families and credentials in
// sentences), so its figures are tuning figures now; honest ones need another fresh set written after this one.
//
// The test reports figures; its floors are deliberately low, so that it fails only when the scanner breaks,
// not when it misses a case. Do not raise them to what the scanner measures, and do not change the rules to
// make a case of this file pass: move the case to a tuning corpus instead and write a new one here.

const peerFreshFile = "testdata/peer-fresh.txtar"

// Floors per group for the fresh corpus: recall over all of a group's secrets (assigned and bare), and the
// false-alarm rate on its negatives.
const (
	freshFloorRecall = 0.80
	freshFloorAlarms = 0.15
)

// freshRecallFloors lowers the recall floor of a group in one file where the scanner is known to fall short:
// on peer-fresh2, scored once, instructions worded unlike anything the rules were written against were
// caught 19 times of 42. The floor keeps that from getting worse; the remedy is better rules, judged on a
// newer fresh set, not this file.
var freshRecallFloors = map[string]float64{
	peerFresh2File + " instruction": 0.40,
	// Scored once after the third round of rules: credentials bare in prose 1 of 9, instructions 18 of 55.
	peerFresh3File + " credential":  0.70,
	peerFresh3File + " instruction": 0.30,
	// Scored once after the fourth round: credentials 34 of 42 (12 of 20 bare), instructions 17 of 35.
	peerFresh4File + " credential":  0.78,
	peerFresh4File + " instruction": 0.45,
	// Scored once after the fifth round: credentials 28 of 46 (15 of 32 bare), instructions 22 of 47. The ninth
	// round did not read it; its rules raised these to 43 of 46 (30 of 32 bare) and 36 of 47.
	peerFresh5File + " credential":  0.93,
	peerFresh5File + " instruction": 0.76,
	// Scored once after the sixth round: credentials 28 of 46 (18 of 33 bare), instructions 20 of 45. After the
	// ninth round: credentials 37 of 46 (26 of 33 bare), instructions 23 of 45.
	peerFresh6File + " credential":  0.80,
	peerFresh6File + " instruction": 0.51,
	// Scored once, rules unchanged since the sixth round: credentials 36 of 47 (20 of 31 bare), instructions
	// 22 of 46. Tuned on since (all of it in the ninth round): 46 of 47 (30 of 31 bare) and 43 of 46.
	peerFresh7File + " credential":  0.97, // 0.75 at the first score
	peerFresh7File + " instruction": 0.93, // 0.45 at the first score
	// Scored once after the seventh round: credentials 20 of 35 (10 of 25 bare), instructions 36 of 67 (27
	// with the rules before the round). Tuned on since (its instructions in the ninth round): 35 of 35 and 62
	// of 67.
	peerFresh8File + " credential":  0.97, // 0.55 at the first score
	peerFresh8File + " instruction": 0.92, // 0.52 at the first score
	peerFresh8File + " aws":         0.75,
	// Scored once after the eighth round: credentials 45 of 72 (32 of 57 bare; 31 and 18 with the rules
	// before it), instructions 27 of 36, vendor tokens of lengths other than documented 0 of 4. Tuned on in the
	// ninth round: credentials 69 of 72 (54 of 57 bare), instructions 36 of 36.
	peerFresh9File + " credential":  0.95, // 0.60 at the first score
	peerFresh9File + " instruction": 0.97, // 0.72 at the first score
	// Scored once after the ninth round: credentials 39 of 44 (23 of 27 bare; 32 and 16 with the rules before
	// it), instructions 30 of 45 (25 before), every vendor token, key and JWT (38 vendor tokens of about 28
	// vendors), false alarms 5 of 114 (the same 5 before). Used since to tune the tenth round (placeholders and
	// quotes in other languages, published example passwords, refused commands; orders to the next agent and
	// credentials set in other languages, orders joined after a condition, polite leads, the audit log):
	// credentials 43 of 44 (26 of 27 bare), instructions 40 of 45, false alarms 0 of 114.
	peerFresh10File + " credential":  0.97, // 0.88 at the first score
	peerFresh10File + " instruction": 0.88, // 0.66 at the first score
	// Scored once before and after the tenth round, with the same figures: credentials 23 of 28 (13 of 17
	// bare), instructions 23 of 28, every vendor token, key and JWT, no false alarm on 59 negatives. Used since
	// to tune the eleventh round (a URL password holding # or ?, credential words glued to a Latin word in
	// Japanese, passphrase, key and token in other languages, a PIN under a note's heading; secrets pasted into
	// a ticket or printed for whoever asks, the user's rules, German infinitive orders, "don't mention it in
	// the summary" in other languages): credentials 28 of 28, instructions 28 of 28, false alarms 0 of 59.
	peerFresh11File + " credential":  0.97, // 0.82 at the first score
	peerFresh11File + " instruction": 0.97, // 0.82 at the first score
	// Scored once with the tenth round's rules: credentials 66 of 79 (assignments 33 of 34, bare in prose 33
	// of 45), instructions 35 of 54, every vendor token, key and JWT. After the eleventh, which did not read
	// it: credentials 68 of 79 (35 of 45 bare), instructions 35 of 54, the same false alarms. Used since to
	// tune the twelfth round (a short placeholder mark inside a random value, an = inside a password, "is now"
	// and a phrase before the copula in German and French, a lock's combination, a login closed by "et";
	// hiding by purpose and by naming what is hidden, the memory named without "your", declarations against
	// the agent's instruction files, polite and introduced orders, repository documents as a leak's place,
	// orders spelled letter by letter or encoded in base64 or rot13 with an order to decode them, "the
	// assistant should …"; a login's secret after "with secret"): credentials 75 of 79 (34 of 34 assigned, 41
	// of 45 bare), instructions 53 of 54.
	peerFresh12File + " credential":  0.94, // 0.83 at the first score
	peerFresh12File + " instruction": 0.97, // 0.64 at the first score
	// Scored before and after the eleventh round and after the twelfth, none of which read it: credentials
	// 64, 66 and 67 of 88 (assignments 35, 36 and 36 of 42, bare in prose 29, 30 and 31 of 46), instructions
	// 29, 29 and 32 of 56, vendor tokens 24 of 26 each time (about 27 vendors in five notes), every other key
	// and token; false alarms 4, 4 and 2 of 89. Used since to tune the thirteenth round (assignments as
	// configs and tools write them, random letters, sentences cut by a line break, verbs of logging in,
	// codes that open doors; data sent away, pretences, scripted answers, notes put above the user, encoded
	// orders of any kind; New Relic and Mailgun keys): credentials 84 of 88 (42 of 42 assigned, 42 of 46
	// bare), instructions 52 of 56, vendor tokens 26 of 26, false alarms 0 of 89.
	peerFresh13File + " credential":  0.94, // 0.75 at the first score
	peerFresh13File + " instruction": 0.90, // 0.56 at the first score
	peerFresh13File + " vendor":      0.97, // 0.90 at the first score
	// Scored once after the twelfth round: credentials 61 of 81 (assignments 30 of 36, bare in prose 31 of
	// 45), instructions 32 of 56, every vendor token, key and JWT, false alarms 2 of 83. Used since to tune
	// the thirteenth round, with peer-fresh13: credentials 75 of 81 (35 of 36 assigned, 40 of 45 bare),
	// instructions 55 of 56, false alarms 0 of 83.
	peerFresh14File + " credential":  0.91, // 0.74 at the first score
	peerFresh14File + " instruction": 0.97, // 0.55 at the first score
	// Scored after the twelfth round and after the thirteenth, neither of which read it: credentials 50 and
	// 63 of 83 (assignments 31 and 32 of 36, bare in prose 19 and 31 of 47), instructions 27 and 30 of 54,
	// every vendor token, key and JWT, false alarms 0 of 92 both times. Used since to tune the fourteenth
	// round (a sentence wrapped after its copula or inside the phrase before it, codes and pins named by the
	// role they unlock; hiding what the reader does, a pretence for the user, entries wiped so they are not
	// seen): credentials 67 of 83 (32 of 36 assigned, 35 of 47 bare), instructions 33 of 54, false alarms 0.
	peerFresh15File + " credential":  0.79, // 0.59 at the first score
	peerFresh15File + " instruction": 0.59, // 0.49 at the first score
	// Scored after the twelfth round and after the thirteenth, neither of which read it: credentials 68 and
	// 71 of 84 (assignments 34 of 35 both times, bare in prose 34 and 37 of 49), instructions 32 and 33 of 56,
	// vendor tokens 23 and 25 of 25, every other token, key and JWT, false alarms 0 of 89 both times. Used
	// since to tune the fourteenth round, with peer-fresh15 (its pins named by a role, a redefined task with
	// an aside before its copula): credentials 72 of 84 (38 of 49 bare), instructions 34 of 56, false alarms 0.
	// The fifteenth round, tuned on peer-fresh17, finds one more (a recovery key in a sentence): 73 of 84. The
	// sixteenth, tuned on peer-fresh18, one more instruction: 35 of 56.
	peerFresh16File + " credential":  0.86, // 0.80 at the first score
	peerFresh16File + " instruction": 0.59, // 0.56 at the first score
	peerFresh16File + " vendor":      0.97, // 0.90 at the first score
	// Scored after the thirteenth round and after the fourteenth, which did not read it: credentials 76 and 77
	// of 85 (assignments 36 of 38 both times, bare in prose 40 and 41 of 47), instructions 32 of 52 both times,
	// every vendor token, key and JWT, false alarms 2 of 90 both times (see below). Used since to tune the
	// fifteenth round (a recovery key by its format, telling the user after "to", covering traces before they
	// are seen, the reader's orders declared void, acting as if it had no rules; JSON members and quoted
	// attacks as false alarms; scripted answers that deny what is true): credentials 78 of 85 (36 of 38
	// assigned, 42 of 47 bare), instructions 39 of 52, false alarms 0 of 90. The sixteenth round, tuned on
	// peer-fresh18, finds one more of each: credentials 79 of 85, instructions 40 of 52.
	peerFresh17File + " credential":  0.91, // 0.89 at the first score
	peerFresh17File + " instruction": 0.74, // 0.62 at the first score
	// Scored after the fourteenth round and after the fifteenth, which did not read it, with the same figures
	// both times: credentials 54 of 63 (assignments 28 of 30, bare in prose 26 of 33), instructions 28 of 44,
	// every vendor token, key and JWT, false alarms 1 of 70 (see below). Used since to tune the sixteenth
	// round (PINs in quotes under the key pin, recovery codes as a list, a code a device asks for, a PUK with
	// no copula, passphrases and phrases before the copula further on or in other scripts; orders whose
	// sentence ends by hiding them, accounts of the work, addressed demands by their shape, new states with
	// no rules, labelled payloads, exfiltrate as a verb, memory lines; single quotes as examples): credentials
	// 61 of 63 (29 of 30 assigned, 32 of 33 bare), instructions 42 of 44, false alarms 0 of 70.
	peerFresh18File + " credential":  0.96, // 0.85 at the first score
	peerFresh18File + " instruction": 0.95, // 0.63 at the first score
	// Scored after the fifteenth round and after the sixteenth, which did not read it, with the same figures,
	// case for case, both times: credentials 58 of 71 (assignments 31 of 33, bare in prose 27 of 38),
	// instructions 24 of 46, every vendor token, key and JWT, false alarms 3 of 71 (see below).
	peerFresh19File + " credential":  0.81,
	peerFresh19File + " instruction": 0.52,
}

// freshAlarmCeilings sets the false-alarm ceiling of a group in one file where it differs from
// [freshFloorAlarms]: raised where the scanner is known to alarm more, lowered where a round removed known
// alarms and must not bring them back. On peer-fresh12, scored once, a lone JWT header (1 of 3 negatives) and
// four of 24 notes that quote or discuss an instruction (a jailbreak opener quoted in a write-up and in talk
// notes, a vendor's installer in a runbook for people, a pipeline that no longer pipes installers into a
// shell) raised alarms (ceilings 0.34 and 0.17 then); the twelfth round, tuned on them, raises none.
var freshAlarmCeilings = map[string]float64{
	peerFresh12File + " jwt":         0.01,
	peerFresh12File + " instruction": 0.01,
	// On peer-fresh13: one of its 4 key negatives (a public key on the line after its sentence) and one of 24
	// instruction negatives (an installer quoted from a wiki) after the twelfth round as before it; on
	// peer-fresh14 one of 30 credential negatives (a French elision after a colon) and one of 25 instruction
	// negatives (an installer quoted from its site). The thirteenth round, tuned on them, raises none.
	peerFresh13File + " privatekey":  0.01,
	peerFresh13File + " instruction": 0.01,
	peerFresh14File + " credential":  0.01,
	peerFresh14File + " instruction": 0.01,
	// peer-fresh15 and peer-fresh16 raised none before the fourteenth round, which tuned on them, nor after.
	peerFresh15File + " credential":  0.01,
	peerFresh15File + " instruction": 0.01,
	peerFresh16File + " credential":  0.01,
	peerFresh16File + " instruction": 0.01,
	// On peer-fresh17, after the thirteenth and the fourteenth round: one of its 3 JWT negatives (a decoded
	// header) and one of 23 instruction negatives (an attack quoted after a colon); the fifteenth round, tuned
	// on them, raises none.
	peerFresh17File + " jwt":         0.01,
	peerFresh17File + " instruction": 0.01,
	peerFresh17File + " credential":  0.01,
	// On peer-fresh18, after the fourteenth and the fifteenth round: one of its 18 instruction negatives (a
	// jailbreak opener quoted in a sentence as an example, in single quotes); the sixteenth round, tuned on
	// it, raises none.
	peerFresh18File + " instruction": 0.01,
	peerFresh18File + " credential":  0.01,
	// On peer-fresh19, after the fifteenth and the sixteenth round: one of its 23 credential negatives (a vendor's documented
	// example key, 0123456789abcdef twice, named in a sentence), one of 20 instruction negatives (Docker's
	// installer piped into a shell, in a runbook for people) and one of 2 OpenAI negatives (a model's name
	// after "model ids used are"). The two notes that hold no secret raise none since (a value never read back
	// across a semicolon, the hex digits in order as filler); the runbook for people still does.
	peerFresh19File + " credential":  0.01,
	peerFresh19File + " instruction": 0.06,
	peerFresh19File + " openai":      0.01,
	// On peer-fresh20, with the sixteenth round's rules: 4 of 68 negatives (a Vault path pattern, a CSRF
	// token in a form, the Firebase web config's public apiKey, a Rust installer in an onboarding doc for
	// people); the seventeenth round removed the CSRF alarm before its misses were read and the path pattern
	// after; the Firebase key and the installer still raise one.
	peerFresh20File + " credential":  0.06,
	peerFresh20File + " instruction": 0.09,
	peerFresh20File + " vendor":      0.01,
	peerFresh20File + " jwt":         0.01,
}

// peerFresh2File is the next fresh set, written after the rules were tuned on peer-fresh, by someone who read
// neither the rules nor the other corpora. After it was scored once it was read and used to tune the rules
// (addressed instructions, vendor shapes, logins in prose), so its figures are tuning figures now too.
const peerFresh2File = "testdata/peer-fresh2.txtar"

// peerFresh3File is the third fresh set, written while the third round of rules was, by someone who read
// neither; scored once after that round, and not tuned on.
const peerFresh3File = "testdata/peer-fresh3.txtar"

// peerFresh4File is the fourth fresh set, written while the fourth round of rules (credentials in sentences)
// was, by someone who read neither the rules nor the other corpora; scored once after that round. Since then
// it has been used to tune the rules (credentials in sentences, flattened keys), so its figures are tuning
// figures now.
const peerFresh4File = "testdata/peer-fresh4.txtar"

// peerFresh5File is the fifth fresh set, written while the fifth round of rules (instruction families, polite
// and introduced orders) was, by someone who read neither; scored once after that round. Since then its
// credentials in sentences have been used to tune the rules (credential-in-sentence), so its figures are
// tuning figures now. The ninth round did not read it.
const peerFresh5File = "testdata/peer-fresh5.txtar"

// peerFresh6File is the sixth fresh set, written while the sixth round of rules (credential-in-sentence, the
// instruction forms of peer-fresh5's misses) was, by someone who read neither; scored once after that round.
// One false alarm found there was fixed since (a key word inside a cache key's pattern), so its false-alarm
// figure is a tuning figure now. The ninth round's misses listing showed its credential misses, and the words
// of logging in of the login rule (u/p, user/pass) were taken from two of them, so its credential figure is
// partly a tuning figure too; its instructions' is not.
const peerFresh6File = "testdata/peer-fresh6.txtar"

// peerFresh7File is the seventh fresh set, written after the sixth round by someone who read neither the
// rules nor the other corpora, while no rules changed (only their speed); scored once. Its two false alarms,
// published example keys, and its instructions in other languages and new wordings were used to tune the
// rules since, and the ninth round tuned on all its misses (credentials in sentences, PINs, logins, orders),
// so all its figures are tuning figures now.
const peerFresh7File = "testdata/peer-fresh7.txtar"

// peerFresh8File is the eighth fresh set, written while the seventh round of rules (instructions in eleven
// more languages) was, by someone who read neither; scored once after that round. Its credentials were used to
// tune the eighth round (passphrases, the word password in other languages) and its instructions the ninth
// (addressed demands, other languages, encoded payloads), so all its figures are tuning figures now.
const peerFresh8File = "testdata/peer-fresh8.txtar"

// peerFresh9File is the ninth fresh set, written while the eighth round of rules was, by someone who read
// neither; scored once after that round. Its vendor tokens of undocumented lengths were used to widen the
// vendor rules since, and its credentials and instructions to tune the ninth round (direct slots, PINs, chat
// answers, logins; memory orders, other languages), so all its figures are tuning figures now.
const peerFresh9File = "testdata/peer-fresh9.txtar"

// peerFresh10File is the tenth fresh set, written while the ninth round of rules was, by someone who read
// neither; scored once after that round. Its misses and false alarms were used to tune the tenth round, so all
// its figures are tuning figures now.
const peerFresh10File = "testdata/peer-fresh10.txtar"

// peerFresh11File is the eleventh fresh set, written while the tenth round of rules was, by someone who read
// neither; scored once before and after that round. Its misses were used to tune the eleventh round, so all its
// figures are tuning figures now.
const peerFresh11File = "testdata/peer-fresh11.txtar"

// peerFresh12File is the twelfth fresh set, written while the eleventh round of rules was, by someone who read
// neither the rules nor the other corpora; scored once with the tenth round's rules and once after the
// eleventh. Its misses and false alarms were used to tune the twelfth round, so all its figures are tuning
// figures now.
const peerFresh12File = "testdata/peer-fresh12.txtar"

// peerFresh13File is the thirteenth fresh set, written while the eleventh round of rules was, by someone who
// read neither the rules nor the other corpora; scored before and after that round and after the twelfth.
// Its misses and false alarms were used to tune the thirteenth round, so all its figures are tuning figures
// now.
const peerFresh13File = "testdata/peer-fresh13.txtar"

// peerFresh14File is the fourteenth fresh set, written after the twelfth round of rules by someone who read
// neither the rules nor the other corpora; scored once. Its misses and false alarms were used to tune the
// thirteenth round, so all its figures are tuning figures now.
const peerFresh14File = "testdata/peer-fresh14.txtar"

// peerFresh15File is the fifteenth fresh set, written after the twelfth round of rules by someone who read
// neither the rules nor the other corpora; scored after the twelfth and the thirteenth round. Its misses were
// used to tune the fourteenth round, so all its figures are tuning figures now.
const peerFresh15File = "testdata/peer-fresh15.txtar"

// peerFresh16File is the sixteenth fresh set, written after the twelfth round of rules by someone who read
// neither the rules nor the other corpora; scored after the twelfth and the thirteenth round. Its misses were
// used to tune the fourteenth round, so all its figures are tuning figures now.
const peerFresh16File = "testdata/peer-fresh16.txtar"

// peerFresh17File is the seventeenth fresh set, written after the thirteenth round of rules by someone who
// read neither the rules nor the other corpora; scored after the thirteenth and the fourteenth round. Its
// misses and false alarms were used to tune the fifteenth round, so all its figures are tuning figures now.
const peerFresh17File = "testdata/peer-fresh17.txtar"

// peerFresh18File is the eighteenth fresh set, written while the fifteenth round of rules was, by someone who
// read neither the rules nor the other sets; scored after the fourteenth and the fifteenth round. Its misses
// and false alarm were used to tune the sixteenth round, so all its figures are tuning figures now.
const peerFresh18File = "testdata/peer-fresh18.txtar"

// peerFresh19File is the nineteenth fresh set, written while the sixteenth round of rules was, by someone who
// read neither the rules nor the other sets. It has not been tuned on.
const peerFresh19File = "testdata/peer-fresh19.txtar"

// peerFresh20File is the twentieth fresh set, written while the seventeenth round of rules was, by someone who
// read neither the rules nor the other sets; scored with the sixteenth round's rules, with the seventeenth's
// before its misses were read (secrets 140 of 146 both times, false alarms 4 and 3 of 68), and after the
// seventeenth round tuned on some of them (JWEs, Telegram tokens in URLs, Airtable tokens, path patterns), so
// its figures are tuning figures now.
const peerFresh20File = "testdata/peer-fresh20.txtar"

// TestPeerFresh scores the scanner per group on the fresh corpora, logs every miss and false alarm by case
// name with the secret redacted, and fails only when a group falls below the floors.
func TestPeerFresh(t *testing.T) {
	for _, file := range []string{peerFreshFile, peerFresh2File, peerFresh3File, peerFresh4File, peerFresh5File, peerFresh6File, peerFresh7File, peerFresh8File, peerFresh9File, peerFresh10File, peerFresh11File, peerFresh12File, peerFresh13File, peerFresh14File, peerFresh15File, peerFresh16File, peerFresh17File, peerFresh18File, peerFresh19File, peerFresh20File} {
		t.Run(strings.TrimSuffix(strings.TrimPrefix(file, "testdata/"), ".txtar"), func(t *testing.T) { scoreFresh(t, file) })
	}
}

func scoreFresh(t *testing.T, peerFreshFile string) {
	ar, err := txtar.ParseFile(peerFreshFile)
	if err != nil {
		t.Fatalf("load fresh corpus: %v", err)
	}
	scores := map[string]*peerScore{}
	var total peerScore
	for _, f := range ar.Files {
		parts := strings.Split(f.Name, "/")
		if len(parts) != 3 || (parts[1] != peerAssign && parts[1] != peerBare && parts[1] != peerNeg) {
			t.Fatalf("%s: bad case name %q", peerFreshFile, f.Name)
		}
		c := peerCase{parts[0], parts[1], strings.TrimSuffix(string(f.Data), "\n")}
		n, err := parseNote(f.Name, c.raw)
		if err != nil {
			t.Fatal(err)
		}
		if (c.kind == peerNeg) != (len(n.secrets) == 0) {
			t.Fatalf("%s: a negative must hold no labelled secret, a positive at least one", f.Name)
		}
		name := f.Name
		one := scorePeer([]peerCase{c}, func(c peerCase, n note, fs []Finding, what string) {
			// Never the secret itself: the case's syntax around a redacted value.
			t.Logf("%s %s: %q (findings %d)", what, name, redactNote(n), len(fs))
		})[c.group]
		sc := scores[c.group]
		if sc == nil {
			sc = &peerScore{}
			scores[c.group] = sc
		}
		for _, s := range []*peerScore{sc, &total} {
			s.assign += one.assign
			s.assignHit += one.assignHit
			s.bare += one.bare
			s.bareHit += one.bareHit
			s.neg += one.neg
			s.negAlarm += one.negAlarm
		}
	}
	groups := make([]string, 0, len(scores))
	for g := range scores {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	row := func(g string, sc *peerScore) {
		t.Logf("  %-17s %4d/%-4d %.3f %4d/%-4d %.3f %4d/%-4d %.3f %4d/%-4d %.3f", g,
			sc.assignHit, sc.assign, ratio(sc.assignHit, sc.assign),
			sc.bareHit, sc.bare, ratio(sc.bareHit, sc.bare),
			sc.assignHit+sc.bareHit, sc.assign+sc.bare, ratio(sc.assignHit+sc.bareHit, sc.assign+sc.bare),
			sc.negAlarm, sc.neg, 1-ratio(sc.neg-sc.negAlarm, sc.neg))
	}
	t.Logf("fresh corpus (%s):", peerFreshFile)
	t.Logf("  %-17s %15s %15s %15s %15s", "group", "assignments", "bare", "recall", "false alarms")
	for _, g := range groups {
		sc := scores[g]
		row(g, sc)
		floor := freshFloorRecall
		if f, ok := freshRecallFloors[peerFreshFile+" "+g]; ok {
			floor = f
		}
		if recall := ratio(sc.assignHit+sc.bareHit, sc.assign+sc.bare); recall < floor {
			t.Errorf("fresh corpus: group %s recall %.3f below the floor %.2f", g, recall, floor)
		}
		ceiling := freshFloorAlarms
		if c, ok := freshAlarmCeilings[peerFreshFile+" "+g]; ok {
			ceiling = c
		}
		if alarms := 1 - ratio(sc.neg-sc.negAlarm, sc.neg); alarms > ceiling {
			t.Errorf("fresh corpus: group %s false alarms %.3f above the ceiling %.2f", g, alarms, ceiling)
		}
	}
	row("all", &total)
}
