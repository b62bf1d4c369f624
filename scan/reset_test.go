package scan

import (
	"regexp"
	"sync"
)

// resetLazy forgets everything the package builds on first use, as if the process had just started.
func resetLazy() {
	compileOnce, compiled = sync.Once{}, nil
	lex = sync.OnceValue(newLexicon)
	pemBegin = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`-{4,5} ?BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY(?: BLOCK)? ?-{4,5}`)
	})
}
