package recall

import (
	"slices"
	"strings"
	"sync"
)

// English irregular verbs. The index stems words (see [tokenizer]), which joins "adopting" and "adopted"
// but not "break" and "broke": a question asks "which wrist did Bärbel break?" of a note that says "I broke
// my wrist". A query word that is a form of one of these verbs is also looked up in its other forms, as
// alternatives of the same term. Verbs with a form that is as often another word (left, found, ground,
// lay, lead, rose, saw, fell, felt, lit, bound, wound, spring, ring, sink, sat, bit, tear) are left out:
// looking them up as verbs would match the direction, the flower or the season.
var irregularForms = sync.OnceValue(func() map[string][]string {
	const verbs = `arise arose arisen|awake awoke awoken|beat beaten|become became|begin began begun|bend bent|
		bleed bled|blow blew blown|break broke broken|breed bred|bring brought|build built|
		burn burnt|buy bought|catch caught|choose chose chosen|come came|creep crept|deal dealt|dig dug|
		draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|eat ate eaten|feed fed|fight fought|
		flee fled|fly flew flown|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|
		freeze froze frozen|get got gotten|give gave given|go went gone|grow grew grown|hang hung|hear heard|
		hide hid hidden|hold held|keep kept|kneel knelt|know knew known|leap leapt|learn learnt|lend lent|
		lose lost|make made|mean meant|meet met|pay paid|ride rode ridden|rise risen|run ran|say said|
		see seen|seek sought|sell sold|send sent|sew sewn|shake shook shaken|shine shone|shoot shot|show shown|
		shrink shrank shrunk|sing sang sung|sleep slept|slide slid|speak spoke spoken|
		spend spent|spin spun|stand stood|steal stole stolen|sting stung|strike struck|swear swore sworn|
		sweep swept|swim swam swum|swing swung|take took taken|teach taught|tell told|
		think thought|throw threw thrown|understand understood|wake woke woken|wear wore worn|weave wove woven|
		weep wept|win won|write wrote written|withdraw withdrew withdrawn|undergo underwent undergone|
		rebuild rebuilt|rewrite rewrote rewritten|mistake mistook mistaken|override overrode overridden|
		rerun reran|overtake overtook overtaken`
	return formGroups(verbs)
})

// formGroups maps each word of groups ('|'-separated groups of space-separated words that stand for one
// another) to the other words of its group.
func formGroups(groups string) map[string][]string {
	m := map[string][]string{}
	for _, v := range strings.Split(groups, "|") {
		forms := strings.Fields(v)
		for _, f := range forms {
			for _, g := range forms {
				if g != f && !slices.Contains(m[f], g) {
					m[f] = append(m[f], g)
				}
			}
		}
	}
	return m
}
