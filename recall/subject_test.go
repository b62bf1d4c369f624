package recall

import (
	"slices"
	"strings"
	"testing"
)

// TestSupersedeNotes checks the note rule of supersede: a claim of a newer note about the same subject as
// an older note moves ahead of the older note's claim though their own words differ, when it scores within
// noteRecencyMargin; a newer note on another subject, or one that scores far lower, stays behind.
func TestSupersedeNotes(t *testing.T) {
	const (
		oldNote = "Ledger database facts: the ledger runs on PostgreSQL 14 on a managed instance with 4 vCPUs and 32 GB of memory."
		update  = "Ledger database upgrade done: the ledger is on PostgreSQL 16 now, on a new managed instance, same 4 vCPUs and 32 GB."
		other   = "Ledger reconciliation runs every night against the bank statement and files a ticket for each mismatch."
	)
	tests := []struct {
		name       string
		query      string
		newerNote  string
		newerScore float64
		want       []int64 // claim ids, best first
	}{
		{"update within the note margin", "ledger database version", update, 3 - noteRecencyMargin + 0.1, []int64{2, 1}},
		{"update too far below", "ledger database version", update, 3 - noteRecencyMargin - 0.1, []int64{1, 2}},
		{"another subject", "ledger database version", other, 3 - recencyMargin - 0.1, []int64{1, 2}},
		// A question about what happened: the newer note is no reason to rank ahead.
		{"asked in the past tense", "which ledger database version did we run", update, 3 - noteRecencyMargin + 0.1, []int64{1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := parseQuery(tt.query)
			top := []hit{
				{id: 1, score: 3, cover: 0b111, created: 1, note: 10, f: [4]string{"the ledger runs on PostgreSQL 14 on a managed instance", "fact", "Ledger database facts", "active"}},
				{id: 2, score: tt.newerScore, cover: 0b011, created: 2, note: 20, f: [4]string{"Same size, 4 vCPUs and 32 GB.", "fact", "Ledger database upgrade done", "active"}},
			}
			updatesFirst(&q, top, subjectsOf(map[int64]string{10: oldNote, 20: tt.newerNote}))
			var got []int64
			for _, h := range top {
				got = append(got, h.id)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("order %v, want %v", got, tt.want)
			}
		})
	}
}

// TestShortNotesComparedAsClaims: two turns of a chat, one line each, share their month and two words, which
// is enough for the note rule's overlap but not its count of shared words; they are compared as claims, so
// the newer turn, which scores beyond recencyMargin below, stays behind the turn that answers (notes that
// share more words still move: TestSupersedeNotes).
func TestShortNotesComparedAsClaims(t *testing.T) {
	const (
		answer = "José (15 August 2026): She loved Leeds, and she cried when Toffee leaned on her."
		later  = "Zoë (15 August 2026): Toffee leans on everyone, she does that."
	)
	q := parseQuery("Lucia cried when Toffee leaned on her")
	top := []hit{
		{id: 1, score: 3, cover: 0b1111, created: 1, note: 10, f: [4]string{"She loved Leeds, and she cried when Toffee leaned on her.", "fact", "José (15 August 2026)", "active"}},
		{id: 2, score: 3 - recencyMargin - 0.3, cover: 0b1100, created: 2, note: 20, f: [4]string{"Toffee leans on everyone, she does that.", "fact", "Zoë (15 August 2026)", "active"}},
	}
	subjects := subjectsOf(map[int64]string{10: answer, 20: later})
	if jaccard(subjects.words[10], subjects.words[20]) < sameSubjectNote {
		t.Fatalf("the turns share %.2f of their words, want at least %.2f for the test to mean something",
			jaccard(subjects.words[10], subjects.words[20]), sameSubjectNote)
	}
	updatesFirst(&q, top, subjects)
	if top[0].id != 1 {
		t.Errorf("the later turn moved ahead of the answer: order %d, %d", top[0].id, top[1].id)
	}
}

