package main

// Moving memory: export the recall store as JSON Lines, import such a file, or import a directory of
// Markdown and text notes.

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/compiler"
	"github.com/memoree/memoree/internal/atomicfile"
	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/journal"
	"github.com/memoree/memoree/recall"
)

var (
	outputFlag = &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (mode 0600, replaced only when complete) instead of stdout"}
	notesFlag  = &cli.BoolFlag{Name: "notes", Usage: "the argument is a directory: apply every *.md and *.txt under it as a note", DisableDefaultText: true}
)

func exportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write the whole recall store as JSON Lines",
		ArgsUsage: " ",
		Description: withDoc(`Writes every artifact (its exact bytes, metadata, flag and refs), claim, evidence span and
supersession, one JSON object per line, in a form 'memoree import' reads back: export, import into an
empty data directory and export again give the same bytes. It streams, in memory that does not grow
with the store. The file holds every stored note: keep it as private as the data directory. Pending
checkpoints are never exported.`, `memoree export --output memory.jsonl
memoree export | gzip > memory.jsonl.gz`),
		Flags:  []cli.Flag{outputFlag, jsonFlag},
		Action: func(c *cli.Context) error { return runExport(c, e) },
	}
}

// exportJSON is the --json shape of export: what was written, printed on stdout only with --output.
type exportJSON struct {
	Output        string `json:"output"`
	Artifacts     int    `json:"artifacts"`
	Claims        int    `json:"claims"`
	Evidence      int    `json:"evidence"`
	Supersessions int    `json:"supersessions"`
	Bytes         int64  `json:"bytes"`
}

func runExport(c *cli.Context, e *env) error {
	if c.NArg() != 0 {
		return usagef("export takes no arguments; give the file with --output")
	}
	out := outputFlag.Get(c)
	if jsonFlag.Get(c) && out == "" {
		return usagef("export --json prints a summary, so it needs --output for the export itself")
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	st, err := queryStore(e)
	if err != nil {
		return err
	}
	var w io.Writer = e.stdout
	var stream *atomicfile.Stream
	if out != "" {
		// The export replaces --output by a rename: a device, a pipe or a symlink there would be replaced by a
		// file (as root, /dev/stdout itself).
		if fi, err := os.Lstat(out); err == nil && !fi.Mode().IsRegular() {
			return usagef("--output %s is not a regular file: leave out --output to write to standard output, or give a file's path",
				escape.Label(out))
		}
		if stream, err = atomicfile.CreateStream(out, 0o600); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		defer stream.Abort()
		w = stream
	}
	var n recall.Counts
	if st != nil {
		n, err = st.Export(c.Context, w)
	} else {
		n, err = recall.ExportEmpty(w)
	}
	if err != nil {
		return err
	}
	if stream != nil {
		if err := stream.Commit(); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	e.record(journal.Entry{Time: now, Op: journal.Exported, Artifacts: n.Artifacts, Claims: n.Claims, Bytes: n.Bytes})
	if out == "" {
		return nil
	}
	res := exportJSON{out, n.Artifacts, n.Claims, n.Evidence, n.Supersessions, n.Bytes}
	if jsonFlag.Get(c) {
		return e.printJSON(res)
	}
	_, err = fmt.Fprintf(e.stdout, "exported %d artifact(s), %d claim(s), %d evidence span(s), %d supersession(s) to %s\n",
		res.Artifacts, res.Claims, res.Evidence, res.Supersessions, out)
	return err
}

func importCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "load an export into the recall store, or apply a directory of notes",
		ArgsUsage: "(FILE | --notes DIR)",
		Description: withDoc(`With FILE (or - for stdin), loads what 'memoree export' wrote, in batched transactions: hashes,
spans and every claim's text are checked, rows the store holds already are skipped, and a file that is
cut or edited is refused with nothing added. Into an empty store the IDs stay the same. Every artifact is
scanned: one that the scan flags but the export does not mark flagged (an edited file, or one written
before the scan knew the secret) is refused with nothing added (exit 3), or with --allow-flagged
imported marked flagged, so that context build leaves it out.

With --notes DIR, applies every *.md and *.txt file under DIR (hidden files and symlinks skipped) as a
note, as 'remember --apply --keep-old' would, in one process: the way to bring existing Markdown memory
files in. Notes go in oldest file first, by modification time. It supersedes nothing: a note that
changes a fact another states stays current beside it (recall ranks the newer file's first; 'remember
--apply --supersede ID' replaces one by hand).
Every file is scanned first; if any is flagged, nothing is applied (exit 3) unless --allow-flagged, and
the flagged ones are named. On a terminal a progress line shows on stderr.

Either is one operation for 'memoree undo'.`, `memoree import memory.jsonl
memoree import --notes ~/notes/project-memory`),
		Flags:  []cli.Flag{notesFlag, allowFlaggedFlag, jsonFlag},
		Action: func(c *cli.Context) error { return runImport(c, e) },
	}
}

// importJSON is the --json shape of import.
type importJSON struct {
	Artifacts     int      `json:"artifacts"`     // added (for --notes: notes applied)
	Unchanged     int      `json:"unchanged"`     // --notes: notes stored already, byte for byte
	Claims        int      `json:"claims"`        // new claims
	KnownClaims   int      `json:"known_claims"`  // --notes: claims known before that gained evidence
	Evidence      int      `json:"evidence"`      // evidence spans added
	Supersessions int      `json:"supersessions"` //
	Bytes         int64    `json:"bytes"`
	Flagged       []string `json:"flagged"` // with --allow-flagged: files (--notes) or artifacts imported marked flagged
	Record        int64    `json:"record"`  // the undo record
}

