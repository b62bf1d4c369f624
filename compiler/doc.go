// Package compiler turns a note into claims: durable statements worth remembering, each with the evidence
// it came from.
//
// # Contract
//
// A [Compiler] is a pure, deterministic function from text (plus [Source] metadata) to a [Result]: it does
// no I/O and never sees the recall store, and the same input gives the same Result, byte for byte. Its
// [Compiler.Name] ("rules/5" for [Rules]) names the compiler and its version and is recorded with every
// claim. A Result holds accepted claims, in order of first occurrence, and skipped fragments, in source
// order, each with the short lowercase reason preview shows.
//
// Every [Claim] carries its evidence: byte spans [Start, End) into the exact source text, on UTF-8
// boundaries. The source bytes of the first span are the claim's Text: the statement without its list
// marker, its context label and surrounding white space. What the note says around a statement and the
// statement does not repeat is its Context (see below); it is never part of the evidence. A claim is identified by [Key] (NFC, Unicode case folding, white space
// folded, trailing sentence punctuation dropped), so a statement made twice is one claim with two spans.
// Another compiler (an external command, a language model) plugs in by implementing [Compiler]; nothing
// else changes.
//
// # Segmentation
//
// [Rules] reads the text line by line (CRLF or LF). Fenced code blocks (``` or ~~~) are skipped whole as
// "code block"; Markdown headings ("## Status") as "heading"; lines such as "---" as "separator". Block
// quotes, bullets (-, *, +, •), numbers ("1." "1)" "a)" "(1)") and task boxes ("[ ]", "[x]") are markers,
// never part of a statement. A line is then cut into sentences at '.', '!' or '?' followed by white space
// and what can start a sentence (a capital letter, a digit, an opening quote, bracket or backtick, Markdown
// emphasis, or a Chinese or Japanese character), or by the end of the line (the punctuation stays in the
// statement), and at ';' followed by white space (the ';' is left out: "X is implemented; next verify Y" is
// two statements). Abbreviations and initials ("e.g.", "i.e.", "etc.", "vs.", "Dr.", "J."), text in
// backticks or brackets, and dots not followed by white space (v1.2, 3.14, main.go, README.md, URLs,
// 10.0.0.1) never end a statement. A statement never spans two lines.
//
// # Context
//
// A claim's Context holds, joined by " > ": the task the note was written for ([Source].Task, as checkpoint
// --task names it: the subject a later question may name when the note does not), the note's title (its first line, when that line is short, ends
// without sentence punctuation and is followed by a blank line), the Markdown headings above the statement,
// the intro of its list or paragraph (a line that only announces what follows, such as "Decisions:" or
// "Ines's handoff:"), and a leading label that names no kind: a speaker and date ("Priya (12 March 2026):"),
// a subject ("FW-233:", "Hinweis für alle im Büro München:") or a field ("Root cause:"). Such a label is
// left out of the statement; it applies to the rest of its line, until a statement there opens with a field
// or a kind label of its own when it is itself a field ("Goal: ship it. Decision: use X." gives the decision no
// "Goal"; a speaker's or a subject's label stays). A label of at most six words that holds a
// verb such as "is" or "have", a URL or unbalanced brackets is part of the statement ("The fix is simple:
// retry"); a label that names a kind ("TODO:", "Decision:") stays in the statement, as it names its kind.
//
// # Classification
//
// When in doubt, a statement is kept: questions, short statements and reports of work done are claims.
// Each statement is skipped or accepted, the first matching rule deciding:
//
//   - "heading": it ends with ':' or is only a label ("Status:") or only bold text ("**Notes**").
//   - "no words": it holds no letter or digit ("!!!!", "?!", "...", an emoticon such as ":)").
//   - "filler": every word carries nothing ("Hmm.", "Okay so", "Anyway").
//   - "greeting or acknowledgement": it only greets or acknowledges ("ok", "done.", "Thanks a lot",
//     "Nice work, Tomasz!"), at most one name aside.
//
// Markers that memoree adds are never claims: the line "[memoree: truncated: kept N of M bytes]" that
// checkpoint.Cap appends to a note it cut is skipped as "truncation marker", and the statement it cut short,
// the last one before it unless the cut fell at a line end, as "fragment: cut by truncation".
//
// Everything else is accepted. Its kind comes from, in order: an open task box "- [ ]" ([NextStep]); a
// label naming a kind ("TODO:", "Next:", "Decision:", "Constraint:", "Preference:"); cue words — next-step
// at the start ("next …", "then …", "need to …", "we should …", "we will …"), decision ("decided",
// "instead of", "switched to", "going with"), preference ("prefer", "I'd rather", "avoid"), constraint
// ("must", "never", "always", "only", "should", "don't …", "no …"), decision again for a leading "Use …";
// a label earlier on the same line; the heading above ("## Decisions", or "Next steps:" alone on a line for
// the list items under it); and otherwise [Fact]. A repeated statement keeps the kind of its first
// occurrence.
package compiler
