package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestPrintCappedJSON checks that the cap keeps as many results as fit, not fewer, says so in has_more, and
// leaves output that fits alone.
func TestPrintCappedJSON(t *testing.T) {
	type doc struct {
		Results []string `json:"results"`
		HasMore bool     `json:"has_more"`
	}
	for _, n := range []int{0, 3, 60, 200, 1000} {
		var all []string
		for i := range n {
			all = append(all, strings.Repeat("x", 40+i%90))
		}
		v := doc{Results: all}
		var out bytes.Buffer
		e := &env{stdout: &out}
		if err := printCappedJSON(e, &v, n, func(k int) { v.Results, v.HasMore = all[:k], k < n }); err != nil {
			t.Fatal(err)
		}
		var got doc
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		k := len(got.Results)
		if out.Len() > maxOutput || got.HasMore != (k < n) {
			t.Errorf("n=%d: %d bytes, %d results, has_more %v", n, out.Len(), k, got.HasMore)
		}
		// One more result would not have fit.
		if k < n {
			var more bytes.Buffer
			if err := writeJSON(&more, doc{Results: all[:k+1], HasMore: true}); err != nil {
				t.Fatal(err)
			}
			if more.Len() <= maxOutput {
				t.Errorf("n=%d: kept %d results, but %d fit in %d bytes", n, k, k+1, more.Len())
			}
		}
	}
}
