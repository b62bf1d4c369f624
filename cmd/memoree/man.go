package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// The man page is generated from the command tree, so it cannot drift from --help: 'make man' writes
// man/memoree.1 and TestManPage fails when the committed page is stale.

const manFiles = `$MEMOREE_HOME/pending/
  Staged checkpoints, one JSON file per session (ck-ID.json), quarantined: no command but pending
  show, preview and apply reads them, and only pending drop deletes them.
$MEMOREE_HOME/store/recall.db
  The recall store: a SQLite database (WAL mode) of artifacts, claims, evidence and their full-text indexes.
  Its write-ahead log (recall.db-wal) and the log's index (recall.db-shm) stay beside it, emptied when each
  writer closes; optimize removes them.
$MEMOREE_HOME/store/cas/
  The exact bytes of every applied note, one read-only file per SHA-256.`

const manSeeAlso = `sqlite3(1); the README and docs/ directory of the memoree source.`

// manPage renders the man page of tree, section 1, dated date and marked with version.
func manPage(tree *cli.App, version, date string) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH MEMOREE 1 %q %q \"User Commands\"\n", date, "memoree "+version)
	fmt.Fprintf(&b, ".SH NAME\nmemoree \\- %s\n", roff(tree.Usage))
	b.WriteString(".SH SYNOPSIS\n")
	leaves(tree, func(path string, c *cli.Command) {
		fmt.Fprintf(&b, ".B %s\n[\\fIoptions\\fR] %s\n.br\n", path, roff(strings.TrimSpace(c.ArgsUsage)))
	})
	description, _ := splitExamples(tree.Description)
	intro, _, _ := strings.Cut(description, "\n\nEXIT STATUS:")
	fmt.Fprintf(&b, ".SH DESCRIPTION\n%s\n", roffParagraphs(intro))
	b.WriteString(".SH COMMANDS\n")
	leaves(tree, func(path string, c *cli.Command) {
		fmt.Fprintf(&b, ".SS %s\n%s\n", path, roff(sentence(c.Usage)))
		fmt.Fprintf(&b, ".PP\nUsage: \\fB%s\\fR [\\fIoptions\\fR] %s\n", path, roff(strings.TrimSpace(c.ArgsUsage)))
		text, examples := splitExamples(c.Description)
		if text != "" {
			fmt.Fprintf(&b, ".PP\n%s\n", roffParagraphs(text))
		}
		for _, f := range c.Flags {
			fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", roff(flagNames(f)), roff(flagUsage(f)))
		}
		if examples != "" {
			fmt.Fprintf(&b, ".PP\nExamples:\n.PP\n.RS\n.nf\n%s\n.fi\n.RE\n", roff(examples))
		}
	})
	b.WriteString(".SH EXIT STATUS\n")
	for _, line := range strings.Split(exitStatusText, "\n") {
		code, text, _ := strings.Cut(line, " ")
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", code, roff(strings.TrimSpace(text)))
	}
	b.WriteString(".SH ENVIRONMENT\n")
	for _, line := range strings.Split(environmentText, "\n") {
		name, text, _ := strings.Cut(line, " ")
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", name, roff(strings.TrimSpace(text)))
	}
	b.WriteString(".SH FILES\n")
	for _, entry := range strings.Split(manFiles, "\n$") {
		name, text, _ := strings.Cut(strings.TrimPrefix(entry, "$"), "\n")
		fmt.Fprintf(&b, ".TP\n.I $%s\n%s\n", roff(strings.TrimPrefix(name, "$")), roff(strings.Join(strings.Fields(text), " ")))
	}
	fmt.Fprintf(&b, ".SH SEE ALSO\n%s\n", roff(manSeeAlso))
	return b.String()
}

// leaves calls f on every command that runs something (no subcommands), in tree order, with its full name.
func leaves(tree *cli.App, f func(path string, c *cli.Command)) {
	walk(tree.Commands, func(c *cli.Command, parents []string) {
		if len(c.Subcommands) == 0 {
			f(strings.Join(append(append([]string{"memoree"}, parents...), c.Name), " "), c)
		}
	})
}

// splitExamples splits a description made by [withDoc] into its text and its examples.
func splitExamples(d string) (text, examples string) {
	text, ex, _ := strings.Cut(d, "EXAMPLES:\n")
	lines := strings.Split(ex, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "   ")
	}
	return strings.TrimSpace(text), strings.TrimSpace(strings.Join(lines, "\n"))
}

// flagNames renders a flag's names as typed, with its value placeholder: "--limit N, -n N".
func flagNames(f cli.Flag) string {
	value := ""
	if df, ok := f.(cli.DocGenerationFlag); ok && df.TakesValue() {
		value = " " + placeholder(f)
	}
	var names []string
	for _, n := range f.Names() {
		names = append(names, dashes(n)+value)
	}
	return strings.Join(names, ", ")
}

// flagUsage returns a flag's usage text with its `placeholder` marks removed, and its default, as --help
// shows it, when the flag takes a value and has one that is not zero.
func flagUsage(f cli.Flag) string {
	usage := ""
	if u, ok := f.(interface{ GetUsage() string }); ok {
		usage = strings.ReplaceAll(u.GetUsage(), "`", "")
	}
	if df, ok := f.(cli.DocGenerationFlag); ok && df.TakesValue() {
		if d := df.GetDefaultText(); d != "" && d != "0" && d != "0s" && d != `""` {
			usage += " (default: " + d + ")"
		}
	}
	return usage
}

// placeholder returns the value name a flag's usage marks with backquotes, as --help shows it, else VALUE.
func placeholder(f cli.Flag) string {
	if u, ok := f.(interface{ GetUsage() string }); ok {
		if _, rest, ok := strings.Cut(u.GetUsage(), "`"); ok {
			if name, _, ok := strings.Cut(rest, "`"); ok && name != "" {
				return name
			}
		}
	}
	return "VALUE"
}

// sentence makes a command's one-line usage a sentence: capitalized, with a final period.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// roffParagraphs renders text, whose paragraphs are separated by blank lines, as roff paragraphs.
func roffParagraphs(text string) string {
	paras := strings.Split(strings.TrimSpace(text), "\n\n")
	for i, p := range paras {
		paras[i] = roff(strings.Join(strings.Fields(p), " "))
	}
	return strings.Join(paras, "\n.PP\n")
}

// roff escapes text for roff: backslashes, leading dots and quotes, and dashes.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}
