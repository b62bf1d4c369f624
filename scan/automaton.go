package scan

import "strings"

// automaton is an Aho–Corasick matcher over ASCII-lowercased bytes: one pass over the text reports every
// occurrence of every keyword, so the cost of the prefilter does not grow with the number of rules.
type automaton struct {
	class  [256]uint8 // byte → input class; 0 for bytes that occur in no keyword
	nclass int
	delta  []int32 // state*nclass + class → next state, during construction only
	out    [][]int // state → keywords ending here
	// next is delta in the form the scan loop uses: entries are next*nclass, with hasOut set when keywords end
	// in the next state, so the loop does one load and one test per byte.
	next []int32
	lens []int // keyword → length in bytes
	// start2[c1*nclass+c2] is set when some keyword begins with bytes of classes c1, c2. Every keyword has at
	// least two bytes, so in the root state a position whose pair is not set cannot start a match and is skipped.
	start2 []bool
}

// separators share one input class: a keyword written api_key also matches api-key, api.key and "api key".
const separators = "_-. "

func newAutomaton(words []string) *automaton { return buildAutomaton(words, true) }

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
	// Build the trie; no keyword adds more states than it has bytes.
	a.delta = make([]int32, a.nclass, size*a.nclass)
	a.out = make([][]int, 1, size)
	for k, w := range words {
		a.lens[k] = len(w)
		s := int32(0)
		for i := 0; i < len(w); i++ {
			c := int32(a.class[lowerByte(w[i])])
			next := a.delta[s*int32(a.nclass)+c]
			if next == 0 {
				next = int32(len(a.out))
				a.out = append(a.out, nil)
				a.delta = append(a.delta, make([]int32, a.nclass)...)
				a.delta[s*int32(a.nclass)+c] = next
			}
			s = next
		}
		a.out[s] = append(a.out[s], k)
	}
	// Breadth-first: turn the trie into a DFA with failure transitions folded in.
	fail := make([]int32, len(a.out))
	queue := []int32{}
	for c := 1; c < a.nclass; c++ {
		if next := a.delta[c]; next != 0 {
			queue = append(queue, next)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		a.out[s] = append(a.out[s], a.out[fail[s]]...)
		for c := 1; c < a.nclass; c++ {
			i := s*int32(a.nclass) + int32(c)
			if next := a.delta[i]; next != 0 {
				fail[next] = a.delta[fail[s]*int32(a.nclass)+int32(c)]
				queue = append(queue, next)
			} else {
				a.delta[i] = a.delta[fail[s]*int32(a.nclass)+int32(c)]
			}
		}
	}
	a.start2 = make([]bool, a.nclass*a.nclass)
	for _, w := range words {
		if len(w) < 2 {
			panic("scan: keyword shorter than two bytes: " + w)
		}
		a.start2[int(a.class[lowerByte(w[0])])*a.nclass+int(a.class[lowerByte(w[1])])] = true
	}
	a.next = a.delta // converted in place: delta is not needed after construction
	for i, t := range a.next {
		v := t * int32(a.nclass)
		if len(a.out[t]) > 0 {
			v |= hasOut
		}
		a.next[i] = v
	}
	a.delta = nil
	return a
}

const hasOut = 1 << 30

// scan calls hit(keyword, start) for every keyword occurrence, in order of its end.
func (a *automaton) scan(text string, hit func(k, start int)) {
	next, class, start2 := a.next, &a.class, a.start2
	n := int32(a.nclass)
	s := int32(0)
	for i := 0; i < len(text); i++ {
		if s == 0 {
			for i+1 < len(text) && !start2[int32(class[text[i]])*n+int32(class[text[i+1]])] {
				i++
			}
		}
		s = next[s+int32(class[text[i]])]
		if s&hasOut != 0 {
			s &^= hasOut
			for _, k := range a.out[s/n] {
				hit(k, i+1-a.lens[k])
			}
		}
	}
}

// contains reports whether text holds any keyword.
func (a *automaton) contains(text string) bool {
	next, class := a.next, &a.class
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = next[s+int32(class[text[i]])]
		if s&hasOut != 0 {
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
