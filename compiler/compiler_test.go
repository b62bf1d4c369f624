package compiler

import (
	"github.com/memoree/memoree/checkpoint"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// outline renders a Result as lines in source order: "kind: text" for each claim occurrence and
// "skip reason: text" for each skipped fragment.
func outline(text string, r Result) []string {
	type line struct {
		at int
		s  string
	}
	var ls []line
	for _, c := range r.Claims {
		for _, sp := range c.Spans {
			ls = append(ls, line{sp.Start, c.Kind + ": " + text[sp.Start:sp.End]})
		}
	}
	for _, s := range r.Skipped {
		ls = append(ls, line{s.Span.Start, "skip " + s.Reason + ": " + s.Text})
	}
	slices.SortStableFunc(ls, func(a, b line) int { return a.at - b.at })
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.s
	}
	return out
}

func TestCompile(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"only white space", " \n\t\r\n  \n", nil},
		{"guidance example", "Storage recall is implemented; next verify the regression corpus.", []string{
			"fact: Storage recall is implemented",
			"next-step: next verify the regression corpus.",
		}},
		{"decision", "We decided to keep pending notes out of the index.", []string{
			"decision: We decided to keep pending notes out of the index.",
		}},
		{"decision use instead of", "Use flock instead of lock directories.", []string{
			"decision: Use flock instead of lock directories.",
		}},
		{"decision leading use", "Use SQLite FTS5 for recall.", []string{
			"decision: Use SQLite FTS5 for recall.",
		}},
		{"decision label", "Decision: keep the store schema at version 3.", []string{
			"decision: Decision: keep the store schema at version 3.",
		}},
		{"constraint only", "We deploy from the release branch only.", []string{
			"constraint: We deploy from the release branch only.",
		}},
		{"constraint never always must", "Never write note text to $TMPDIR.\nAlways fsync the directory after rename.\nThe key must be stable across versions.\nDon't print secrets to stdout.", []string{
			"constraint: Never write note text to $TMPDIR.",
			"constraint: Always fsync the directory after rename.",
			"constraint: The key must be stable across versions.",
			"constraint: Don't print secrets to stdout.",
		}},
		{"preference", "I prefer table tests over many small tests.\nprefer short package names", []string{
			"preference: I prefer table tests over many small tests.",
			"preference: prefer short package names",
		}},
		{"next steps", "TODO: add a fuzz test for the query parser\nNext: wire recall into the CLI.\nThen update the man page.\nWe need to bump the schema version.", []string{
			"next-step: TODO: add a fuzz test for the query parser",
			"next-step: Next: wire recall into the CLI.",
			"next-step: Then update the man page.",
			"next-step: We need to bump the schema version.",
		}},
		{"fact", "The recall store lives in the XDG data directory.", []string{
			"fact: The recall store lives in the XDG data directory.",
		}},
		{"progress reports are kept, acknowledgements are not", "ran the tests\nlooking into it\nWorking on the parser now.\nok\ndone.\nlet me check\nstill investigating\nI'm now checking the logs.\nLet's see what breaks.", []string{
			"fact: ran the tests",
			"fact: looking into it",
			"fact: Working on the parser now.",
			"skip greeting or acknowledgement: ok",
			"skip greeting or acknowledgement: done.",
			"fact: let me check",
			"skip greeting or acknowledgement: still investigating",
			"fact: I'm now checking the logs.",
			"fact: Let's see what breaks.",
		}},
		{"ordinary facts are kept", "I ran the 10k for the shelter on Sunday.\nWe're thinking about moving the offsite to March.", []string{
			"fact: I ran the 10k for the shelter on Sunday.",
			"fact: We're thinking about moving the offsite to March.",
		}},
		{"greetings and acknowledgements", "Hi Priya!\nThanks a lot.\nNice work, Tomasz!\nGood morning everyone\nSounds good, Priya, go ahead with the beagle.\nThanks for the beagle photos.", []string{
			"skip greeting or acknowledgement: Hi Priya!",
			"skip greeting or acknowledgement: Thanks a lot.",
			"skip greeting or acknowledgement: Nice work, Tomasz!",
			"skip greeting or acknowledgement: Good morning everyone",
			"fact: Sounds good, Priya, go ahead with the beagle.",
			"fact: Thanks for the beagle photos.",
		}},
		{"gerund subject is not chatter", "Testing requires a writable data directory.\nRan into a deadlock when two writers race.", []string{
			"constraint: Testing requires a writable data directory.",
			"fact: Ran into a deadlock when two writers race.",
		}},
		{"chatter with a strong cue is kept", "Looking at it again, we decided to drop the cache.", []string{
			"decision: Looking at it again, we decided to drop the cache.",
		}},
		{"filler", "Hmm.\nOkay so\nAnyway\nhmmmm...", []string{
			"skip filler: Hmm.",
			"skip filler: Okay so",
			"skip filler: Anyway",
			"skip filler: hmmmm...",
		}},
		{"short statements are kept", "Recall works.\n- flaky\n- 42", []string{
			"fact: Recall works.",
			"fact: flaky",
			"fact: 42",
		}},
		// No letter or digit: nothing the index could ever find it by, and "!!!!" has no key at all.
		{"no words is no statement", "→\nDagny (24 May 2026): !!!! Congratulations to both of you!\n- :)\n- ?!", []string{
			"skip no words: →",
			"skip no words: !!!!",
			"fact: Congratulations to both of you!",
			"skip no words: :)",
			"skip no words: ?!",
		}},
		{"questions are kept", "Why does the FTS5 index grow so fast?\nQuestion: whether to vacuum nightly", []string{
			"fact: Why does the FTS5 index grow so fast?",
			"fact: whether to vacuum nightly",
		}},
		{"headings", "## Status\nStatus:\n**Notes**\nThe following was agreed on:\n# \n", []string{
			"skip heading: ## Status",
			"skip heading: Status:",
			"skip heading: **Notes**",
			"skip heading: The following was agreed on:",
			"skip heading: #",
		}},
		{"separator", "The first part is done here.\n---\n* * *\nThe second part is done too.", []string{
			"fact: The first part is done here.",
			"skip separator: ---",
			"skip separator: * * *",
			"fact: The second part is done too.",
		}},
		{"code block", "Run this to rebuild the index:\n```sh\nmemoree reindex; echo done. Then exit\n```\nThe rebuild takes a minute.", []string{
			"skip heading: Run this to rebuild the index:",
			"skip code block: ```sh\nmemoree reindex; echo done. Then exit\n```",
			"fact: The rebuild takes a minute.",
		}},
		{"unclosed code block", "~~~\nnever closed; at all\n\n", []string{
			"skip code block: ~~~\nnever closed; at all",
		}},
		{"markers", "- bullet one is here\n* bullet two is here\n+ bullet three is here\n• bullet four is here\n1. number one is here\n2) number two is here\na) letter one is here\n(3) paren three is here\n> quoted line is here\n- [x] done box is here", []string{
			"fact: bullet one is here",
			"fact: bullet two is here",
			"fact: bullet three is here",
			"fact: bullet four is here",
			"fact: number one is here",
			"fact: number two is here",
			"fact: letter one is here",
			"fact: paren three is here",
			"fact: quoted line is here",
			"fact: done box is here",
		}},
		{"bare markers", "-\n1.\n- [ ]\n>", nil},
		{"open task box is a next step", "- [ ] the parser handles quotes", []string{
			"next-step: the parser handles quotes",
		}},
		{"section heading names the kind", "## Decisions\n- SQLite with FTS5 for recall\n## Next steps\n- the regression corpus gets verified\n## Notes\n- the corpus has 40 notes", []string{
			"skip heading: ## Decisions",
			"decision: SQLite with FTS5 for recall",
			"skip heading: ## Next steps",
			"next-step: the regression corpus gets verified",
			"skip heading: ## Notes",
			"fact: the corpus has 40 notes",
		}},
		{"label line names the kind of its list", "Constraints:\n- notes stay under 4 KiB\n- pending text stays out of recall\nThe list ended above.\n- this item is a plain fact", []string{
			"skip heading: Constraints:",
			"constraint: notes stay under 4 KiB",
			"constraint: pending text stays out of recall",
			"fact: The list ended above.",
			"fact: this item is a plain fact",
		}},
		{"label carries along the line", "TODO: add tests. Update the golden files.", []string{
			"next-step: TODO: add tests.",
			"next-step: Update the golden files.",
		}},
		{"cues beat a section", "## Next steps\n- never push to main directly", []string{
			"skip heading: ## Next steps",
			"constraint: never push to main directly",
		}},
		{"more cues", "We switched to modernc SQLite.\nSettled on bm25 for ranking.\nDrop the cache in favor of FTS5.\nA note is at most 4 KiB.\nThe index takes more than a second.\nWe'd rather keep one binary.\nNo secrets in the recall store.", []string{
			"decision: We switched to modernc SQLite.",
			"decision: Settled on bm25 for ranking.",
			"decision: Drop the cache in favor of FTS5.",
			"constraint: A note is at most 4 KiB.",
			"fact: The index takes more than a second.",
			"preference: We'd rather keep one binary.",
			"constraint: No secrets in the recall store.",
		}},
		{"task boxes", "- [ ] read the FTS5 ranking docs\n- [x] ran the full test suite", []string{
			"next-step: read the FTS5 ranking docs",
			"fact: ran the full test suite",
		}},
		{"a section names the kind of what it holds", "## Next steps\nLooking into the flaky lock test now.", []string{
			"skip heading: ## Next steps",
			"next-step: Looking into the flaky lock test now.",
		}},
		{"crlf", "Recall is implemented now.\r\n- next wire it into the CLI\r\nok\r\n", []string{
			"fact: Recall is implemented now.",
			"next-step: next wire it into the CLI",
			"skip greeting or acknowledgement: ok",
		}},
		{"duplicates", "Recall is implemented now.\n- recall is  implemented NOW\nSomething else is true here.", []string{
			"fact: Recall is implemented now.",
			"fact: recall is  implemented NOW",
			"fact: Something else is true here.",
		}},
		{"sentences", "The store is ready. The CLI is not! Is the man page done? Yes it is; we ship it today.", []string{
			"fact: The store is ready.",
			"fact: The CLI is not!",
			"fact: Is the man page done?",
			"fact: Yes it is",
			"fact: we ship it today.",
		}},
		{"no split on lowercase after a period", "It failed at step three. then it recovered on its own.", []string{
			"fact: It failed at step three. then it recovered on its own.",
		}},
		{"no split", strings.Join([]string{
			"Use a short key, e.g. The SHA of the text.",
			"Keep both forms, i.e. The raw and the folded one.",
			"Files, dirs, etc. Are all created 0700.",
			"Compare SQLite vs. Bolt before the release.",
			"Dr. Smith reviewed the schema change.",
			"Upgrade to v1.2 before the schema moves to 3.14 layout.",
			"The entry point is main.go and docs are in README.md for now.",
			"The spec is at https://example.com/a.b?c=d. Read it.",
			"The threshold is 0.75 for all queries today.",
			"The server listens on 10.0.0.1 and 192.168.1.20 only.",
			"Wrap it as `a. B; c` in the template file.",
			"The flag (see cmd. Main; below) is documented.",
			"J. R. Smith wrote the recall ranking.",
		}, "\n"), []string{
			"decision: Use a short key, e.g. The SHA of the text.",
			"fact: Keep both forms, i.e. The raw and the folded one.",
			"fact: Files, dirs, etc. Are all created 0700.",
			"fact: Compare SQLite vs. Bolt before the release.",
			"fact: Dr. Smith reviewed the schema change.",
			"fact: Upgrade to v1.2 before the schema moves to 3.14 layout.",
			"fact: The entry point is main.go and docs are in README.md for now.",
			"fact: The spec is at https://example.com/a.b?c=d.",
			"fact: Read it.",
			"fact: The threshold is 0.75 for all queries today.",
			"constraint: The server listens on 10.0.0.1 and 192.168.1.20 only.",
			"fact: Wrap it as `a. B; c` in the template file.",
			"fact: The flag (see cmd. Main; below) is documented.",
			"fact: J. R. Smith wrote the recall ranking.",
		}},
		{"semicolon without space does not split", "Set PRAGMA journal_mode=wal;busy_timeout=5000 on open.", []string{
			"fact: Set PRAGMA journal_mode=wal;busy_timeout=5000 on open.",
		}},
		{"non-ASCII", "Die Notizen bleiben lokal gespeichert. 提交前必须审查所有笔记", []string{
			"fact: Die Notizen bleiben lokal gespeichert.",
			"fact: 提交前必须审查所有笔记",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Rules.Compile(tt.text, Source{})
			got := outline(tt.text, r)
			if !reflect.DeepEqual(got, tt.want) && (len(got) != 0 || len(tt.want) != 0) {
				t.Errorf("Compile(%q):\ngot  %q\nwant %q", tt.text, got, tt.want)
			}
			checkResult(t, tt.text, Source{}, r)
		})
	}
}

