package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Stream is a file written whole before it replaces path, for output too large to hold in memory: it is
// written to a temp file beside path, and [Stream.Commit] syncs it, gives it its mode, renames it over path
// and syncs the directory. Until then path is untouched; [Stream.Abort] removes the temp file.
type Stream struct {
	f         *os.File
	dir, path string
	perm      fs.FileMode
	done      bool
}

// CreateStream starts a [Stream] that will replace path with mode perm.
func CreateStream(path string, perm fs.FileMode) (*Stream, error) {
	dir := filepath.Dir(path)
	// CreateTemp makes the file 0600: no one else can read what is written before Commit sets perm.
	f, err := os.CreateTemp(dir, TempPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return nil, &fs.PathError{Op: "create", Path: path, Err: unwrapPath(err)}
	}
	return &Stream{f: f, dir: dir, path: path, perm: perm}, nil
}

// Write writes to the temp file.
func (s *Stream) Write(p []byte) (int, error) {
	n, err := s.f.Write(p)
	if err != nil {
		return n, &fs.PathError{Op: "write", Path: s.path, Err: unwrapPath(err)}
	}
	return n, nil
}

// Commit makes what was written the content of path, durably. After an error path is as it was.
func (s *Stream) Commit() error {
	s.done = true
	err := s.f.Chmod(s.perm)
	if err == nil {
		err = s.f.Sync()
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(s.f.Name(), s.path)
	}
	if err != nil {
		os.Remove(s.f.Name())
		return &fs.PathError{Op: "write", Path: s.path, Err: unwrapPath(err)}
	}
	if err := syncDir(s.dir); err != nil {
		return fmt.Errorf("%s is written but may not survive a crash: %w", s.path, err)
	}
	return nil
}

// Abort removes the temp file, leaving path as it was. It does nothing after Commit.
func (s *Stream) Abort() {
	if s.done {
		return
	}
	s.done = true
	s.f.Close()
	os.Remove(s.f.Name())
}
