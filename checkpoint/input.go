package checkpoint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memoree/memoree/scan"
)

// MaxInput is the largest input accepted, in bytes. Larger input is rejected whole, never truncated.
const MaxInput = 64 << 10

// ErrInput marks input that was rejected (too large, not UTF-8, empty, bad session ID or task label).
// The command line maps it to exit status 2.
var ErrInput = errors.New("rejected input")

// inputError is a rejection with a message for the user; it matches [ErrInput] with errors.Is.
type inputError struct{ msg string }

func (e *inputError) Error() string        { return e.msg }
func (e *inputError) Is(target error) bool { return target == ErrInput }

func rejectf(format string, a ...any) error { return &inputError{fmt.Sprintf(format, a...)} }

// Read reads a note from r and checks it with [Validate]. It reads at most MaxInput+1 bytes, so an endless or
// huge stream costs no more memory than the limit.
func Read(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return nil, fmt.Errorf("read input: %w", err)
	}
	if err := Validate(data); err != nil {
		return nil, err
	}
	return data, nil
}

// Validate returns an [ErrInput] error if text is larger than MaxInput, is not valid UTF-8 (naming the byte
// offset of the first bad byte), or holds nothing but white space (see [Blank]).
func Validate(text []byte) error {
	if len(text) > MaxInput {
		return rejectf("input is larger than %d bytes (64 KiB); nothing was written: shorten the note", MaxInput)
	}
	if off := invalidUTF8(text); off >= 0 {
		return rejectf("input is not valid UTF-8 (bad byte 0x%02x at offset %d); nothing was written: convert it to UTF-8", text[off], off)
	}
	if Blank(text) {
		return rejectf("input is empty or only white space; nothing was written")
	}
	return nil
}

// Blank reports whether text holds nothing a reader sees: white space, control characters (NUL bytes piped in
// by mistake) and format characters (a byte-order mark alone, as an editor saves an empty file) only.
func Blank(text []byte) bool {
	return bytes.IndexFunc(text, func(r rune) bool {
		return !unicode.IsSpace(r) && !unicode.IsControl(r) && !unicode.Is(unicode.Cf, r)
	}) < 0
}

// invalidUTF8 returns the byte offset of the first invalid UTF-8 sequence in b, or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// MaxLabel is the longest session ID or task label, in bytes.
const MaxLabel = 256

// CheckLabel returns an [ErrInput] error unless v is 1 to MaxLabel bytes of printable UTF-8: no control
// characters, no invisible format characters, no white space but the ASCII space, and none of that at either
// end, so that "S1" and "S1 " can never be two sessions. what names the value in the message ("session ID",
// "task"). Every command that takes a session ID or task label checks it with this.
func CheckLabel(what, v string) error {
	switch {
	case v == "":
		return rejectf("%s is empty: give 1 to %d bytes of printable text", what, MaxLabel)
	case len(v) > MaxLabel:
		return rejectf("%s is %d bytes, more than %d", what, len(v), MaxLabel)
	case !utf8.ValidString(v):
		return rejectf("%s is not valid UTF-8", what)
	}
	for i, r := range v {
		if !unicode.IsPrint(r) {
			return rejectf("%s has a non-printable character (%U) at byte %d: use printable text", what, r, i)
		}
	}
	if strings.TrimSpace(v) == "" {
		return rejectf("%s is blank: give 1 to %d bytes of printable text", what, MaxLabel)
	}
	if strings.TrimSpace(v) != v {
		return rejectf("%s %q starts or ends with a space: give it without", what, v)
	}
	return CheckPlain(what, v)
}

// CheckPlain returns an [ErrInput] error when the scan flags v, a label or a ref: unlike a note's text, what
// names a note is not quarantined (the journal, the store and every listing show it), so a secret or an
// instruction to the agent there would reach all of them. The error names the rule, never the text.
func CheckPlain(what, v string) error {
	if f := scan.Text(v); len(f) > 0 {
		return rejectf("%s holds what the scan takes for %s (%s): it is shown and stored unquarantined, so give a plain name",
			what, findingKind(f[0].Category), f[0].Rule)
	}
	return nil
}

// findingKind names a finding's category for a message: "a secret", "an instruction to the agent".
func findingKind(category string) string {
	if category == scan.CategoryInstruction {
		return "an instruction to the agent"
	}
	return "a secret"
}
