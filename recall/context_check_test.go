package recall

import "testing"

// TestCheckContext checks which contexts an artifact holds: each part is its text, except that the first
// may be the task the artifact was written for.
func TestCheckContext(t *testing.T) {
	text := []byte("# Ledger\nGoal: recall beats BM25.")
	tests := []struct {
		task, context string
		ok            bool
	}{
		{"", "", true},
		{"", "Ledger > Goal", true},
		{"", "retrieval > Ledger", false},
		{"retrieval", "retrieval > Ledger > Goal", true},
		{"retrieval", "retrieval", true},
		{"retrieval", "Ledger > retrieval", false}, // only the first part may be the task
		{"retrieval", "ranking > Ledger", false},
		{"retrieval", "Ledger > Nothing", false},
		{"ops > db", "ops > db > Ledger > Goal", true}, // the task is taken whole
		{"ops > db", "ops > db", true},
		{"ops > db", "ops > Ledger", false},
	}
	for _, tt := range tests {
		if err := checkContext(text, tt.task, tt.context); (err == nil) != tt.ok {
			t.Errorf("checkContext(task %q, context %q) = %v, want ok %v", tt.task, tt.context, err, tt.ok)
		}
	}
}
