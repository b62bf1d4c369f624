package recall

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Rows of a common word.
//
// BM25 and coverage weigh a query term by how many rows of the index hold it. A rare term's rows are all read
// anyway; a common term's are counted, and count(*) over its MATCH steps the statement once per row, tens of
// thousands of times. An fts5vocab table over the index counts the rows of one index term inside FTS5 instead,
// in a fraction of the time. It counts terms as the index holds them, after the tokenizer has stemmed and
// folded them, so each query word is first cut by the same tokenizer: FTS5's own, through a temporary FTS5
// table of the index's tokenizer and an fts5vocab table over that. A query term that is one word, and that the
// tokenizer makes one index term, matches exactly the rows that hold that index term, which is what the
// vocabulary table counts. Any other term (an identifier of several words, a word with other spellings) is
// counted by its MATCH.
//
// The temporary tables belong to the connection and hold nothing of the store: only the query's words while
// they are cut, in memory.

// vocabSetup creates, on a connection, the vocabulary table of the index fts and the tokenizer tables.
const vocabSetup = `CREATE VIRTUAL TABLE IF NOT EXISTS temp.memoree_%[1]s_vocab USING fts5vocab(main, %[1]s, 'row');
CREATE VIRTUAL TABLE IF NOT EXISTS temp.memoree_tok USING fts5(w, content = '', tokenize = '` + tokenizer + `');
CREATE VIRTUAL TABLE IF NOT EXISTS temp.memoree_tok_terms USING fts5vocab(temp, memoree_tok, 'instance')`

// countRows sets hits[i], for each term index i in which, to the number of rows of t's index that match
// q.terms[i].
func (s *Store) countRows(ctx context.Context, t ftsTable, q *query, which []int, hits []int64) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// Terms that are one word, counted in the vocabulary. The rows that hold the word only written together
	// with its neighbours (see joinAdjacent) are not counted: a few rows among the thousand or more a
	// counted term has, where counting the expression instead would read every one of them.
	var words []int
	for _, i := range which {
		if tm := q.terms[i]; len(tm.alts) == 1 && len(tm.words) == 1 {
			words = append(words, i)
		}
	}
	var index map[int]string // the index term of each of words that the tokenizer makes one term
	if len(words) > 0 {
		if _, err := conn.ExecContext(ctx, fmt.Sprintf(vocabSetup, t.fts)); err != nil {
			return err
		}
		if index, err = indexTerms(ctx, conn, q, words); err != nil {
			return err
		}
	}
	var counts []string
	for _, i := range which {
		if it, ok := index[i]; ok {
			counts = append(counts, fmt.Sprintf(`SELECT %d, doc FROM temp.memoree_%s_vocab WHERE term = %s`, i, t.fts, sqlString(it)))
		} else {
			counts = append(counts, fmt.Sprintf(`SELECT %d, count(*) FROM %s WHERE %s MATCH %s`, i, t.fts, t.fts, sqlString(q.terms[i].expr())))
		}
	}
	r, err := conn.QueryContext(ctx, strings.Join(counts, " UNION ALL "))
	if err != nil {
		return err
	}
	defer r.Close()
	for _, i := range which {
		hits[i] = 0 // an index term that no row holds has no row in the vocabulary table
	}
	for r.Next() {
		var i int
		var n int64
		if err := r.Scan(&i, &n); err != nil {
			return err
		}
		hits[i] = n
	}
	return r.Err()
}

// indexTerms cuts the word of each term q.terms[i] for i in words with the index's tokenizer, and returns the
// index term of each that comes out as exactly one.
func indexTerms(ctx context.Context, conn *sql.Conn, q *query, words []int) (map[int]string, error) {
	const clear = `INSERT INTO temp.memoree_tok (memoree_tok) VALUES ('delete-all')`
	if _, err := conn.ExecContext(ctx, clear); err != nil {
		return nil, err
	}
	values := make([]string, len(words))
	args := make([]any, 0, 2*len(words))
	for k, i := range words {
		values[k] = "(?, ?)"
		args = append(args, i, q.terms[i].alts[0])
	}
	if _, err := conn.ExecContext(ctx, `INSERT INTO temp.memoree_tok (rowid, w) VALUES `+strings.Join(values, ", "), args...); err != nil {
		return nil, err
	}
	r, err := conn.QueryContext(ctx, `SELECT doc, min(term), count(*) FROM temp.memoree_tok_terms GROUP BY doc`)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	out := map[int]string{}
	for r.Next() {
		var i, n int
		var term string
		if err := r.Scan(&i, &term, &n); err != nil {
			return nil, err
		}
		if n == 1 {
			out[i] = term
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	r.Close()
	// Leave no query words behind on the connection.
	if _, err := conn.ExecContext(ctx, clear); err != nil {
		return nil, err
	}
	return out, nil
}
