package recall_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memoree/memoree/scan"
)

// evalTags are the tags a query may have (testdata/eval/README.md says what each tests).
var evalTags = words(`keyword stem case diacritic identifier syntax update heading conversation paraphrase
	none-offtopic none-overlap`)

// maxEvalNote is the size every note of a corpus stays under.
const maxEvalNote = 3 << 10

var answerPrefix = regexp.MustCompile(`^[0-9a-f]{12}$`)

// TestEvalCorpora checks that every evaluation corpus measures what its labels say: its notes are listed
// once each in manifest.jsonl, in strictly increasing time, valid UTF-8 under 3 KiB and not flagged by the
// secret scan; every query line is well formed, with a known tag, answers exactly when it expects a claim,
// stale notes exactly for an update, and every answer and stale prefix names exactly one note; a stale note
// comes before every answer of its query; no file asks a query twice; and every tag has the queries a file
// promises.
func TestEvalCorpora(t *testing.T) {
	for _, c := range evalCorpora {
		t.Run(c.dir, func(t *testing.T) {
			dir := filepath.Join("..", "testdata", c.dir)
			order := checkManifest(t, dir, c.minNotes)
			checked := map[string]bool{}
			for _, ef := range c.files {
				if checked[ef.file] {
					continue
				}
				checked[ef.file] = true
				checkQueries(t, filepath.Join(dir, ef.file), order, ef.minPerTag)
			}
		})
	}
}

// checkManifest checks the notes and the manifest of the corpus in dir and returns each note's place in
// apply order by the hex SHA-256 of its bytes, which is its artifact hash.
func checkManifest(t *testing.T, dir string, minNotes int) map[string]int {
	t.Helper()
	order := map[string]int{}
	listed := map[string]bool{}
	var prev time.Time
	for i, m := range readManifest(t, dir) {
		n := i + 1
		if listed[m.File] {
			t.Errorf("manifest.jsonl:%d: %s is listed twice", n, m.File)
		}
		listed[m.File] = true
		if !m.Time.After(prev) {
			t.Errorf("manifest.jsonl:%d: %s at %s, not after %s", n, m.File, m.Time, prev)
		}
		prev = m.Time
		text, err := os.ReadFile(filepath.Join(dir, m.File))
		if err != nil {
			t.Error(err)
			continue
		}
		switch {
		case len(text) >= maxEvalNote:
			t.Errorf("%s: %d bytes, want under %d", m.File, len(text), maxEvalNote)
		case !utf8.Valid(text):
			t.Errorf("%s: not valid UTF-8", m.File)
		}
		if fs := scan.Text(string(text)); len(fs) > 0 {
			t.Errorf("%s: flagged by the scan (%s): a corpus note must be stored unflagged", m.File, fs[0].Rule)
		}
		sum := sha256.Sum256(text)
		order[hex.EncodeToString(sum[:])] = n
	}
	files, err := filepath.Glob(filepath.Join(dir, "notes", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range files {
		if rel, _ := filepath.Rel(dir, p); !listed[filepath.ToSlash(rel)] {
			t.Errorf("%s is not in manifest.jsonl", rel)
		}
	}
	if len(order) < minNotes {
		t.Errorf("%d distinct notes, want at least %d", len(order), minNotes)
	}
	return order
}

// checkQueries checks the query file at path against the notes of order (see checkManifest); minPerTag,
// when not 0, is the fewest queries each tag used anywhere must have in the file.
func checkQueries(t *testing.T, path string, order map[string]int, minPerTag int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(path)
	// note returns the place of the one note whose hash starts with prefix, or 0.
	note := func(n int, prefix string) int {
		if !answerPrefix.MatchString(prefix) {
			t.Errorf("%s:%d: %q is not 12 hex digits", name, n, prefix)
			return 0
		}
		found := 0
		for h, o := range order {
			if strings.HasPrefix(h, prefix) {
				if found != 0 {
					t.Errorf("%s:%d: %s names more than one note", name, n, prefix)
				}
				found = o
			}
		}
		if found == 0 {
			t.Errorf("%s:%d: %s names no note", name, n, prefix)
		}
		return found
	}
	asked := map[string]int{}
	perTag := map[string]int{}
	n := 0
	for line := range strings.Lines(string(data)) {
		n++
		var q struct {
			Query   string   `json:"query"`
			Expect  string   `json:"expect"`
			Answers []string `json:"answers"`
			Tag     string   `json:"tag"`
			Stale   []string `json:"stale"`
		}
		if err := strictJSON([]byte(line), &q); err != nil {
			t.Errorf("%s:%d: %v", name, n, err)
			continue
		}
		perTag[q.Tag]++
		none := strings.HasPrefix(q.Tag, "none-")
		switch {
		case strings.TrimSpace(q.Query) == "":
			t.Errorf("%s:%d: empty query", name, n)
		case !evalTags[q.Tag]:
			t.Errorf("%s:%d: unknown tag %q", name, n, q.Tag)
		case q.Expect != "claim" && q.Expect != "none":
			t.Errorf("%s:%d: expect %q, want claim or none", name, n, q.Expect)
		case none != (q.Expect == "none") || none != (len(q.Answers) == 0):
			t.Errorf("%s:%d: tag %s, expect %s and %d answers do not agree", name, n, q.Tag, q.Expect, len(q.Answers))
		case (q.Tag == "update") != (len(q.Stale) > 0):
			t.Errorf("%s:%d: stale notes go with the update tag and only with it", name, n)
		}
		if first, ok := asked[q.Query]; ok {
			t.Errorf("%s:%d: the query of line %d again", name, n, first)
		}
		asked[q.Query] = n
		all := append(slices.Clone(q.Answers), q.Stale...)
		if len(slices.Compact(slices.Sorted(slices.Values(all)))) != len(all) {
			t.Errorf("%s:%d: a note is listed twice", name, n)
		}
		var answers []int
		for _, p := range q.Answers {
			answers = append(answers, note(n, p))
		}
		for _, p := range q.Stale {
			if s := note(n, p); s != 0 && slices.ContainsFunc(answers, func(a int) bool { return a != 0 && a < s }) {
				t.Errorf("%s:%d: stale note %s is applied after an answer", name, n, p)
			}
		}
	}
	if minPerTag == 0 {
		return
	}
	for tag, c := range perTag {
		if c < minPerTag {
			t.Errorf("%s: tag %s has %d queries, want at least %d", name, tag, c, minPerTag)
		}
	}
}

// strictJSON decodes one JSON object into v, refusing fields v does not have and anything after it.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}
