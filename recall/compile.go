package recall

import "github.com/memoree/memoree/compiler"

// ClaimsOf converts what a compiler made of an artifact into the claims [Store.Apply] stores, each
// recorded with the compiler's name.
func ClaimsOf(r compiler.Result) []ClaimInput {
	in := make([]ClaimInput, 0, len(r.Claims))
	for _, c := range r.Claims {
		spans := make([]Span, len(c.Spans))
		for i, s := range c.Spans {
			spans[i] = Span{Start: s.Start, End: s.End}
		}
		in = append(in, ClaimInput{Key: c.Key, Text: c.Text, Kind: c.Kind, Compiler: r.Compiler, Context: c.Context, Spans: spans})
	}
	return in
}
