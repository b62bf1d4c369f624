package recall

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/memoree/memoree/internal/atomicfile"
)

// ErrNotFound is returned by [Store.ArtifactBytes] when no stored artifact hash starts with the prefix.
var ErrNotFound = errors.New("no such artifact")

// ErrCorrupt is returned when an artifact file's bytes no longer hash to its name.
var ErrCorrupt = errors.New("artifact file is corrupt")

// MinPrefix is the shortest hash prefix [Store.ArtifactBytes] accepts.
const MinPrefix = 4

// AmbiguousError is returned by [Store.ArtifactBytes] when several artifacts share the prefix.
type AmbiguousError struct {
	Prefix     string
	Candidates []string // full hashes, sorted
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("artifact prefix %s is ambiguous: %s", e.Prefix, strings.Join(e.Candidates, ", "))
}

// hashBytes returns the lowercase hex SHA-256 of data.
func hashBytes(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// casPath returns the path of the artifact with the given full hash inside the store directory.
func casPath(hash string) string {
	return casDir + "/" + hash[:2] + "/" + hash
}

// casSub opens (creating it if needed) the artifact directory for the two-character prefix, through the
// store directory's handle; both levels, cas/ and cas/ab/, must be private.
func (s *Store) casSub(prefix string) (*atomicfile.Dir, error) {
	cas, err := s.root.Sub(casDir)
	if err != nil {
		return nil, err
	}
	defer cas.Close()
	return cas.Sub(prefix)
}

// writeArtifact makes the artifact file for data durable (file and directory entries synced) before it
// returns. An existing file that verifies is left alone; a corrupt one is replaced.
func (s *Store) writeArtifact(hash string, data []byte) error {
	if got, err := s.root.ReadFile(casPath(hash)); err == nil && bytes.Equal(got, data) {
		return nil
	}
	d, err := s.casSub(hash[:2])
	if err != nil {
		return fmt.Errorf("store artifact %s: %w", hash, err)
	}
	defer d.Close()
	if err := d.Write(hash, data, 0o400); err != nil {
		return fmt.Errorf("store artifact %s: %w", hash, err)
	}
	return nil
}

// readArtifact returns the bytes of the artifact with the given full hash after checking that they hash to it.
func (s *Store) readArtifact(hash string) ([]byte, error) {
	data, err := s.root.ReadFile(casPath(hash))
	if err != nil {
		return nil, fmt.Errorf("read artifact %s: %w", hash, err)
	}
	if got := hashBytes(data); got != hash {
		return nil, fmt.Errorf("read artifact %s: %w (content hashes to %s)", hash, ErrCorrupt, got)
	}
	return data, nil
}

// CheckPrefix reports whether prefix can name an artifact: [MinPrefix] to 64 hex characters, in any case. It
// looks nothing up, so callers can tell a malformed argument from a missing artifact.
func CheckPrefix(prefix string) error {
	p := strings.ToLower(prefix)
	if len(p) < MinPrefix || len(p) > sha256.Size*2 || strings.Trim(p, "0123456789abcdef") != "" {
		return fmt.Errorf("artifact %q: want %d to %d hex characters", prefix, MinPrefix, sha256.Size*2)
	}
	return nil
}

// ArtifactBytes resolves a hash prefix of at least [MinPrefix] hex characters (any case) to a stored artifact
// and returns its full hash and exact bytes, verified against the hash. It returns [ErrNotFound] when nothing
// matches, an [*AmbiguousError] listing the candidates when several do, and an error wrapping [ErrCorrupt]
// when the file no longer matches its hash.
func (s *Store) ArtifactBytes(prefix string) (hash string, data []byte, err error) {
	if err := CheckPrefix(prefix); err != nil {
		return "", nil, err
	}
	p := strings.ToLower(prefix)
	cands, err := column[string](context.Background(), s.db,
		`SELECT hash FROM artifacts WHERE hash >= ? AND hash <= ? ORDER BY hash`, p, p+"g")
	if err != nil {
		return "", nil, fmt.Errorf("artifact %s: %w", p, err)
	}
	switch len(cands) {
	case 0:
		return "", nil, fmt.Errorf("artifact %s: %w", p, ErrNotFound)
	case 1:
	default:
		return "", nil, &AmbiguousError{Prefix: p, Candidates: cands}
	}
	data, err = s.readArtifact(cands[0])
	if err != nil {
		return "", nil, err
	}
	return cands[0], data, nil
}

// CollectGarbage removes artifact files that no artifact row refers to and that were last modified more
// than grace before now: files a failed or interrupted apply left behind, temp files included. The grace
// period protects the file of an apply in progress, which is written before its row commits; give at least
// a minute unless no apply can be running. It holds the write lock while it runs, and returns how many files
// it removed.
func (s *Store) CollectGarbage(ctx context.Context, now time.Time, grace time.Duration) (int, error) {
	if s.readOnly {
		return 0, fmt.Errorf("collect garbage: %w", ErrReadOnly)
	}
	unlock, err := lockExclusive(ctx, s.root)
	if err != nil {
		return 0, fmt.Errorf("collect garbage: %w", err)
	}
	defer unlock()
	prefixes, err := s.casPrefixes()
	if err != nil {
		return 0, fmt.Errorf("collect garbage: %w", err)
	}
	removed := 0
	for _, prefix := range prefixes {
		dir, err := s.casSub(prefix)
		if err != nil {
			return removed, fmt.Errorf("collect garbage: %w", err)
		}
		defer dir.Close()
		files, err := dir.ReadDir()
		if err != nil {
			return removed, fmt.Errorf("collect garbage: %w", err)
		}
		// The hashes stored under this prefix, in one range scan of the unique index.
		hashes, err := column[string](ctx, s.db, `SELECT hash FROM artifacts WHERE hash >= ? AND hash < ?`, prefix, prefix+"g")
		if err != nil {
			return removed, fmt.Errorf("collect garbage: %w", err)
		}
		stored := make(map[string]bool, len(hashes))
		for _, h := range hashes {
			stored[h] = true
		}
		for _, f := range files {
			fi, err := f.Info()
			if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) < grace || stored[f.Name()] {
				continue
			}
			if strings.HasPrefix(f.Name(), atomicfile.TempPrefix) {
				// Whatever its age, the temp file of a write in progress stays: its writer holds its lock.
				ok, err := dir.RemoveDeadTemp(f.Name())
				if err != nil {
					return removed, fmt.Errorf("collect garbage: %w", err)
				}
				if ok {
					removed++
				}
				continue
			}
			if err := dir.Remove(f.Name()); err != nil {
				return removed, fmt.Errorf("collect garbage: %w", err)
			}
			removed++
		}
	}
	return removed, nil
}

