// Package recall is memoree's long-term memory: reviewed artifacts, the claims compiled from them and the
// evidence that ties each claim to byte spans of its artifacts, searchable by relevance.
//
// # Storage
//
// A store is a directory (0700) holding recall.db, a SQLite database in WAL mode with a busy timeout (so
// parallel processes wait for each other instead of failing), and cas/, a content-addressed store where
// each artifact is one read-only file, cas/ab/abcdef…, named by the SHA-256 of its exact bytes and verified
// whenever it is read. The schema is versioned with PRAGMA user_version and migrated on [Open]. A lock
// file, recall.lock, lets [OpenExisting] read without creating any file: writers change the database file
// only under its exclusive lock, and read-only Stores hold its shared lock until they are closed.
//
// Tables: artifacts (hash, kind checkpoint|note, source, session, task, created, flagged), claims (key, text,
// kind, compiler, created, status active|superseded, context), evidence (claim, artifact, start, end), refs
// (artifact, key, value: the KEY=VALUE provenance an artifact carries), supersessions (old, new, created: a
// stored claim replaced by a newer one at review time), undo_log (one record per undoable operation; see
// undo.go), counters (the last undo record number handed out: numbers are never used twice), and three FTS5 indexes: claims_fts over claim text and context (external content: both are
// stored once, in claims), claims_active over the text of active claims only (contentless, kept exact by
// triggers on claims, for the supersession candidate search, which must not walk the superseded history),
// and artifacts_fts over artifact text (contentless: the text is stored once, in the artifact file). A claim's context is what its first artifact says around it (headings, list intro,
// speaker label; see compiler.Claim); every part of it must be text of that artifact. An artifact is flagged
// when it was applied although the secret scan flagged it, and a claim is flagged when any of its evidence is
// in a flagged artifact. Times are Unix nanoseconds from the clock the caller passes in; the package never
// reads the clock itself.
//
// Two things are called newer. A supersession is stored state, decided by a person at review time
// ([Store.ApplyWith], supersede.go): the old claim's status is superseded, and recall and context blocks
// leave it out unless asked for history. Ranking also moves a newer claim above an older one about the
// same subject (but not for a question in the past tense, which asks what happened), and a context block
// leaves out an older claim that a newer candidate restates ([ReasonRestated]); that is a ranking decision
// only (rank.go), and both claims stay current.
//
// Writes are all-or-nothing: [Store.Apply] writes and syncs the artifact file before the one transaction
// that inserts its rows commits, so a failure leaves at most an unreferenced artifact file. The store holds
// only what Apply is given, and a claim's text must be the bytes of its first evidence span, so no text can
// enter the store except as part of a reviewed artifact.
//
// # Tokenizer
//
// Both indexes use FTS5's "porter unicode61 remove_diacritics 2": unicode61 splits on every character that is
// not a letter or digit (so user_id is the two words user and id, as in "user id"), folds case for all
// scripts and, with remove_diacritics 2, folds diacritics including those of composed characters (José is
// jose); porter then reduces English inflections to one stem (deploys, deploying and deployed all index as
// deploy). TestTokenizerChoice and BenchmarkTokenizers measure the candidates on the cases users ask and on
// generated claims; docs/performance.md has the figures.
//
// Porter found every case at no measurable cost and is the only candidate that matches inflected forms;
// trigram would match substrings but not diacritics or stems, at several times the index size and a slower
// broad query. Porter is English-only: other languages get case and diacritic folding but no stemming, and scripts
// written without spaces (Chinese, Japanese) match only whole space-separated runs.
//
// # Maintenance
//
// [Store.Optimize] merges each full-text index into one segment, then rewrites the database file to give back
// the pages the merge freed; memoree optimize runs it. FTS5 merges incrementally on every write, so it is
// optional, but broad queries get much faster afterwards (docs/performance.md). The rewrite adds little
// speed, but without it the merge grows the file.
// [Store.CollectGarbage] removes artifact files that a failed apply left unreferenced; memoree artifact gc
// runs it.
//
// [Store.Reindex] recompiles every artifact with the current compiler, in place, for stores filled by an
// older one (rules/1 claims have no context); until it runs, their claims are searched as they are. Like
// every write (apply, forget, supersede, import), it can be undone with [Store.Undo].
//
// # Queries
//
// A query is user text, never FTS5 syntax: it is cut into terms the way the index cuts text, each term
// becomes quoted FTS5 strings, and the terms are joined with OR, so any term may match and no input can
// produce a syntax error. A possessive or contraction ending ("Priya's") is dropped; an identifier whose
// words are joined by _ - . or / (user_id, FW-233, eu-west-1, internal/sync/retry.go) matches its words in
// sequence or written together, a camelCase word also its parts in sequence, a German word written
// without umlauts or ß also the folded forms the index holds, and a capitalized word (a name) that matches
// nothing as written also its spellings with the letters diacritic folding leaves alone (ø, æ, œ, ı, ł, đ:
// Soren finds Søren). Stopwords (English, and the function words of
// Spanish, French and German) are dropped unless nothing else remains; generic words of questions (use,
// tell, kind...) stay but count little towards coverage (terms.go). Ranking is one model, a weighted sum of
// named signals over a bounded candidate set chosen by each term's document frequency; see rank.go for the
// policy and why, subject.go for how updates in later notes move ahead, bm25.go for why claims' BM25 is
// computed from their text rather than by FTS5, replies.go for why a conversation turn that replies to a
// question turn of the results follows it, and [Store.Recall] and presence.go for what presence means.
//
// # Evaluation
//
// [Store.Eval] scores recall on a file of labelled queries (recall at 1, 5 and 10, MRR, presence accuracy,
// by tag), so users can check it on their own memory; TestEval runs it on the corpus in testdata/eval and
// compares it with plain FTS5 BM25 over whole notes.
package recall
