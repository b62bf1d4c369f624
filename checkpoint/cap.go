package checkpoint

import (
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxStored is the most bytes of text a checkpoint stores, truncation marker included.
const MaxStored = 4 << 10

// Cap returns text unchanged when it fits in MaxStored bytes. Otherwise it returns the longest prefix of text that
// ends on a character boundary (never inside a UTF-8 sequence, never between a base character and its combining
// marks) and leaves room for a marker line, followed by that marker line, which names how many bytes were kept of
// how many; the result is then at most MaxStored bytes. kept is the length of the prefix of text that stored
// begins with: len(text) exactly when nothing was cut.
func Cap(text []byte) (stored []byte, kept int) {
	if len(text) <= MaxStored {
		return text, len(text)
	}
	// The marker's length depends on the number of bytes kept; 4 digits are enough for any cut of a 4 KiB text.
	room := MaxStored - len(marker(9999, len(text)))
	cut := boundary(text, room)
	out := make([]byte, 0, MaxStored)
	out = append(out, text[:cut]...)
	out = append(out, marker(cut, len(text))...)
	return out, cut
}

// marker is the line appended to a truncated text.
func marker(kept, total int) string {
	return fmt.Sprintf("\n[memoree: truncated: kept %d of %d bytes]\n", kept, total)
}

// maxMarks is how many runes boundary steps back over combining marks before it gives up and cuts between two
// marks. Unicode's stream-safe format allows at most 30 in a row; only an abuse of marks has more.
const maxMarks = 32

// boundary returns the largest n <= limit such that text[:n] ends on a character boundary: not inside a UTF-8
// sequence and not before a combining mark that belongs to the character before it, unless more than maxMarks
// marks stand in a row there.
func boundary(text []byte, limit int) int {
	n := limit
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	rune0 := n
	for steps := 0; n > 0 && steps <= maxMarks; steps++ {
		// A rune that starts a new normalization segment cannot combine with what comes before it.
		if norm.NFC.Properties(text[n:]).BoundaryBefore() {
			return n
		}
		_, size := utf8.DecodeLastRune(text[:n])
		n -= size
	}
	if n == 0 {
		return 0
	}
	return rune0
}