// casPrefixes returns the two-character artifact directories under cas/, none when there is no cas/.
func (s *Store) casPrefixes() ([]string, error) {
	if _, err := s.root.Root().Lstat(casDir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	cas, err := s.root.Sub(casDir)
	if err != nil {
		return nil, err
	}
	defer cas.Close()
	entries, err := cas.ReadDir()
	if err != nil {
		return nil, err
	}
	var prefixes []string
	for _, e := range entries {
		if e.IsDir() && len(e.Name()) == 2 {
			prefixes = append(prefixes, e.Name())
		}
	}
	return prefixes, nil
}

// SweepTemps removes the temp files that artifact writes killed or cut short left under the artifact
// directories, whatever their age, and returns how many it removed. It removes only files it can prove dead:
// a writer holds a lock on its temp file for as long as the file exists. It takes no store lock, and works
// on a read-only Store too.
func (s *Store) SweepTemps() (int, error) {
	prefixes, err := s.casPrefixes()
	if err != nil {
		return 0, fmt.Errorf("sweep artifact temp files: %w", err)
	}
	removed := 0
	var errs []error
	for _, prefix := range prefixes {
		d, err := s.casSub(prefix)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n, err := d.SweepTemps("")
		d.Close()
		removed += n
		if err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return removed, fmt.Errorf("sweep artifact temp files: %w", err)
	}
	return removed, nil
}
