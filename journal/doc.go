// Package journal is memoree's append-only, hash-chained record of operations: one JSONL file per day, one
// line per operation, never any note text.
package journal