func TestCompileDuplicates(t *testing.T) {
	text := "- Recall is implemented.\n- other claim stays here\n- recall   IS implemented\n"
	r := Rules.Compile(text, Source{})
	if len(r.Claims) != 2 {
		t.Fatalf("got %d claims, want 2: %+v", len(r.Claims), r.Claims)
	}
	c := r.Claims[0]
	want := Claim{
		Key:   "recall is implemented",
		Text:  "Recall is implemented.",
		Kind:  Fact,
		Spans: []Span{{2, 24}, {52, 75}},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("first claim:\ngot  %+v\nwant %+v", c, want)
	}
	if got := text[c.Spans[1].Start:c.Spans[1].End]; got != "recall   IS implemented" {
		t.Errorf("second span = %q", got)
	}
	if r.Claims[1].Text != "other claim stays here" {
		t.Errorf("second claim = %q, want the claim in order of first occurrence", r.Claims[1].Text)
	}
}

func TestCompileSpans(t *testing.T) {
	text := "  -   We decided to use flock.  \r\n1.\tNext: remove the lock dir;  never reuse it \n"
	r := Rules.Compile(text, Source{})
	want := []Claim{
		{Key: "we decided to use flock", Text: "We decided to use flock.", Kind: Decision, Spans: []Span{{6, 30}}},
		{Key: "next: remove the lock dir", Text: "Next: remove the lock dir", Kind: NextStep, Spans: []Span{{37, 62}}},
		{Key: "never reuse it", Text: "never reuse it", Kind: Constraint, Spans: []Span{{65, 79}}},
	}
	if !reflect.DeepEqual(r.Claims, want) {
		t.Errorf("claims:\ngot  %+v\nwant %+v", r.Claims, want)
	}
	if len(r.Skipped) != 0 {
		t.Errorf("skipped = %+v, want none", r.Skipped)
	}
}

