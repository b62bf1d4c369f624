package scan

import "sync"

// resetLazy forgets everything the package builds on first use, as if the process had just started.
func resetLazy() {
	compileOnce, compiled = sync.Once{}, nil
	lex = sync.OnceValue(newLexicon)
	pemBegin = sync.OnceValue(newPEMBegin)
}