// TestSupersedeNotesLeadOnly: under the note rule a newer note moves ahead of an older claim with its best
// claim only; its other claims, which may state something else, keep their place below the older claim.
func TestSupersedeNotesLeadOnly(t *testing.T) {
	const (
		oldNote = "Ledger database facts: the ledger runs on PostgreSQL 14 on a managed instance with 4 vCPUs and 32 GB of memory."
		update  = "Ledger database upgrade done: the ledger is on PostgreSQL 16 now, on a new managed instance, same 4 vCPUs and 32 GB."
	)
	q := parseQuery("ledger database version")
	within := 3 - noteRecencyMargin + 0.1
	top := []hit{
		{id: 1, score: 3, cover: 0b111, created: 1, note: 10, f: [4]string{"the ledger runs on PostgreSQL 14 on a managed instance", "fact", "Ledger database facts", "active"}},
		{id: 2, score: within + 0.05, cover: 0b011, created: 2, note: 20, f: [4]string{"Same size, 4 vCPUs and 32 GB.", "fact", "Ledger database upgrade done", "active"}},
		{id: 3, score: within, cover: 0b011, created: 2, note: 20, f: [4]string{"The old instance is kept for a week.", "fact", "Ledger database upgrade done", "active"}},
	}
	updatesFirst(&q, top, subjectsOf(map[int64]string{10: oldNote, 20: update}))
	var got []int64
	for _, h := range top {
		got = append(got, h.id)
	}
	if want := []int64{2, 1, 3}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestSupersedeNotesChain: each note of a weekly series is about the same subject as the one before, and
// each scores within noteRecencyMargin of it, but the newest scores further below the oldest, which answers.
// The margin holds against every claim a newer one would pass, so a chain of moves cannot carry a claim
// above one it could not pass by itself.
func TestSupersedeNotesChain(t *testing.T) {
	const (
		week1 = "Weekly digest, week of 12 January: tickets, heating, Chromebooks, CCTV and who is away this week."
		week2 = "Weekly digest, week of 26 January: tickets, heating, Chromebooks, CCTV and who is away this week."
		week3 = "Weekly digest, week of 9 March: tickets, heating, Chromebooks, CCTV and who is away this week."
	)
	q := parseQuery("weekly digest 12 January oldest open ticket")
	step := noteRecencyMargin - 0.6
	top := []hit{
		{id: 1, score: 3, cover: 0b111111, created: 1, note: 10, f: [4]string{"Oldest open ticket is IT-193.", "fact", "Weekly digest, week of 12 January", "active"}},
		{id: 2, score: 3 - step, cover: 0b010111, created: 2, note: 20, f: [4]string{"44 raised, 39 closed.", "fact", "Weekly digest, week of 26 January", "active"}},
		{id: 3, score: 3 - 2*step, cover: 0b000111, created: 3, note: 30, f: [4]string{"12 staff left to register.", "fact", "Weekly digest, week of 9 March", "active"}},
	}
	subjects := subjectsOf(map[int64]string{10: week1, 20: week2, 30: week3})
	for _, p := range [][2]int64{{10, 20}, {20, 30}, {10, 30}} {
		if !subjects.same(p[0], p[1]) {
			t.Fatalf("notes %d and %d are not about the same subject; the test means nothing", p[0], p[1])
		}
	}
	updatesFirst(&q, top, subjects)
	var got []int64
	for _, h := range top {
		got = append(got, h.id)
	}
	// The second week may pass the first; the third may not pass the first, however it came to rank below
	// the second.
	if want := []int64{2, 1, 3}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestUpdatesFirstStates: for a question that asks for a contact, a newer claim that states none does not
// move ahead of an older one that states it, whatever rule would move it; one that states it too does.
func TestUpdatesFirstStates(t *testing.T) {
	const (
		oldNote = "Supplier contacts: Katrin Vogel is our account manager at Schliesswerk, k.vogel@schliesswerk.example."
		update  = "Supplier contacts: Katrin Vogel is our account manager at Schliesswerk now, and she confirmed the delivery."
	)
	for _, newerStates := range []float64{0, 1} {
		q := parseQuery("Katrin Vogel email address")
		top := []hit{
			{id: 1, score: 3, cover: 0b0011, created: 1, note: 10, f: [4]string{"Katrin Vogel, k.vogel@schliesswerk.example.", "fact", "Supplier contacts", "active"}},
			{id: 2, score: 3 - recencyMargin + 0.1, cover: 0b0011, created: 2, note: 20, f: [4]string{"Katrin Vogel is our account manager at Schliesswerk now.", "fact", "Supplier contacts", "active"}},
		}
		top[0].signals[sigStates], top[1].signals[sigStates] = 1, newerStates
		updatesFirst(&q, top, subjectsOf(map[int64]string{10: oldNote, 20: update}))
		want := int64(1)
		if newerStates == 1 {
			want = 2
		}
		if top[0].id != want {
			t.Errorf("newer claim states the contact: %v; order %d, %d, want %d first", newerStates == 1, top[0].id, top[1].id, want)
		}
	}
}

// TestUpdatesFirstClaimRules checks the claim rules of updatesFirst: a newer claim that says the same as an
// older one moves ahead of it unless it scores more than statementMargin lower, and claims whose texts share
// no word never count as saying the same, however much their contexts (a speaker and a date) share.
func TestUpdatesFirstClaimRules(t *testing.T) {
	tests := []struct {
		name         string
		older, newer [2]string // text, context
		newerScore   float64
		newerFirst   bool
		newerCover   uint64
	}{
		{"restated, a little lower", [2]string{"Leeds to Lisbon on Jet2 is about 140 return for 11 to 14 June", "Zoë (21 March 2026)"},
			[2]string{"Jet2 from Leeds to Lisbon is now 160 return for 11 to 14 June", "Zoë (2 April 2026)"}, 3 - recencyMargin - 0.1, true, 0b1111},
		{"restated, within the statement margin", [2]string{"Leeds to Lisbon on Jet2 is about 140 return for 11 to 14 June", "Zoë (21 March 2026)"},
			[2]string{"Jet2 from Leeds to Lisbon is now 160 return for 11 to 14 June", "Zoë (2 April 2026)"}, 3 - statementMargin + 0.1, true, 0b0111},
		// A short turn says the same as an older one by its speaker and a shared word ("going"), but holds
		// little of what the query asks: it states something else.
		{"restated, far lower", [2]string{"I'm going to be tío.", "Rafa (6 April 2025)"},
			[2]string{"I'm still going.", "Rafa (10 May 2026)"}, 3 - statementMargin - 0.1, false, 0b0001},
		{"only the speaker and date shared", [2]string{"I adopted a dog!", "Zoë (4 July 2026)"},
			[2]string{"More than okay.", "Zoë (4 July 2026)"}, 0.5, false, 0b0001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := parseQuery("Zoë Jet2 Lisbon adopt")
			top := []hit{
				{id: 1, score: 3, cover: 0b1111, created: 1, note: 10, f: [4]string{tt.older[0], "fact", tt.older[1], "active"}},
				{id: 2, score: tt.newerScore, cover: tt.newerCover, created: 2, note: 20, f: [4]string{tt.newer[0], "fact", tt.newer[1], "active"}},
			}
			ids := map[string]int32{}
			_, wo := subjectWords(tt.older[0], tt.older[1], ids)
			_, wn := subjectWords(tt.newer[0], tt.newer[1], ids)
			if v := jaccard(wo, wn); strings.HasPrefix(tt.name, "restated") && v < sameStatement {
				t.Fatalf("the claims' words overlap by %.2f, want at least %.2f for the test to mean something", v, sameStatement)
			}
			updatesFirst(&q, top, subjectsOf(nil))
			if got := top[0].id == 2; got != tt.newerFirst {
				t.Errorf("newer claim first: %v, want %v", got, tt.newerFirst)
			}
		})
	}
}

// TestUpdatesFirstQueryCover: two claims in other words that both hold most of what the query asks are about
// its subject, so the newer moves ahead within recencyMargin; when the newer holds less of the query, they
// are not, and it stays behind.
func TestUpdatesFirstQueryCover(t *testing.T) {
	const (
		older = "`feature/<TICKET>-<short-desc>`, for example `feature/BLD-52-parallel-cook`."
		newer = "New branches are named after the author's initials and the ticket: `ml/BLD-81-ddc-warmup`."
	)
	tests := []struct {
		name        string
		newerCover  float64
		wantNewerUp bool
	}{
		{"both hold most of the query", queryCover, true},
		{"the newer holds less of it", queryCover - 0.2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := parseQuery("how should I name a new git branch")
			top := []hit{
				{id: 1, score: 3, cover: 0b0111, coverage: 0.8, created: 1, note: 10, f: [4]string{older, "fact", "Git conventions for all repositories", "active"}},
				{id: 2, score: 3 - recencyMargin + 0.2, cover: 0b0111, coverage: tt.newerCover, created: 2, note: 20, f: [4]string{newer, "fact", "Tools guild, 9 April", "active"}},
			}
			updatesFirst(&q, top, subjectsOf(nil))
			if got := top[0].id == 2; got != tt.wantNewerUp {
				t.Errorf("newer claim first: %v, want %v", got, tt.wantNewerUp)
			}
		})
	}
}

// subjectsOf returns the note subjects of the notes' texts, by artifact id, as noteSubjects loads them.
func subjectsOf(notes map[int64]string) noteSubjects {
	out := noteSubjects{words: map[int64][]uint64{}, ids: map[string]int32{}}
	for id, text := range notes {
		w, _ := noteWords(nil, text, nil)
		slices.Sort(w)
		out.words[id] = slices.Compact(w)
	}
	return out
}
