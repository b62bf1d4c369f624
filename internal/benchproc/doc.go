// Package benchproc measures memoree as a whole process, start-up included, against a floor: a program that
// does the least work that gives the same result. It holds benchmarks and tests only.
//
// Each benchmark runs memoree and its floor in turn, alternating which goes first, so that noise from the rest
// of the machine falls on both; it then reports medians over the pairs: "x-floor" (memoree's time divided by
// the floor's), "ms-over-floor" (the difference), and each side's own time as "us-memoree" and "us-floor". The
// ns/op column is the wall time of one pair, harness included. A median above its target is logged, never
// failed: timings depend on the machine.
//
//	benchmark                 memoree                                   floor                                  target
//	Checkpoint4K              checkpoint --file (4 KiB note)            floor: read, atomic fsync'd write      2x
//	Checkpoint64K             checkpoint --file (64 KiB note, 4 KiB     floor: read 64 KiB, write the          2x
//	                          stored)                                   first 4 KiB
//	Scan64K                   scan --file (64 KiB note)                 /bin/cat FILE >/dev/null               3 ms over
//	RememberApply4K           remember --apply - (a new note each run)  floor reading the note on stdin        4x
//	RecallSelective100K       recall QUERY, two rare words with a few   sqlite3: the same FTS5 query on the    2x
//	                          dozen hits in 100,000 claims (since the   same database file
//	                          question words' weights changed, a claim
//	                          answers it, so artifacts are not searched)
//	RecallAnswered100K        recall QUERY, a few dozen hits, one of    sqlite3, as above                      2x
//	                          which answers it: claims only
//	RecallBroad100K           recall QUERY, ~88,000 hits                sqlite3, as above                      1x
//	RecallGrowth              the selective recall at 1,000, 10,000     sqlite3, as above                      2x
//	                          and 100,000 claims; also B/claim, the
//	                          store's bytes per claim
//	RecallSelective1M         the selective recall on 1,000,000 claims  the same recall on 100,000 claims      1.3x
//	RecallBroadRg100K         recall QUERY, ~88,000 hits                rg -l -i -e WORD... over the same      1x
//	                                                                    notes written as files
//	ContextBroadRg100K        context build --query QUERY, as above     rg, as above                           1x
//
// The recall benchmarks run on stores of generated claims (see recall/internal/gen), built on first use, which
// for 100,000 claims takes about ten seconds, and cached under the temporary directory. RecallSelective100K,
// RecallAnswered100K and RecallBroad100K each have two sub-benchmarks: "applied" runs on the store as
// memoree's applies leave it, "optimized" on a copy after memoree optimize. The recall benchmarks skip when
// /usr/bin/sqlite3 is missing. The 1,000,000-claim store takes about a minute to build and 400 MB; the rg
// comparisons write the 100,000-claim store's notes as files once (cached too) and skip, saying so, when
// rg is not installed. Checkpoint4K has two sub-benchmarks: "make-build" runs memoree as 'make build'
// builds it (static, trimmed paths), "go-install" as a plain 'go install' does (the go command's defaults).
// The targets are regression guards: a checkpoint costs an agent milliseconds inside tool calls that cost
// seconds, so they are not worth a less clear program. The figures are in docs/performance.md.
//
// The floor program is in the floor directory. Run the comparisons with
//
//	go test -run '^$' -bench . -benchtime 40x ./internal/benchproc
//
// (make bench does). A plain go test runs only the tests, which check that each side of a comparison produces
// what the other does, so that the benchmarks compare equal work.
package benchproc
