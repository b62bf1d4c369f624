package recall

import "sync"

// Abbreviations. Notes are written in a hurry and questions in full, or the other way round: "the billing DB
// moved to us-east-2" answers "where is the billing database?", "8 Jan" answers "what did Aiko ask in
// January?". A query word that is one of these words or its abbreviation is also looked up in the other
// forms, as alternatives of the same term, like an irregular verb's (see [irregularForms]).
//
// Only abbreviations that notes rarely write as another word are listed: not "sat" and "sun" (a verb, the
// sun), "mar" (Spanish for the sea), "sec" (security as often as seconds), "temp" (temporary), "info" (a
// generic word of questions, see [genericWords]) or "pr" (public relations). The index's stemming joins
// the plural of a full word to it, but not of an abbreviation, so plurals are listed.
var abbreviations = sync.OnceValue(func() map[string][]string {
	const groups = `database databases db dbs|kubernetes k8s|repository repositories repo repos|
		configuration configurations config configs|environment environments env envs|production prod|
		development dev|documentation docs|directory directories dir dirs|administrator administrators admin admins|
		application applications app apps|dependency dependencies dep deps|certificate certificates cert certs|
		infrastructure infra|statistics stats|message messages msg msgs|department departments dept depts|
		appointment appointments appt appts|manager managers mgr mgrs|maximum max|minimum min|
		kilometre kilometres kilometer kilometers km|
		january jan|february feb|april apr|june jun|july jul|august aug|september sep sept|october oct|
		november nov|december dec|
		monday mon|tuesday tue tues|wednesday wed|thursday thu thur thurs|friday fri`
	return formGroups(groups)
})
