package gitref

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotRepo is returned by [Read] when no directory from dir up to the root holds a .git.
var ErrNotRepo = errors.New("not inside a git work tree")

// Info is where a work tree stands.
type Info struct {
	Commit string // full hex object name of HEAD; "" in a repository with no commit yet
	Branch string // short branch name ("main"); "" when HEAD is detached
}

// maxFile bounds what is read of HEAD, .git files and loose refs; names and hashes are short.
const maxFile = 4096

// Read finds the work tree that holds dir (dir itself or the nearest parent with a .git directory or
// .git file, as linked work trees and submodules have) and returns its HEAD's commit and branch. It reads
// HEAD, the loose ref it names, and packed-refs, and nothing else; it runs no program and writes nothing.
func Read(dir string) (Info, error) {
	gitDir, err := find(dir)
	if err != nil {
		return Info{}, err
	}
	common := gitDir
	if b, err := readSmall(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = c
	}
	head, err := readSmall(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return Info{}, fmt.Errorf("git HEAD: %w", err)
	}
	h := strings.TrimSpace(string(head))
	if isHash(h) {
		return Info{Commit: h}, nil
	}
	ref, ok := strings.CutPrefix(h, "ref: ")
	if !ok || !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
		return Info{}, fmt.Errorf("git HEAD: unexpected content")
	}
	info := Info{}
	if b, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
		info.Branch = b
	}
	// A branch's ref is loose in the work tree's own directory (for HEAD-like refs) or the common one, or
	// packed; a branch with no commit yet has none.
	for _, d := range []string{gitDir, common} {
		if b, err := readSmall(filepath.Join(d, filepath.FromSlash(ref))); err == nil {
			if c := strings.TrimSpace(string(b)); isHash(c) {
				info.Commit = c
				return info, nil
			}
		}
	}
	c, err := packed(filepath.Join(common, "packed-refs"), ref)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Info{}, fmt.Errorf("git packed-refs: %w", err)
	}
	info.Commit = c
	return info, nil
}

// find returns the git directory of the work tree holding dir.
func find(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		p := filepath.Join(d, ".git")
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir():
			return p, nil
		case err == nil && fi.Mode().IsRegular():
			// A linked work tree or submodule: "gitdir: PATH".
			b, err := readSmall(p)
			if err != nil {
				return "", fmt.Errorf("git: %w", err)
			}
			g, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
			if !ok {
				return "", fmt.Errorf("git: %s: unexpected content", p)
			}
			if !filepath.IsAbs(g) {
				g = filepath.Join(d, g)
			}
			return g, nil
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return "", fmt.Errorf("git: %w", err)
		}
		if d == filepath.Dir(d) {
			return "", ErrNotRepo
		}
	}
}

// readSmall reads at most maxFile bytes of a file.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxFile))
}

// packed looks ref up in a packed-refs file, line by line.
func packed(path, ref string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	want := []byte(" " + ref)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == '#' || line[0] == '^' {
			continue
		}
		if bytes.HasSuffix(line, want) {
			if c := string(line[:len(line)-len(want)]); isHash(c) {
				return c, nil
			}
		}
	}
	return "", sc.Err()
}

// isHash reports whether s is a full SHA-1 or SHA-256 object name in lowercase hex.
func isHash(s string) bool {
	return (len(s) == 40 || len(s) == 64) && strings.Trim(s, "0123456789abcdef") == ""
}
