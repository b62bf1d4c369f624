//go:build !linux

package atomicfile

func syncFS(d *Dir, files []File, dirs map[*Dir]bool) error { return syncEach(files, dirs) }