func TestCompileEmpty(t *testing.T) {
	r := Rules.Compile("", Source{Kind: "checkpoint"})
	if r.Compiler != "rules/5" || r.Claims == nil || r.Skipped == nil || len(r.Claims)+len(r.Skipped) != 0 {
		t.Errorf("Compile(\"\") = %#v, want rules/5 with empty, non-nil slices", r)
	}
}

func TestName(t *testing.T) {
	if got := Rules.Name(); got != "rules/5" {
		t.Errorf("Name() = %q", got)
	}
	if got := Rules.Compile("The store is ready now.", Source{}).Compiler; got != Rules.Name() {
		t.Errorf("Result.Compiler = %q, want %q", got, Rules.Name())
	}
}

// TestCompileSource checks that of the source only the task changes the result, and only the claims'
// context: kind and session leave it as it is, and a task heads every context without touching the text,
// the spans or the keys.
func TestCompileSource(t *testing.T) {
	text := "We decided to use flock.\nran the tests"
	a := Rules.Compile(text, Source{})
	if b := Rules.Compile(text, Source{Kind: "checkpoint", Session: "s1"}); !reflect.DeepEqual(a, b) {
		t.Errorf("results differ by kind and session:\n%+v\n%+v", a, b)
	}
	b := Rules.Compile(text, Source{Kind: "checkpoint", Session: "s1", Task: "locking"})
	if len(b.Claims) != len(a.Claims) {
		t.Fatalf("a task changed the claims:\n%+v\n%+v", a, b)
	}
	for i := range b.Claims {
		if b.Claims[i].Context != "locking" {
			t.Errorf("claim %q has context %q, want the task", b.Claims[i].Text, b.Claims[i].Context)
		}
		b.Claims[i].Context = a.Claims[i].Context
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("a task changed more than the context:\n%+v\n%+v", a, b)
	}
}

