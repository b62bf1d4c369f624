package scan

import (
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestOrdinaryNotes checks that the ordinary engineering notes in testdata/ordinary.txtar, which use the words
// of the instruction and credential rules in their everyday senses, raise no finding at all.
func TestOrdinaryNotes(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/ordinary.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(ar.Files) < 40 {
		t.Fatalf("ordinary.txtar has %d notes, want at least 40", len(ar.Files))
	}
	alarms := 0
	for _, f := range ar.Files {
		for _, fd := range Text(string(f.Data)) {
			alarms++
			t.Errorf("%s: false alarm %s at %d:%d", f.Name, fd.Rule, fd.Line, fd.Column)
		}
	}
	t.Logf("ordinary notes: %d alarms on %d notes", alarms, len(ar.Files))
}
