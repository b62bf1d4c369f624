package recall

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"
)

// Stats summarizes a store for memoree status.
type Stats struct {
	Artifacts int
	Claims    int
	LastApply time.Time // creation time of the newest artifact; zero when there is none
	Bytes     int64     // the store directory's files: database, its log, and artifact files
}

// Stats counts the store's artifacts and claims and measures its files.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	var st Stats
	var last *int64
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM artifacts), (SELECT count(*) FROM claims),
		(SELECT max(created) FROM artifacts)`).Scan(&st.Artifacts, &st.Claims, &last)
	if err != nil {
		return Stats{}, fmt.Errorf("store stats: %w", err)
	}
	if last != nil {
		st.LastApply = time.Unix(0, *last).UTC()
	}
	err = filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			st.Bytes += fi.Size()
		}
		return nil
	})
	if err != nil {
		return Stats{}, fmt.Errorf("store size: %w", err)
	}
	return st, nil
}

// HoldsArtifacts reports which of hashes (full SHA-256s, lowercase hex) the store holds an artifact of. One
// it held may be gone since: an undo of its apply, or a forget of it, removes it.
func (s *Store) HoldsArtifacts(ctx context.Context, hashes []string) (map[string]bool, error) {
	held := map[string]bool{}
	if len(hashes) == 0 {
		return held, nil
	}
	list, err := json.Marshal(hashes)
	if err != nil {
		return nil, err
	}
	found, err := column[string](ctx, s.db, `SELECT hash FROM artifacts WHERE hash IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("look up artifacts: %w", err)
	}
	for _, h := range found {
		held[h] = true
	}
	return held, nil
}
