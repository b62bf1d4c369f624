package scan

//go:generate go test -run ^TestKeywordTables$ -update

import (
	"strconv"
	"strings"
)

// automaton is an Aho–Corasick matcher over ASCII-lowercased bytes: one pass over the text reports every
// occurrence of every keyword, so the cost of the prefilter does not grow with the number of rules.
//
// The automata for the rule keywords and the placeholder marks are generated ahead of time into
// automaton_table.go as static data, so a process pays nothing to build them and touches only the pages it
// reads; [buildAutomaton] is the reference they are generated from, and a test fails when they differ.
type automaton struct {
	class  [256]uint8 // byte → input class; 0 for bytes that occur in no keyword
	nclass int
	// next[state*nclass+class] is the next state, premultiplied by nclass, so the scan loop does one load per
	// byte. States are numbered breadth-first, so the shallow states most texts visit share a few pages, and
	// states in which keywords end come last: next >= outFrom tests for a match.
	next    []uint32
	outFrom int
	// The keywords ending in state outFrom/nclass+i are outList[outStart[i]:outStart[i+1]].
	outStart []uint16
	outList  []uint16
	lens     []int // keyword → length in bytes
	maxLen   int   // the longest keyword's length
}

// separators share one input class: a keyword written api_key also matches api-key, api.key and "api key".
const separators = "_-. "

// isSeparator reports whether c is one of [separators], without a call per byte.
func isSeparator(c byte) bool { return c == '_' || c == '-' || c == '.' || c == ' ' }

// buildAutomaton builds the matcher; fold makes the separators one class.
func buildAutomaton(words []string, fold bool) *automaton {
	a := &automaton{nclass: 1, lens: make([]int, len(words))}
	size := 1
	for _, w := range words {
		size += len(w)
		for i := 0; i < len(w); i++ {
			c := lowerByte(w[i])
			if a.class[c] == 0 {
				if fold && strings.IndexByte(separators, c) >= 0 {
					for j := 0; j < len(separators); j++ {
						a.class[separators[j]] = uint8(a.nclass)
					}
				} else {
					a.class[c] = uint8(a.nclass)
				}
				a.nclass++
			}
		}
	}
	for c := 'a'; c <= 'z'; c++ {
		a.class[c-'a'+'A'] = a.class[c]
	}
	nc := a.nclass
	// Build the trie; no keyword adds more states than it has bytes.
	delta := make([]int, nc, size*nc)
	out := make([][]int, 1, size)
	for k, w := range words {
		a.lens[k] = len(w)
		s := 0
		for i := 0; i < len(w); i++ {
			c := int(a.class[lowerByte(w[i])])
			next := delta[s*nc+c]
			if next == 0 {
				next = len(out)
				out = append(out, nil)
				delta = append(delta, make([]int, nc)...)
				delta[s*nc+c] = next
			}
			s = next
		}
		out[s] = append(out[s], k)
	}
	// Breadth-first: turn the trie into a DFA with failure transitions folded in.
	fail := make([]int, len(out))
	order := make([]int, 1, len(out)) // states in breadth-first order, the root first
	for c := 1; c < nc; c++ {
		if next := delta[c]; next != 0 {
			order = append(order, next)
		}
	}
	for q := 1; q < len(order); q++ {
		s := order[q]
		out[s] = append(out[s], out[fail[s]]...)
		for c := 1; c < nc; c++ {
			i := s*nc + c
			if next := delta[i]; next != 0 {
				fail[next] = delta[fail[s]*nc+c]
				order = append(order, next)
			} else {
				delta[i] = delta[fail[s]*nc+c]
			}
		}
	}
	// Renumber: breadth-first, states without output before states with output.
	id := make([]int, len(out))
	n := 0
	for pass := 0; pass < 2; pass++ {
		for _, s := range order {
			if (len(out[s]) > 0) == (pass == 1) {
				id[s] = n
				n++
			}
		}
		if pass == 0 {
			a.outFrom = n * nc
		}
	}
	if n*nc > 1<<32-1 {
		panic("scan: automaton has " + strconv.Itoa(n) + " states of " + strconv.Itoa(nc) + " classes; widen automaton.next")
	}
	if len(words) > 1<<16 {
		panic("scan: more than 65536 keywords; widen automaton.outList")
	}
	a.next = make([]uint32, n*nc)
	outs := make([][]int, n)
	for old, s := range id {
		outs[s] = out[old]
		for c := 0; c < nc; c++ {
			a.next[s*nc+c] = uint32(id[delta[old*nc+c]] * nc)
		}
	}
	a.outStart = []uint16{0}
	for _, o := range outs[a.outFrom/nc:] {
		for _, k := range o {
			a.outList = append(a.outList, uint16(k))
		}
		a.outStart = append(a.outStart, uint16(len(a.outList)))
	}
	if len(a.outList) >= 1<<16 {
		panic("scan: more than 65535 keyword outputs; widen automaton.outStart")
	}
	for _, w := range words {
		if w == "" {
			panic("scan: empty keyword")
		}
		a.maxLen = max(a.maxLen, len(w))
	}
	return a
}

// scan appends to hits every keyword occurrence in text, in order of its end (at one end, the longer keyword
// first), and returns the extended slice; later is scratch space it may use, returned for reuse.
//
// A pass costs one table load per byte, each waiting for the one before, so the processor idles between them.
// A long text is therefore read by two chains of loads at once, one from its start and one from its middle.
// The second starts maxLen-1 bytes before the half it reports, so from the half's first byte on it is in the
// state one pass would be in; it reports only what ends in its half, into later, which is appended at the end.
func (a *automaton) scan(text string, hits, later []kwHit) (all, spare []kwHit) {
	next, class, outFrom := a.next, &a.class, a.outFrom
	n := len(text)
	mid, j := n, n // a short text is read by the first chain alone
	if n >= 4*a.maxLen {
		warm := a.maxLen - 1
		mid = (n + warm) / 2 // so that both chains read about as many bytes
		j = mid - warm
	}
	s, t := 0, 0
	i := 0
	for ; i < mid && j < n; i, j = i+1, j+1 {
		s = int(next[s+int(class[text[i]])])
		t = int(next[t+int(class[text[j]])])
		if s >= outFrom {
			hits = a.appendOut(hits, s, i)
		}
		if t >= outFrom && j >= mid {
			later = a.appendOut(later, t, j)
		}
	}
	for ; i < mid; i++ {
		s = int(next[s+int(class[text[i]])])
		if s >= outFrom {
			hits = a.appendOut(hits, s, i)
		}
	}
	for ; j < n; j++ {
		t = int(next[t+int(class[text[j]])])
		if t >= outFrom && j >= mid {
			later = a.appendOut(later, t, j)
		}
	}
	return append(hits, later...), later[:0]
}

// appendOut appends the keywords that end in state s at text[i].
func (a *automaton) appendOut(hits []kwHit, s, i int) []kwHit {
	o := (s - a.outFrom) / a.nclass
	for _, k := range a.outList[a.outStart[o]:a.outStart[o+1]] {
		hits = append(hits, kwHit{int(k), i + 1 - a.lens[k]})
	}
	return hits
}

// contains reports whether text holds any keyword.
func (a *automaton) contains(text string) bool {
	next, class := a.next, &a.class
	outFrom := a.outFrom
	s := 0
	for i := 0; i < len(text); i++ {
		s = int(next[s+int(class[text[i]])])
		if s >= outFrom {
			return true
		}
	}
	return false
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
