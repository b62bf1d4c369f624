package recall

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Ref is a provenance reference an artifact carries, KEY=VALUE: the context window, work item or issue a note
// relies on (window=W12, item=I-3481, issue=FW-233), or the git commit and branch it was written on.
type Ref struct{ Key, Value string }

func (r Ref) String() string { return r.Key + "=" + r.Value }

// refKey is what a ref's key may be: a short lowercase identifier.
var refKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_.-]{0,31}$`) })

// maxRefValue bounds a ref's value in bytes.
const maxRefValue = 256

// ParseRef parses KEY=VALUE. The key is 1 to 32 characters, a lowercase letter then lowercase letters, digits,
// '_', '.' or '-'; the value is 1 to 256 bytes of printable text without white space at either end.
func ParseRef(s string) (Ref, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		return Ref{}, fmt.Errorf("ref %q: want KEY=VALUE", s)
	}
	r := Ref{Key: k, Value: v}
	return r, r.check()
}

func (r Ref) check() error {
	if !refKey().MatchString(r.Key) {
		return fmt.Errorf("ref key %q: want a lowercase letter, then up to 31 of a-z 0-9 _ . -", r.Key)
	}
	if r.Value == "" || len(r.Value) > maxRefValue || strings.TrimSpace(r.Value) != r.Value ||
		strings.IndexFunc(r.Value, func(c rune) bool { return !unicode.IsPrint(c) && c != ' ' }) >= 0 {
		return fmt.Errorf("ref %s: the value must be 1 to %d bytes of printable text", r.Key, maxRefValue)
	}
	return nil
}
