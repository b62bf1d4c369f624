package recall

import (
	"context"
	"database/sql"
	"fmt"
)

// tokenizer is the FTS5 tokenizer of both full-text indexes; see the package documentation for why.
const tokenizer = `porter unicode61 remove_diacritics 2`

// migrations[i] moves the schema from version i to i+1 (PRAGMA user_version). Released entries are never
// edited: a change is a new entry.
var migrations = []string{
	// 1: artifacts, claims, evidence and their full-text indexes.
	`
CREATE TABLE artifacts (
	id      INTEGER PRIMARY KEY,
	hash    TEXT    NOT NULL UNIQUE,            -- lowercase hex SHA-256 of the exact bytes (file cas/ab/hash)
	kind    TEXT    NOT NULL CHECK (kind IN ('checkpoint', 'note')),
	source  TEXT    NOT NULL,
	session TEXT    NOT NULL,
	task    TEXT    NOT NULL,
	created INTEGER NOT NULL                    -- Unix nanoseconds
);
CREATE INDEX artifacts_session ON artifacts (session);
CREATE INDEX artifacts_task ON artifacts (task);
CREATE TABLE claims (
	id       INTEGER PRIMARY KEY,               -- also the rowid in claims_fts
	key      TEXT    NOT NULL UNIQUE,
	text     TEXT    NOT NULL,
	kind     TEXT    NOT NULL,
	compiler TEXT    NOT NULL,
	created  INTEGER NOT NULL,                  -- Unix nanoseconds
	status   TEXT    NOT NULL DEFAULT 'active'
);
CREATE INDEX claims_created ON claims (created);
CREATE TABLE evidence (
	claim    INTEGER NOT NULL REFERENCES claims (id),
	artifact INTEGER NOT NULL REFERENCES artifacts (id),
	start    INTEGER NOT NULL,
	"end"    INTEGER NOT NULL,
	PRIMARY KEY (claim, artifact, start, "end")
) WITHOUT ROWID;
CREATE INDEX evidence_artifact ON evidence (artifact);
CREATE VIRTUAL TABLE claims_fts USING fts5 (text, content = 'claims', content_rowid = 'id', tokenize = '` + tokenizer + `');
-- Contentless: artifact text lives in the artifact files only.
CREATE VIRTUAL TABLE artifacts_fts USING fts5 (text, content = '', tokenize = '` + tokenizer + `');
`,
	// 2: claim context. A claim's context (the headings, intro and label its note gives it) is stored beside
	// its text and indexed with it; claims from before have none until reindexed.
	`
ALTER TABLE claims ADD COLUMN context TEXT NOT NULL DEFAULT '';
DROP TABLE claims_fts;
CREATE VIRTUAL TABLE claims_fts USING fts5 (text, context, content = 'claims', content_rowid = 'id', tokenize = '` + tokenizer + `');
INSERT INTO claims_fts (claims_fts) VALUES ('rebuild');
`,
	// 3-7: see schema_memory.go.
	migrationFlaggedRefs,
	migrationSupersessions,
	migrationUndo,
	migrationActiveIndex,
	migrationUndoNumbers,
}

// schemaVersion reads PRAGMA user_version.
func schemaVersion(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// migrate brings the database to the newest schema version in one write transaction, so that concurrent
// openers apply each migration exactly once.
func migrate(ctx context.Context, db *sql.DB) error {
	v, err := schemaVersion(ctx, db)
	if err != nil {
		return err
	}
	if v == len(migrations) {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	// Read again under the write lock: another process may have migrated meanwhile.
	if v, err = schemaVersion(ctx, tx); err != nil {
		return err
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this program knows (%d)", v, len(migrations))
	}
	for ; v < len(migrations); v++ {
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("migrate to version %d: %w", v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, v)); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}