func TestCompileConcurrent(t *testing.T) {
	text := note4K(t)
	want := Rules.Compile(text, Source{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if got := Rules.Compile(text, Source{}); !reflect.DeepEqual(got, want) {
				t.Error("concurrent Compile differs")
			}
		})
	}
	wg.Wait()
}

func TestKey(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"Storage recall is implemented.", "storage recall is implemented"},
		{"  Storage \t recall\r\n is   implemented  ", "storage recall is implemented"},
		{"Done?!...", "done"},
		{"Next: verify it ;", "next: verify it"},
		{"José runs it", "josé runs it"},                      // NFC
		{"Jose\u0301 runs it", "josé runs it"},                // NFD folds to the same key
		{"STRASSE", "strasse"},                                // case
		{"Straße", "strasse"},                                 // ß folds to ss
		{"ΣΊΣΥΦΟΣ", "σίσυφοσ"},                                // final sigma folds to σ
		{"a\u00a0b\u3000c", "a b c"},                          // Unicode white space
		{"v1.2 ships.", "v1.2 ships"},                         // only trailing punctuation goes
		{"Wait…", "wait"},                                     // ellipsis
		{"Ꮌ and ꮌ", "Ꮌ and Ꮌ"},                                // Cherokee folds to uppercase, as Unicode says
		{"bad \xff byte.", "bad \xff byte"},                   // invalid UTF-8 kept as is
		{"Ünïcödé \xff and ASCII.", "ünïcödé \xff and ascii"}, // also in non-ASCII text
	}
	for _, tt := range tests {
		got := Key(tt.in)
		if got != tt.want {
			t.Errorf("Key(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := Key(got); again != got {
			t.Errorf("Key(Key(%q)) = %q, want %q", tt.in, again, got)
		}
	}
	if Key("José") != Key("Jose\u0301") || Key("Straße") != Key("STRASSE") {
		t.Error("equivalent statements have different keys")
	}
}

