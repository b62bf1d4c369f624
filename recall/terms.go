package recall

import (
	"math"
)

// How much each query word counts towards coverage, and so towards presence.
//
// A question carries words that make it a question or a request rather than name what it is about: "which
// database does billing use", "what kind of cache", "tell me", "do you know", "what did we decide". Users
// ask in their own words, so whether the store answers must not hang on whether a claim happens to repeat
// them. Such generic words still match and still rank (a claim that repeats the question's verb may well be
// the better answer); they only count [genericWeight] of their IDF in coverage.
//
// IDF itself is smoothed by a prior of [priorRows] rows that hold no query word, as if the store were part
// of a larger collection of text: in a store of three claims, a word no claim holds would otherwise weigh
// twice a word that one claim holds, and a question would go unanswered because of the one word of it the
// store has never seen. With the prior it weighs about a fifth more. In a store of many thousand claims
// the prior changes little.
const (
	genericWeight = 0.2
	priorRows     = 200
)

// genericWords are the English words of questions and requests that say little about their subject. A word
// is listed in each form a question uses it; stopwords (see [stopwords]) are not repeated here.

var genericWords = wordSet(`use uses used using usage get gets got getting gotten tell tells told know
		knows knew known need needs needed kind kinds sort sorts type types thing things stuff way ways happen
		happens happened happening make makes made making go goes going went gone want wants wanted say says
		said mention mentioned ask asked think thought let please anything something everything nothing
		someone anyone everyone somebody anybody ever still currently current actually exactly again us one
		ones remember remind recall note notes memory decide decided time day find found give show explain
		describe info information detail details`)

// isGeneric reports whether the query word w (lowercase) is a generic word of questions.
func isGeneric(w string) bool {
	return genericWords[w]
}

// termWeight is how much a query term that nHit of nRow claims hold counts towards coverage: its
// informativeness with the prior rows (see above), times [genericWeight] for a generic word.
func termWeight(t term, nRow, nHit int64) float64 {
	v := informativeness(nRow+priorRows, nHit)
	if t.generic {
		v *= genericWeight
	}
	return v
}

// informativeness is how much a word that nHit of nRow rows hold tells about a row: Lucene's variant of
// the BM25 IDF, which unlike FTS5's stays positive for words in more than half the rows, so that coverage
// means something in a small store too.
func informativeness(nRow, nHit int64) float64 {
	return math.Log(1 + (float64(nRow-nHit)+0.5)/(float64(nHit)+0.5))
}
