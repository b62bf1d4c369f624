//go:build !linux

package atomicfile

func syncFS(dir string, files []string, dirs map[string]bool) error { return syncEach(files, dirs) }
