package recall

import (
	"strings"
	"sync"
)

// Other spellings of a word. Notes are written in a hurry and questions in full, or the other way round, and
// by people on either side of the Atlantic: "the billing DB moved to us-east-2" answers "where is the billing
// database?", "8 Jan" answers "what did Aiko ask in January?" and "colour tokens" answers "color tokens". A
// query word that is one of the words of a group of [spellings], or a British or American -ise/-ize form
// (see [izeSpellings]), is also looked up in the others, as alternatives of the same term, like an
// irregular verb's forms (see [irregularForms]).
//
// Only abbreviations that notes rarely write as another word are listed: not "sat" and "sun" (a verb, the
// sun), "mar" (Spanish for the sea), "sec" (security as often as seconds), "min" (minutes as often as
// minimum), "temp" (temporary), "info" (a generic word of questions, see [genericWords]) or "pr" (public
// relations); nor "check", which is not only the American "cheque". Number words are not digits
// here: "five" looked up as 5 matched every claim with a 5 in it, and pushed answers down. British and
// American spellings that a rule would get wrong (hour, tour, pour and four are not hor, tor, por and for;
// French "entre" is no "enter") are listed word by word. The index's stemming joins the plural of a full
// word to it, but not of an abbreviation, so plurals are listed.
//
// Places have a name in each language, and a question asked in English finds a note written in German,
// Spanish or French by its place: "when does the Munich office close?" names what "Büro München" says. The
// names that are also a person's (Florence, Roma) or a word (Nice, Split) are not listed.
var spellings = sync.OnceValue(func() map[string][]string {
	const groups = `database databases db dbs|kubernetes k8s|repository repositories repo repos|
		configuration configurations config configs|environment environments env envs|production prod|
		development dev|documentation docs|directory directories dir dirs|administrator administrators admin admins|
		application applications app apps|dependency dependencies dep deps|certificate certificates cert certs|
		infrastructure infra|statistics stats|postgresql postgres|mongodb mongo|javascript js|
		authentication authn|authorization authz|message messages msg msgs|department departments dept depts|
		appointment appointments appt appts|manager managers mgr mgrs|maximum max|
		kilometre kilometres kilometer kilometers km|
		january jan|february feb|april apr|june jun|july jul|august aug|september sep sept|october oct|
		november nov|december dec|
		monday mon|tuesday tue tues|wednesday wed|thursday thu thur thurs|friday fri|
		colour color|colours colors|favourite favorite|behaviour behavior|honour honor|neighbour neighbor|
		labour labor|harbour harbor|rumour rumor|flavour flavor|humour humor|armour armor|endeavour endeavor|
		centre center|centres centers|metre meter|metres meters|litre liter|litres liters|theatre theater|
		fibre fiber|licence license|defence defense|offence offense|catalogue catalog|dialogue dialog|
		analyse analyze|analysed analyzed|analysing analyzing|programme program|programmes programs|
		travelling traveling|travelled traveled|cancelled canceled|cancelling canceling|modelling modeling|
		labelled labeled|labelling labeling|grey gray|aluminium aluminum|judgement judgment|ageing aging|
		enrol enroll|enrolment enrollment|mould mold|sceptical skeptical|
		munich münchen munchen muenchen|cologne köln koln koeln|nuremberg nürnberg nurnberg nuernberg|hanover hannover|
		brunswick braunschweig|vienna wien|zurich zürich zuerich|geneva genève geneve genf|basel bâle basle|
		bavaria bayern|lisbon lisboa lissabon|seville sevilla|saragossa zaragoza|majorca mallorca|
		andalusia andalucía andalucia|catalonia catalunya cataluña|turin torino|naples napoli neapel|
		venice venezia venedig|milan milano mailand|padua padova|genoa genova|brussels bruxelles brussel brüssel bruessel|
		antwerp antwerpen anvers|ghent gent gand|bruges brugge|hague haag|prague praha prag|warsaw warszawa warschau|
		cracow kraków krakow krakau|copenhagen københavn kopenhagen|gothenburg göteborg goteborg|
		athens athen athènes|moscow moskau moscou|marseilles marseille|
		germany deutschland allemagne alemania|austria österreich osterreich oesterreich autriche|switzerland schweiz suisse suiza|
		spain españa espana spanien espagne|italy italia italien italie|netherlands nederland niederlande|
		denmark danmark dänemark daenemark|sweden sverige schweden suède|norway norge norwegen norvège|poland polska polen pologne`
	return formGroups(groups)
})

// izeSuffixes are the endings of words spelled -ise in British English and -ize in American: organise,
// organised, organisation. Each pair is British, American.
var izeSuffixes = [][2]string{{"isation", "ization"}, {"isations", "izations"}, {"ised", "ized"}, {"ising", "izing"},
	{"ises", "izes"}, {"iser", "izer"}, {"isers", "izers"}, {"ise", "ize"}}

// izeSpellings returns the other spelling of w (lowercase) when it ends in one of [izeSuffixes] after at
// least four letters (optimise, localisation; not rise, wise or size), or "". A word that has no other
// spelling (promise, exercise) gets one that no note holds, which matches nothing.
func izeSpellings(w string) string {
	for _, s := range izeSuffixes {
		for k, suf := range s {
			if stem, ok := strings.CutSuffix(w, suf); ok && len(stem) >= 4 {
				return stem + s[1-k]
			}
		}
	}
	return ""
}
