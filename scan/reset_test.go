package scan

import "sync"

// resetLazy forgets what the package builds on first use, as if the process had just started: the rules'
// matcher and expressions, the word lists, and every expression of the instruction families (not the
// automata of the order families' hint words).
func resetLazy() {
	compileOnce, compiled = sync.Once{}, nil
	lex = sync.OnceValue(newLexicon)
	pemBegin = sync.OnceValue(newPEMBegin)
	addressRegexps = lazyRegexps(addressSources)
	instructionRegexps = lazyRegexps(instructionSources)
	demandExprs = sync.OnceValue(newDemandExprs)
	compileForms(orderForms)
	leakVerb, leakPlaceExpr, leakJoinedPlaceExpr, leakTeamPlaceExpr, leakAddressExpr, leakSecretValue = newLeakExprs()
	allowFlaggedVerb = lazyRegexp(allowFlagged)
	stdinLoginRegexp = lazyRegexp(stdinLogin)
	pgpassLine = lazyRegexp(pgpass)
	toolPasswordExprs = newToolPasswordExprs()
}
