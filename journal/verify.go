package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
)

// Kind is a kind of damage [Verify] finds.
type Kind string

// The kinds of damage.
const (
	// Edited: a line does not parse, or the entry after it does not hold its hash.
	Edited Kind = "edited"
	// Deleted: sequence numbers are missing (lines or whole day files removed).
	Deleted Kind = "deleted"
	// Truncated: a line is a partial entry, an append cut short (at the end of a file, or followed by later
	// entries written after a crash).
	Truncated Kind = "truncated"
	// Reordered: an entry comes after one with a higher or equal sequence number (moved or repeated).
	Reordered Kind = "reordered"
)

// Problem is one finding of [Verify], located at a file and line.
type Problem struct {
	Kind   Kind   `json:"kind"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Seq    int64  `json:"seq,omitempty"` // the entry concerned, when known
	Detail string `json:"detail"`
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, p.Kind, p.Detail)
}

// Report is what [Verify] found.
type Report struct {
	Entries  int       `json:"entries"`   // lines that parse
	Head     Entry     `json:"head"`      // the entry with the highest sequence number
	HeadHash string    `json:"head_hash"` // hash of its line: what the next entry's Prev will be
	Problems []Problem `json:"problems"`  // empty when the journal is intact; in file and line order
}

// OK reports whether no problem was found.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// Verify reads every day file in dir and checks the chain: that each line parses, sequence numbers run from 1
// without gaps in file order, each entry holds the hash of the line before it, and every file ends with a
// whole line. It reports each problem with its file and line. A chain cannot show that its newest entries were
// removed whole: compare Report.Head with a sequence number kept elsewhere for that. The error is for I/O
// failures only; damage is in the Report.
func Verify(dir string) (Report, error) {
	rep := Report{Problems: []Problem{}}
	files, err := dayFiles(dir)
	if err != nil {
		return rep, fmt.Errorf("verify journal: %w", err)
	}
	type line struct {
		Located
		idx int // position in reading order, unparseable lines included
	}
	var lines []line
	var bad []int               // reading-order positions of lines that do not parse
	badProblem := map[int]int{} // reading-order position -> index in rep.Problems
	idx := 0
	var maxSeq int64
	for _, name := range files {
		err := scanLines(filepath.Join(dir, name), func(n int, body []byte, torn bool) {
			idx++
			if torn {
				rep.Problems = append(rep.Problems, Problem{Kind: Truncated, File: name, Line: n,
					Detail: "the file ends in a partial entry"})
				bad = append(bad, idx)
				return
			}
			e, err := Parse(body)
			if err != nil {
				badProblem[idx] = len(rep.Problems)
				rep.Problems = append(rep.Problems, Problem{Kind: Edited, File: name, Line: n, Detail: err.Error()})
				bad = append(bad, idx)
				return
			}
			if e.Seq <= maxSeq {
				rep.Problems = append(rep.Problems, Problem{Kind: Reordered, File: name, Line: n, Seq: e.Seq,
					Detail: fmt.Sprintf("entry %d comes after entry %d", e.Seq, maxSeq)})
			}
			maxSeq = max(maxSeq, e.Seq)
			lines = append(lines, line{Located{Entry: e, File: name, Line: n, hash: lineHash(body)}, idx})
		})
		if err != nil {
			return rep, fmt.Errorf("verify journal: %w", err)
		}
	}
	rep.Entries = len(lines)
	// The chain in sequence order: a reordering breaks file order, not the chain.
	sorted := make([]line, len(lines))
	copy(sorted, lines)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Entry.Seq < sorted[j].Entry.Seq })
	// unparsedBetween counts the lines that did not parse between two reading positions: a gap they explain
	// is already reported.
	unparsedBetween := func(a, b int) int64 {
		lo, hi := min(a, b), max(a, b)
		var n int64
		for _, i := range bad {
			if i > lo && i < hi {
				n++
			}
		}
		return n
	}
	// markTruncated reports the lines that did not parse between reading positions a and b as partial
	// entries, cut short by a crash, that a later Append wrote past.
	markTruncated := func(a, b int) {
		for i := a + 1; i < b; i++ {
			if k, ok := badProblem[i]; ok {
				rep.Problems[k].Kind = Truncated
				rep.Problems[k].Detail = "a partial entry (an append cut short); the chain continues past it"
			}
		}
	}
	var prev *line
	for i := range sorted {
		cur := &sorted[i]
		e := cur.Entry
		switch {
		case prev == nil && e.Seq > 1:
			if unparsedBetween(0, cur.idx) < e.Seq-1 {
				rep.Problems = append(rep.Problems, Problem{Kind: Deleted, File: cur.File, Line: cur.Line, Seq: e.Seq,
					Detail: missing(1, e.Seq-1)})
			}
		case prev == nil && e.Prev != "":
			rep.Problems = append(rep.Problems, Problem{Kind: Edited, File: cur.File, Line: cur.Line, Seq: e.Seq,
				Detail: "the first entry refers to a previous one"})
		case prev == nil && cur.idx > 1:
			// The first whole entry comes after lines that do not parse: partial entries that Append wrote past
			// when the journal held no whole entry yet, not edits.
			markTruncated(0, cur.idx)
		case prev != nil && e.Seq == prev.Entry.Seq:
			// A repeated entry, already reported as out of order.
		case prev != nil && e.Seq > prev.Entry.Seq+1:
			if unparsedBetween(prev.idx, cur.idx) < e.Seq-prev.Entry.Seq-1 {
				rep.Problems = append(rep.Problems, Problem{Kind: Deleted, File: cur.File, Line: cur.Line, Seq: e.Seq,
					Detail: missing(prev.Entry.Seq+1, e.Seq-1)})
			}
		case prev != nil && e.Prev == prev.hash && cur.idx > prev.idx+1:
			// The chain goes over the lines between: each is a partial entry that Append wrote past, not an edit.
			markTruncated(prev.idx, cur.idx)
		case prev != nil && e.Prev != prev.hash:
			rep.Problems = append(rep.Problems, Problem{Kind: Edited, File: prev.File, Line: prev.Line, Seq: prev.Entry.Seq,
				Detail: fmt.Sprintf("entry %d was changed: entry %d does not hold its hash", prev.Entry.Seq, e.Seq)})
		}
		prev = cur
	}
	if prev != nil {
		rep.Head, rep.HeadHash = prev.Entry, prev.hash
	}
	sort.SliceStable(rep.Problems, func(i, j int) bool {
		a, b := rep.Problems[i], rep.Problems[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	// One report per kind and line: an edited first entry breaks both of its links.
	rep.Problems = slices.CompactFunc(rep.Problems, func(a, b Problem) bool {
		return a.Kind == b.Kind && a.File == b.File && a.Line == b.Line
	})
	return rep, nil
}

func missing(from, to int64) string {
	if from == to {
		return fmt.Sprintf("entry %d is missing", from)
	}
	return fmt.Sprintf("entries %d to %d are missing", from, to)
}

// scanLines calls f with each line of the file at path, numbered from 1, without its newline; torn is set for
// a last line that has none.
func scanLines(path string, f func(n int, body []byte, torn bool)) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	r := bufio.NewReaderSize(file, 64<<10)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			if len(line) > 0 {
				f(n, line, true)
			}
			return nil
		}
		if err != nil {
			return err
		}
		f(n, bytes.TrimSuffix(line, []byte("\n")), false)
	}
}
