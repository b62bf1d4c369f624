package scan

// automaton is an Aho–Corasick matcher over ASCII-lowercased bytes: one pass over the text reports every
// occurrence of every keyword, so the cost of the prefilter does not grow with the number of rules.
type automaton struct {
	class  [256]uint8 // byte → input class; 0 for bytes that occur in no keyword
	nclass int
	delta  []int32 // state*nclass + class → next state
	out    [][]int // state → keywords ending here
	lens   []int   // keyword → length in bytes
}

func newAutomaton(words []string) *automaton {
	a := &automaton{nclass: 1, lens: make([]int, len(words))}
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			c := lowerByte(w[i])
			if a.class[c] == 0 {
				a.class[c] = uint8(a.nclass)
				a.nclass++
			}
		}
	}
	for c := 'a'; c <= 'z'; c++ {
		a.class[c-'a'+'A'] = a.class[c]
	}
	// Build the trie.
	a.delta = make([]int32, a.nclass)
	a.out = [][]int{nil}
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
	return a
}

// scan calls hit(keyword, start) for every keyword occurrence, in order of its end.
func (a *automaton) scan(text string, hit func(k, start int)) {
	s := int32(0)
	n := int32(a.nclass)
	for i := 0; i < len(text); i++ {
		s = a.delta[s*n+int32(a.class[text[i]])]
		if s != 0 && a.out[s] != nil {
			for _, k := range a.out[s] {
				hit(k, i+1-a.lens[k])
			}
		}
	}
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
