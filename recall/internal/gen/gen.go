// Package gen builds deterministic synthetic recall stores for benchmarks: claims over a vocabulary of
// pseudo-words with Zipf-like frequencies, applied through the recall API.
package gen

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memoree/memoree/recall"
)

// Version changes whenever the generated data, the store schema it targets or what Optimize does changes, so
// caches keyed by it are never stale.
const Version = 7

// seed seeds the generated data. The queries below are chosen for the data it gives, so changing it means
// choosing them again.
const seed = 2

// VocabSize is the number of distinct words.
const VocabSize = 4000

// Epoch is the creation time of the first generated claim; each later batch is one minute newer.
var Epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// syllables make pronounceable words; three of them give 16^3 = 4096 distinct words.
var syllables = []string{"ka", "lo", "mi", "ru", "te", "zo", "pa", "ne", "vi", "so", "du", "ga", "fe", "ri", "nu", "ba"}

// Vocabulary returns the VocabSize words, most frequent first.
func Vocabulary() []string {
	words := make([]string, VocabSize)
	for i := range words {
		n := len(syllables)
		words[i] = syllables[i%n] + syllables[(i/n)%n] + syllables[(i/n/n)%n]
	}
	return words
}

// SelectiveQuery is a query whose words are rare: a few hits in a 100,000-claim store, where no claim holds
// two of its three words, so that no claim answers it and recall searches the artifact text too. (With two
// of these words a claim that holds one of them covers half the query, which answers it.)
func SelectiveQuery() string {
	v := Vocabulary()
	return v[2500] + " " + v[3100] + " " + v[2900]
}

// AnsweredQuery is a query whose two rare words occur together in a claim of a 100,000-claim store (a few
// dozen hits), so that a claim answers it and recall searches no artifact text.
func AnsweredQuery() string {
	v := Vocabulary()
	return v[3764] + " " + v[2414]
}

// BroadQuery is a query whose words are the most frequent: tens of thousands of hits in a 100,000-claim store.
func BroadQuery() string {
	v := Vocabulary()
	return v[0] + " " + v[1]
}

// maxArtifact is the size of the largest stored note.
const maxArtifact = 4096

// Batches returns the artifacts and claims of an n-claim store, deterministically: claims of 5 to 12 words
// drawn with Zipf frequencies (s = 1.1), packed into notes of at most 4 KiB, one claim per line under a
// heading ("## Section 0042") that is every claim's context, as a compiler would record it. The heading's
// words are not in the vocabulary, so no query word matches them.
func Batches(n int) []recall.Batch {
	rng := rand.New(rand.NewPCG(1, seed))
	zipf := rand.NewZipf(rng, 1.1, 1, VocabSize-1)
	vocab := Vocabulary()
	var out []recall.Batch
	var text strings.Builder
	var claims []recall.ClaimInput
	section := func() string { return fmt.Sprintf("Section %04d", len(out)) }
	heading := func() { text.WriteString("## " + section() + "\n") }
	heading()
	flush := func() {
		if len(claims) == 0 {
			return
		}
		i := len(out)
		out = append(out, recall.Batch{
			Artifact: recall.Artifact{
				Kind: "note", Source: "gen", Session: fmt.Sprintf("gen-s%04d", i/20), Task: fmt.Sprintf("gen-t%02d", i%50),
				Text: []byte(text.String()),
			},
			Claims: claims,
		})
		text.Reset()
		claims = nil
		heading()
	}
	for c := range n {
		k := 5 + rng.IntN(8)
		ws := make([]string, k)
		for j := range ws {
			ws[j] = vocab[zipf.Uint64()]
		}
		ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
		line := strings.Join(ws, " ") + "."
		if text.Len()+len(line)+1 > maxArtifact {
			flush()
		}
		start := text.Len()
		text.WriteString(line)
		text.WriteByte('\n')
		claims = append(claims, recall.ClaimInput{
			Key: fmt.Sprintf("gen:%d", c), Text: line, Kind: "fact", Compiler: "gen/1", Context: section(),
			Spans: []recall.Span{{Start: start, End: start + len(line)}},
		})
	}
	flush()
	return out
}

// Build applies the n-claim store's batches to s, about 2,000 claims per transaction, then optimizes the
// full-text indexes when optimize is set.
func Build(ctx context.Context, s *recall.Store, n int, optimize bool) error {
	bs := Batches(n)
	for i, tx := 0, 0; i < len(bs); tx++ {
		j, claims := i, 0
		for j < len(bs) && claims < 2000 {
			claims += len(bs[j].Claims)
			j++
		}
		if _, err := s.ApplyBatch(ctx, bs[i:j], Epoch.Add(time.Duration(tx)*time.Minute)); err != nil {
			return fmt.Errorf("generate %d claims: %w", n, err)
		}
		i = j
	}
	if optimize {
		return s.Optimize(ctx)
	}
	return nil
}

// Cached returns the directory of an n-claim store under os.TempDir(), keyed by n, optimize and Version,
// building it on first use. Callers must not write to it.
func Cached(n int, optimize bool) (string, error) {
	name := fmt.Sprintf("memoree-recall-gen-v%d-%d", Version, n)
	if optimize {
		name += "-optimized"
	}
	dir := filepath.Join(os.TempDir(), name)
	if _, err := os.Stat(filepath.Join(dir, "complete")); err == nil {
		return dir, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	tmp, err := os.MkdirTemp(os.TempDir(), "memoree-recall-gen-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	s, err := recall.Open(filepath.Join(tmp, "store"))
	if err != nil {
		return "", err
	}
	if err := Build(context.Background(), s, n, optimize); err != nil {
		s.Close()
		return "", err
	}
	if err := s.Close(); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, "store", "complete"), nil, 0o600); err != nil {
		return "", err
	}
	os.RemoveAll(dir) // an incomplete earlier build
	if err := os.Rename(filepath.Join(tmp, "store"), dir); err != nil {
		return "", err
	}
	return dir, nil
}

// Size returns the bytes the store in dir occupies on disk: the database with its -wal and -shm files and
// the artifact files.
func Size(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			total += fi.Size()
		}
		return nil
	})
	return total, err
}

// CachedNotes returns a directory under os.TempDir() that holds the notes of the n-claim store as plain
// files, one per artifact, building it on first use: what a text search tool such as rg reads for the same
// data. Callers must not write to it.
func CachedNotes(n int) (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("memoree-recall-notes-v%d-%d", Version, n))
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	tmp, err := os.MkdirTemp(os.TempDir(), "memoree-recall-notes-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	for i, b := range Batches(n) {
		if err := os.WriteFile(filepath.Join(tmp, fmt.Sprintf("note-%06d.md", i)), b.Artifact.Text, 0o600); err != nil {
			return "", err
		}
	}
	// The directory appears complete or not at all.
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	return dir, nil
}
