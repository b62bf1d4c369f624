package recall

// Schema steps for memory that stays true: flagged artifacts and provenance refs, supersession, and the undo
// log. Each is one entry of [migrations], in this order.

// migrationFlaggedRefs marks artifacts applied although the secret scan flagged them, and adds the KEY=VALUE
// references an artifact carries (window=W12, commit=…).
const migrationFlaggedRefs = `
ALTER TABLE artifacts ADD COLUMN flagged INTEGER NOT NULL DEFAULT 0;
-- The few flagged artifacts, found without reading the others.
CREATE INDEX artifacts_flagged ON artifacts (id) WHERE flagged = 1;
CREATE TABLE refs (
	artifact INTEGER NOT NULL REFERENCES artifacts (id),
	key      TEXT    NOT NULL,
	value    TEXT    NOT NULL,
	PRIMARY KEY (artifact, key, value)
) WITHOUT ROWID;
CREATE INDEX refs_key_value ON refs (key, value);
`

// migrationSupersessions records which claim replaced which. A superseded claim keeps its row and evidence;
// its status is 'superseded' while a row here names it, so that queries filter on one column.
const migrationSupersessions = `
CREATE TABLE supersessions (
	old     INTEGER PRIMARY KEY REFERENCES claims (id),  -- the superseded claim
	new     INTEGER NOT NULL REFERENCES claims (id),     -- the claim that replaced it
	created INTEGER NOT NULL                             -- Unix nanoseconds
);
CREATE INDEX supersessions_new ON supersessions (new);
`

// migrationUndo holds one record per undoable operation: the rows it added and removed (see undo.go).
const migrationUndo = `
CREATE TABLE undo_log (
	id         INTEGER PRIMARY KEY,
	grp        INTEGER NOT NULL,              -- records undone and redone together: one operation
	op         TEXT    NOT NULL,              -- apply, forget, supersede, import
	created    INTEGER NOT NULL,              -- Unix nanoseconds
	state      TEXT    NOT NULL CHECK (state IN ('done', 'undone')),
	undone     INTEGER NOT NULL DEFAULT 0,    -- order of undoing, for redo: newest undone first
	holds_text INTEGER NOT NULL DEFAULT 0,    -- 1 while record holds artifact or claim text
	record     TEXT    NOT NULL               -- JSON
);
CREATE INDEX undo_log_grp ON undo_log (grp);
CREATE INDEX undo_log_state ON undo_log (state, undone);
`

// migrationActiveIndex indexes the text of active claims alone, for the supersession candidate search: a store
// keeps every superseded claim as history, so a search of claims_fts for the active ones sharing a word walks
// every old version of every fact. Triggers on claims keep it exact, whichever statement changes a claim's
// text or status; it is contentless (the text is the claims table's) and deletes by rowid.
const migrationActiveIndex = `
CREATE VIRTUAL TABLE claims_active USING fts5 (text, content = '', contentless_delete = 1, tokenize = '` + tokenizer + `');
INSERT INTO claims_active (rowid, text) SELECT id, text FROM claims WHERE status = 'active';
CREATE TRIGGER claims_active_insert AFTER INSERT ON claims WHEN new.status = 'active' BEGIN
	INSERT INTO claims_active (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER claims_active_delete AFTER DELETE ON claims WHEN old.status = 'active' BEGIN
	DELETE FROM claims_active WHERE rowid = old.id;
END;
CREATE TRIGGER claims_active_update AFTER UPDATE OF text, status ON claims BEGIN
	DELETE FROM claims_active WHERE rowid = old.id AND old.status = 'active';
	INSERT INTO claims_active (rowid, text) SELECT new.id, new.text WHERE new.status = 'active';
END;
`

// migrationUndoNumbers gives undo records numbers that are never used twice. A record's number is what undo,
// redo and the journal name it by, but taking max(id)+1 handed an undone or purged record's number to the
// next operation, so that one number in the journal could mean two operations.
const migrationUndoNumbers = `
CREATE TABLE counters (
	name TEXT    PRIMARY KEY,
	last INTEGER NOT NULL                           -- the last number handed out
) WITHOUT ROWID;
INSERT INTO counters (name, last) SELECT 'undo_log', coalesce(max(id), 0) FROM undo_log;
`
