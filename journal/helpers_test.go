package journal

import (
	"encoding/json"
	"testing"
)

func mustMarshal(t *testing.T, e Entry) []byte {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