func TestCompileContext(t *testing.T) {
	tests := []struct {
		name string
		text string
		task string
		want []string // "text | context" for each claim
	}{
		{"task over everything", "# Ledger\nGoal: recall beats BM25.\nNext: tune on the tune half only.", "retrieval", []string{
			"recall beats BM25. | retrieval > Ledger > Goal",
			"Next: tune on the tune half only. | retrieval > Ledger",
		}},
		{"task, title under it", "Tuning the ranker\n\nThe tune half is done.", "retrieval", []string{
			"Tuning the ranker | retrieval",
			"The tune half is done. | retrieval > Tuning the ranker",
		}},
		{"speaker and date prefix", "Priya (12 March 2026): We adopted a beagle last week! His name is Biscuit.", "", []string{
			"We adopted a beagle last week! | Priya (12 March 2026)",
			"His name is Biscuit. | Priya (12 March 2026)",
		}},
		{"handoff label and a label inside the line", "Ines's handoff: the exporter writes one CSV per month. Still open: PDF amounts are broken.", "", []string{
			"the exporter writes one CSV per month. | Ines's handoff",
			"PDF amounts are broken. | Ines's handoff > Still open",
		}},
		{"headings above", "# Ledger\n## Reconciliation\nThe job runs at 02:00 UTC.\n## Owners\n- Aiko owns the job", "", []string{
			"The job runs at 02:00 UTC. | Ledger > Reconciliation",
			"Aiko owns the job | Ledger > Owners",
		}},
		{"title line", "FW-233: profile page crashes for guests\n\nRoot cause: user_id is null for guests.", "", []string{
			"profile page crashes for guests | FW-233",
			"user_id is null for guests. | FW-233: profile page crashes for guests > Root cause",
		}},
		{"list intro", "Decisions:\n- keep SQLite\n- drop the cache\n\nA new paragraph starts here.", "", []string{
			"keep SQLite | Decisions",
			"drop the cache | Decisions",
			"A new paragraph starts here. | ",
		}},
		{"intro over a paragraph", "Ines's handoff:\nThe exporter is done.\nThe PDF is broken.", "", []string{
			"The exporter is done. | Ines's handoff",
			"The PDF is broken. | Ines's handoff",
		}},
		{"a kind label stays in the text", "TODO: add tests for the parser", "", []string{
			"TODO: add tests for the parser | ",
		}},
		{"a statement with a colon is not a label", "The fix is simple: retry once.\nWe have two options: A or B.\nSee https://example.com: it works.\nMeet at 12:30 today.", "", []string{
			"The fix is simple: retry once. | ",
			"We have two options: A or B. | ",
			"See https://example.com: it works. | ",
			"Meet at 12:30 today. | ",
		}},
		{"fields on one line", "Goal: ship the importer. Decision: the import runs at 02:00. Next: add retries. Root cause: a null id. Fix: a guard.", "", []string{
			"ship the importer. | Goal",
			"Decision: the import runs at 02:00. | ",
			"Next: add retries. | ",
			"a null id. | Root cause",
			"a guard. | Fix",
		}},
		{"a speaker's fields stay the speaker's", "Priya (3 March): we keep SQLite. Decision: no cache. Why: it is fast enough.", "", []string{
			"we keep SQLite. | Priya (3 March)",
			"Decision: no cache. | Priya (3 March)",
			"it is fast enough. | Priya (3 March) > Why",
		}},
		{"non-ASCII label", "Hinweis für alle im Büro München: Das Büro schließt um 18 Uhr.", "", []string{
			"Das Büro schließt um 18 Uhr. | Hinweis für alle im Büro München",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Rules.Compile(tt.text, Source{Task: tt.task})
			checkResult(t, tt.text, Source{Task: tt.task}, r)
			var got []string
			for _, c := range r.Claims {
				got = append(got, c.Text+" | "+c.Context)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Compile(%q):\ngot  %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

// TestCompileTruncated checks that the marker checkpoint.Cap appends, and the statement it cut short,
// are never claims, and that a marker Cap did not write is an ordinary line.
func TestCompileTruncated(t *testing.T) {
	long := strings.Repeat("The sync worker retries five times before it gives up. ", 80)
	stored, kept := checkpoint.Cap([]byte("The first line is complete.\n" + long))
	text := string(stored)
	r := Rules.Compile(text, Source{})
	checkResult(t, text, Source{}, r)
	for _, c := range r.Claims {
		if strings.Contains(c.Text, "memoree:") {
			t.Errorf("marker became claim %q", c.Text)
		}
		if c.Spans[len(c.Spans)-1].End > kept {
			t.Errorf("claim %q reaches past the cut at %d", c.Text, kept)
		}
	}
	var reasons []string
	for _, s := range r.Skipped {
		reasons = append(reasons, s.Reason)
	}
	if len(reasons) < 2 || reasons[len(reasons)-2] != reasonTruncated || reasons[len(reasons)-1] != reasonMarker {
		t.Errorf("skips end with %q, want the cut fragment, then the marker", reasons)
	}
	frag := r.Skipped[len(r.Skipped)-2]
	if frag.Span.End != kept || strings.HasSuffix(frag.Text, ".") {
		t.Errorf("fragment %q ends at %d, want the unfinished statement ending at %d", frag.Text, frag.Span.End, kept)
	}

	// Cut at a line end: nothing is a fragment.
	lines := strings.Repeat("A complete line about the sync worker is here.\n", 200)
	stored, kept = checkpoint.Cap([]byte(lines[:4000] + "\n" + lines))
	text = string(stored)
	r = Rules.Compile(text, Source{})
	checkResult(t, text, Source{}, r)
	for _, s := range r.Skipped {
		if s.Reason == reasonTruncated && strings.HasSuffix(s.Text, ".") && s.Span.End < kept {
			t.Errorf("complete statement %q skipped as a fragment", s.Text)
		}
	}

	// Written by hand, with a count that does not match, the marker is text like any other.
	fake := "Keep this line.\n[memoree: truncated: kept 3 of 9 bytes]\n"
	r = Rules.Compile(fake, Source{})
	if got := outline(fake, r); len(got) != 2 || got[1] != "fact: [memoree: truncated: kept 3 of 9 bytes]" {
		t.Errorf("hand-written marker: %q", got)
	}
}