func runImport(c *cli.Context, e *env) error {
	if c.NArg() != 1 {
		return usagef("import takes one export file (or - for stdin), or --notes and one directory")
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	dir, err := storeDir(e)
	if err != nil {
		return err
	}
	var out importJSON
	op := journal.Entry{Time: now, Op: journal.Imported}
	arg := c.Args().First()
	if notesFlag.Get(c) {
		progress := func(done, total int) {}
		if isTerminal(e.stderr) {
			progress = func(done, total int) { fmt.Fprintf(e.stderr, "\rmemoree: imported %d of %d notes", done, total) }
		}
		if fi, err := os.Stat(arg); err != nil {
			return fmt.Errorf("import: %w", err)
		} else if !fi.IsDir() {
			return usagef("%s is not a directory: --notes takes a directory of *.md and *.txt notes; for one note, 'memoree remember --apply --file %s'",
				escape.Label(arg), escape.Label(arg))
		}
		var res recall.NotesResult
		err = withStore(dir, func(st *recall.Store) (err error) {
			res, err = st.ImportNotes(c.Context, arg, recall.NotesOptions{Compiler: compiler.Rules,
				AllowFlagged: allowFlaggedFlag.Get(c), Now: now, Progress: progress})
			return err
		})
		if isTerminal(e.stderr) {
			fmt.Fprintln(e.stderr)
		}
		var fe *recall.FlaggedNotesError
		if errors.As(err, &fe) {
			return flaggedf("%d note(s) are flagged by the scan (%d finding(s)): %s; review them, then rerun with --allow-flagged to import anyway",
				len(fe.Files), fe.Findings, joinLabels(fe.Files))
		}
		if err != nil {
			return err
		}
		if res.Notes+res.Unchanged == 0 {
			e.warnf("no *.md or *.txt note under %s: nothing was imported", escape.Label(arg))
		}
		out = importJSON{Artifacts: res.Notes, Unchanged: res.Unchanged, Claims: res.NewClaims, KnownClaims: res.KnownClaims,
			Evidence: res.Evidence, Bytes: res.Bytes, Flagged: nonNil(res.Flagged), Record: res.Record}
		op.Artifacts, op.NewClaims, op.KnownClaims, op.Bytes, op.Compiler = res.Notes, res.NewClaims, res.KnownClaims, res.Bytes, res.Compiler
	} else {
		var r io.Reader = e.stdin
		if fi, err := os.Stat(arg); err == nil && fi.IsDir() {
			return usagef("%s is a directory: 'memoree import --notes %s' applies the notes in it; import FILE loads what 'memoree export' wrote",
				escape.Label(arg), escape.Label(arg))
		}
		if arg != "-" {
			f, err := os.Open(arg)
			if err != nil {
				return fmt.Errorf("import: %w", err)
			}
			defer f.Close()
			r = f
		}
		var res recall.ImportResult
		err = withStore(dir, func(st *recall.Store) (err error) {
			res, err = st.Import(c.Context, r, recall.ImportOptions{Now: now, AllowFlagged: allowFlaggedFlag.Get(c)})
			return err
		})
		if errors.Is(err, recall.ErrImport) {
			return usagef("%v", err)
		}
		var fe *recall.FlaggedArtifactsError
		if errors.As(err, &fe) {
			return flaggedf("%d artifact(s) that the export does not mark flagged are flagged by the scan (%d finding(s)): %s; "+
				"the file was edited, or written before the scan knew these secrets: nothing was imported; "+
				"review them, then rerun with --allow-flagged to import them marked flagged",
				len(fe.Hashes), fe.Findings, joinLabels(fe.Hashes))
		}
		if err != nil {
			return err
		}
		out = importJSON{Artifacts: res.Artifacts, Claims: res.Claims, Evidence: res.Evidence, Supersessions: res.Supersessions,
			Bytes: res.Bytes, Flagged: nonNil(res.Flagged), Record: res.Record}
		op.Artifacts, op.Claims, op.Bytes = res.Artifacts, res.Claims, res.Bytes
	}
	if out.Record != 0 {
		e.record(op) // an import that added nothing made no undo record, and is no operation to log
	}
	if len(out.Flagged) > 0 {
		e.warnf("imported marked flagged, as --allow-flagged asked: %s; context build leaves them out",
			joinLabels(out.Flagged))
	}
	if jsonFlag.Get(c) {
		return printedError("imported", e.printJSON(out))
	}
	var err2 error
	if notesFlag.Get(c) {
		_, err2 = fmt.Fprintf(e.stdout, "imported %d note(s) (%d unchanged): %d new claim(s), %d known\n",
			out.Artifacts, out.Unchanged, out.Claims, out.KnownClaims)
	} else {
		_, err2 = fmt.Fprintf(e.stdout, "imported %d artifact(s), %d claim(s), %d evidence span(s), %d supersession(s)\n",
			out.Artifacts, out.Claims, out.Evidence, out.Supersessions)
	}
	return printedError("imported", err2)
}

// joinLabels lists file names for a message, escaped, at most five.
func joinLabels(names []string) string {
	s := ""
	for i, n := range names {
		if i == 5 {
			return s + fmt.Sprintf(", and %d more", len(names)-5)
		}
		if i > 0 {
			s += ", "
		}
		s += escape.Label(n)
	}
	return s
}
