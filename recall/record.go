package recall

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// SupersedeMode says which stored claims an apply supersedes.
type SupersedeMode int

const (
	// SupersedeNone supersedes nothing: what [Store.Apply] does, and pending apply --keep-old.
	SupersedeNone SupersedeMode = iota
	// SupersedeListed supersedes what [Store.Candidates] lists for the note's claims, and makes current
	// again a superseded claim that the note states again: pending apply's default.
	SupersedeListed
	// SupersedeIDs supersedes exactly ApplyOptions.IDs (pending apply --supersede ID), and revives as
	// SupersedeListed does.
	SupersedeIDs
)

// ApplyOptions controls supersession in [Store.ApplyWith].
type ApplyOptions struct {
	Supersede SupersedeMode
	IDs       []int64 // for SupersedeIDs: the stored claims to supersede
}

// Supersession is one claim replaced by another.
type Supersession struct {
	Old int64 // the superseded claim
	New int64 // the claim of this apply that replaced it
}

// ErrSuperseded is returned for an explicit supersession of a claim that is superseded already.
var ErrSuperseded = errors.New("claim is superseded already")

// ErrStated is returned for an explicit supersession of a claim that the note itself states.
var ErrStated = errors.New("the note states that claim")

// ApplyWith is [Store.Apply] with supersession: opt says which stored claims the note's claims replace. A
// superseded claim keeps its row and evidence, drops out of [Store.Recall] and [Store.Context] unless they are
// asked for history, and names the claim that replaced it. A claim named in opt.IDs that is listed as a
// candidate of one of the note's claims is superseded by that claim, otherwise by the note's claim that shares
// the most words with it (the first of those that share as many); an ID that is not stored returns an error
// wrapping [ErrNoClaim], one superseded already [ErrSuperseded], one the note states [ErrStated].
func (s *Store) ApplyWith(ctx context.Context, a Artifact, claims []ClaimInput, now time.Time, opt ApplyOptions) (ApplyResult, error) {
	res, err := s.applyBatch(ctx, []Batch{{Artifact: a, Claims: claims}}, []ApplyOptions{opt}, now, opApply, 0)
	if err != nil {
		return ApplyResult{}, err
	}
	return res[0], nil
}

// record writes the undo record of the transaction's applies, if they changed anything, and gives its id to
// every result.
func (st *applyStmts) record(ctx context.Context, op string, grp int64, results []ApplyResult, now time.Time) error {
	if st.added.empty() && st.removed.empty() {
		return nil
	}
	id, err := record(ctx, st.tx, op, grp, undoRecord{Added: st.added, Removed: st.removed}, now)
	if err != nil {
		return err
	}
	if grp != 0 {
		id = grp
	}
	for i := range results {
		results[i].Record = id
	}
	return nil
}

// Supersede marks the stored claim old as superseded by the stored claim new, as a reviewer does by hand; it
// can be undone. It returns an error wrapping [ErrNoClaim] for an unknown claim and [ErrSuperseded] when old
// is superseded already.
func (s *Store) Supersede(ctx context.Context, old, new int64, now time.Time) (int64, error) {
	if s.readOnly {
		return 0, fmt.Errorf("supersede: %w", ErrReadOnly)
	}
	if old == new {
		return 0, fmt.Errorf("supersede claim %d: a claim cannot supersede itself", old)
	}
	unlock, err := lockExclusive(ctx, s.root)
	if err != nil {
		return 0, fmt.Errorf("supersede: %w", err)
	}
	defer unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("supersede: %w", err)
	}
	defer tx.Rollback()
	for _, id := range []int64{old, new} {
		var status string
		if err := tx.QueryRowContext(ctx, `SELECT status FROM claims WHERE id = ?`, id).Scan(&status); errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("supersede: claim %d: %w", id, ErrNoClaim)
		} else if err != nil {
			return 0, fmt.Errorf("supersede: %w", err)
		}
		if id == old && status == "superseded" {
			return 0, fmt.Errorf("supersede claim %d: %w", id, ErrSuperseded)
		}
	}
	sr := supersessionRow{Old: old, New: new, Created: now.UnixNano()}
	if err := supersede(ctx, tx, sr); err != nil {
		return 0, err
	}
	id, err := record(ctx, tx, opSupersede, 0, undoRecord{Added: delta{Supersessions: []supersessionRow{sr}}}, now)
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("supersede: commit: %w", cancelled(ctx, err))
	}
	return id, nil
}
