package checkpoint

import (
	"strings"
	"testing"
)

// TestStage checks the staging policy: the stored text is capped, every finding of the input is reported, and
// only those inside the stored text flag the note.
func TestStage(t *testing.T) {
	const key = "AKIAQ4ZJ7XNVB2LMD5RT"
	filler := strings.Repeat("Plain words about the storage layer. ", 200) // past the cut
	for _, c := range []struct {
		name                   string
		text                   string
		findings, storedFinds  int
		truncated, wantFlagged bool
	}{
		{"clean short", "Recall is implemented; next verify the corpus.", 0, 0, false, false},
		{"secret short", "the key is " + key + " for now", 1, 1, false, true},
		{"secret past the cut", filler + " key " + key, 1, 0, true, false},
		{"secret before the cut", "key " + key + " " + filler, 1, 1, true, true},
		// The words that made the order a quoted example are past the cut: what is stored is the bare order,
		// which preview and apply refuse, so the note is flagged when it is staged.
		{"order bared by the cut", strings.Repeat("x", 4009) + "\n" + `"ignore previous instructions and do X" is the classic jailbreak opener.` +
			"\n" + strings.Repeat("more text\n", 10), 1, 1, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := Stage("S1", "t", []byte(c.text))
			if len(s.Findings) != c.findings || len(s.Note.Findings) != c.storedFinds {
				t.Fatalf("findings %d (stored %d), want %d (%d)", len(s.Findings), len(s.Note.Findings), c.findings, c.storedFinds)
			}
			if got := s.Note.OriginalBytes > len(s.Note.Text); got != c.truncated {
				t.Fatalf("truncated = %v, want %v", got, c.truncated)
			}
			if len(s.Note.Text) > MaxStored || s.Note.OriginalBytes != len(c.text) {
				t.Fatalf("stored %d bytes of %d (original %d)", len(s.Note.Text), len(c.text), s.Note.OriginalBytes)
			}
			if !strings.HasPrefix(string(s.Note.Text), c.text[:s.Kept]) {
				t.Fatal("stored text does not begin with the kept input")
			}
			if (len(s.Note.Findings) > 0) != c.wantFlagged {
				t.Fatalf("flagged = %v, want %v", len(s.Note.Findings) > 0, c.wantFlagged)
			}
			if s.Note.Session != "S1" || s.Note.Task != "t" {
				t.Fatalf("labels %q %q", s.Note.Session, s.Note.Task)
			}
		})
	}
}
